import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * Makes a select inside a transaction a locking read (`FOR UPDATE`) on MySQL/MariaDB: it sees the
 * latest committed rows and holds them until the transaction ends. SQLite runs one writing
 * transaction at a time and has no row locks, so the select is left as it is there.
 */
export function forUpdate<T extends ObjectLiteral>(query: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
  return query.connection.driver.options.type === 'better-sqlite3' ? query : query.setLock('pessimistic_write');
}
