import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * On SQLite every query of the process goes through one connection, and TypeORM nests a
 * transaction that starts while another is open as a savepoint of it: two requests writing at the
 * same time then share one transaction, so a rollback of one undoes the other, and a reader of the
 * change log could see, number and announce a change that later rolls back. This makes the data
 * source's transactions take turns (the database takes one writer at a time anyway); a transaction
 * started from inside another (same async context) still nests as before.
 *
 * Other processes may share the file (a second server, the command line). TypeORM opens a
 * transaction with a deferred `BEGIN`: one that reads and then writes while another process holds
 * the write lock, or has committed since the read, fails at once with SQLITE_BUSY whatever the busy
 * timeout (SQLite cannot let it wait: its snapshot is stale). So each outermost transaction first
 * runs a write that changes nothing, which takes the write lock the way `BEGIN IMMEDIATE` would:
 * waiting for another process's writer is what the busy timeout then covers.
 */
export function serializeSqliteTransactions(dataSource: DataSource): void {
  if (dataSource.driver.options.type !== 'better-sqlite3') return;
  const manager = dataSource.manager;
  const original = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;
  const takeWriteLock = `DELETE FROM "${dataSource.options.migrationsTableName ?? 'migrations'}" WHERE 0`;
  const inside = new AsyncLocalStorage<boolean>();
  let tail: Promise<unknown> = Promise.resolve();
  manager.transaction = (...args: unknown[]) => {
    if (inside.getStore()) return original(...args);
    // (isolation, work) or (work); `DataSource.transaction` passes the latter as (work, undefined)
    const [isolation, work] = (typeof args[0] === 'function' ? [undefined, args[0]] : args) as [
      string | undefined,
      (manager: EntityManager) => Promise<unknown>,
    ];
    const locked = async (transactional: EntityManager) => {
      await transactional.query(takeWriteLock);
      return work(transactional);
    };
    const turn = tail.then(() => inside.run(true, () => (isolation ? original(isolation, locked) : original(locked))));
    tail = turn.catch(() => undefined);
    return turn;
  };
}
