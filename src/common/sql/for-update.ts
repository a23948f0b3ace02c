import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * Makes a select inside a transaction a locking read (`FOR UPDATE`) on MySQL/MariaDB: it sees the
 * latest committed rows and holds them until the transaction ends. SQLite runs one writing
 * transaction at a time and has no row locks, so the select is left as it is there.
 */
export function forUpdate<T extends ObjectLiteral>(query: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
  return hasRowLocks(query.connection.driver.options) ? query.setLock('pessimistic_write') : query;
}

/** Whether the database locks rows (`FOR UPDATE`): MySQL/MariaDB do; SQLite has one writer at a time and no row locks. */
export function hasRowLocks(options: { type: string }): boolean {
  return options.type !== 'better-sqlite3';
}
