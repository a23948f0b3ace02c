import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { lockedRowQuery } from './plain-rows.js';

/**
 * Whether the row of `seen` (an entity with an `id`) still holds exactly the values of `seen`, read
 * inside the caller's transaction as a locking read (`FOR UPDATE` on MySQL/MariaDB; SQLite has one
 * writer at a time). A conditional write reads it right before writing, so a change to the row
 * committed since the condition was evaluated makes the write fail instead of overwriting it.
 */
export async function rowUnchanged<T extends ObjectLiteral & { id: number }>(
  manager: EntityManager,
  target: EntityTarget<T>,
  seen: T,
): Promise<boolean> {
  const locking = lockedRowQuery(manager, target, seen.id);
  const current = locking.read(await manager.query(locking.statement.sql, locking.statement.parameters));
  return current !== null && sameRow(current, seen);
}

/** Whether two entities of one row hold the same values (a conditional write compares the row it locked with the one it was evaluated on). */
export function sameRow(current: ObjectLiteral, seen: ObjectLiteral): boolean {
  const keys = new Set([...Object.keys(current), ...Object.keys(seen)]);
  return [...keys].every((key) => JSON.stringify(current[key]) === JSON.stringify(seen[key]));
}
