import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource } from 'typeorm';

/**
 * On SQLite every query of the process goes through one connection, and TypeORM nests a
 * transaction that starts while another is open as a savepoint of it: two requests writing at the
 * same time then share one transaction, so a rollback of one undoes the other, and a reader of the
 * change log could see, number and announce a change that later rolls back. This makes the data
 * source's transactions take turns (the database takes one writer at a time anyway); a transaction
 * started from inside another (same async context) still nests as before.
 */
export function serializeSqliteTransactions(dataSource: DataSource): void {
  if (dataSource.driver.options.type !== 'better-sqlite3') return;
  const manager = dataSource.manager;
  const original = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;
  const inside = new AsyncLocalStorage<boolean>();
  let tail: Promise<unknown> = Promise.resolve();
  manager.transaction = (...args: unknown[]) => {
    if (inside.getStore()) return original(...args);
    const turn = tail.then(() => inside.run(true, () => original(...args)));
    tail = turn.catch(() => undefined);
    return turn;
  };
}
