import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { rowById } from './rows-by-id.js';

/**
 * The row of `target` with this `id`, read inside the caller's transaction as a locking read
 * (`FOR UPDATE` on MySQL/MariaDB: the latest committed row, held until the transaction ends; SQLite
 * has one writer at a time and no row locks); null when there is no such row.
 */
export function lockedRow<T extends ObjectLiteral & { id: number }>(
  manager: EntityManager,
  target: EntityTarget<T>,
  id: number,
): Promise<T | null> {
  return rowById(manager, target, id, true);
}

/**
 * Whether the row of `seen` (an entity with an `id`) still holds exactly the values of `seen`, read
 * as a locking read ({@link lockedRow}). A conditional write reads it right before writing, so a
 * change to the row committed since the condition was evaluated makes the write fail instead of
 * overwriting it.
 */
export async function rowUnchanged<T extends ObjectLiteral & { id: number }>(
  manager: EntityManager,
  target: EntityTarget<T>,
  seen: T,
): Promise<boolean> {
  const current = await lockedRow(manager, target, seen.id);
  return current !== null && sameRow(current, seen);
}

/** Whether two entities of one row hold the same values (a conditional write compares the row it locked with the one it was evaluated on). */
export function sameRow(current: ObjectLiteral, seen: ObjectLiteral): boolean {
  const keys = new Set([...Object.keys(current), ...Object.keys(seen)]);
  return [...keys].every((key) => JSON.stringify(current[key]) === JSON.stringify(seen[key]));
}

/**
 * The stored columns whose values differ between `before` (a row as read) and `after` (its copy,
 * changed), by property, with `after`'s values: what an update of the row must write.
 */
export function changedColumns<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>, before: T, after: T): Partial<T> {
  const changed: Record<string, unknown> = {};
  for (const column of manager.connection.getMetadata(target).columns) {
    if (column.isPrimary) continue;
    const was: unknown = column.getEntityValue(before) ?? null;
    const is: unknown = column.getEntityValue(after) ?? null;
    if (was !== is && JSON.stringify(was) !== JSON.stringify(is)) changed[column.propertyName] = is;
  }
  return changed as Partial<T>;
}
