import { DataSource, type ObjectLiteral, type QueryRunner } from 'typeorm';
import { isDatabaseUnavailable } from '../common/errors/db-errors.js';
import { isPlainRead, onPrimary, routedReplica } from '../common/sql/read-routing.js';
import type { GuardedConnection } from './database-guard.js';
import { mysqlServersOf, PRIMARY, type MysqlServers } from './mysql-servers.js';
import type { ReplicaSet } from './replica-set.js';
import { MigrationLockingDataSource } from './migration-lock.js';

/**
 * Sends reads where the request decided (`common/sql/read-routing.ts`) instead of to a random
 * replica:
 *
 * - TypeORM asks for a replica's connection for the reads of its query builders and repositories
 *   outside a transaction; it gets the request's replica when one was chosen and is still usable,
 *   else the primary. A replica that refuses the connection is marked failed and the primary answers.
 * - Plain `SELECT`s through `DataSource.query` go to the request's replica too
 *   ({@link ReadRoutedDataSource}); anything else, and everything of a transaction, stays on the primary.
 * - A read whose replica goes away while it runs (connection lost, no answer within the bound) is
 *   sent again to the primary: a read has no effect, so running it twice is harmless.
 */
export function installReadRouting(dataSource: DataSource, replicas: Pick<ReplicaSet, 'usable' | 'markFailed'>): void {
  const servers = mysqlServersOf(dataSource);
  if (!servers) return;
  const retried = new WeakSet<GuardedConnection>();
  servers.routeReads((callback) => {
    const id = routedReplica();
    if (id === null || !replicas.usable(id)) return servers.acquire(PRIMARY, callback);
    servers.acquire(id, (error, connection) => {
      if (error || !connection) {
        replicas.markFailed(id);
        return servers.acquire(PRIMARY, callback);
      }
      if (!retried.has(connection)) {
        retried.add(connection);
        retryReadsOnPrimary(connection, () => replicas.markFailed(id), servers);
      }
      callback(null, connection);
    });
  });
}

/**
 * A plain read on `connection` (a replica's) that fails because the replica went away runs again on
 * the primary, and the replica is marked failed. This wraps the guard's bounded `query`, so a replica
 * that goes silent costs one query bound, once.
 */
function retryReadsOnPrimary(connection: GuardedConnection, markFailed: () => void, servers: MysqlServers): void {
  const query = connection.query.bind(connection);
  connection.query = (...args: unknown[]) => {
    const last = args.length - 1;
    if (typeof args[last] !== 'function') return query(...args);
    const callback = args[last] as (error: Error | null, ...results: unknown[]) => void;
    args[last] = (error: Error | null, ...results: unknown[]) => {
      if (!error || !isDatabaseUnavailable(error) || !isPlainRead(sqlOf(args[0]))) return callback(error, ...results);
      markFailed();
      servers.acquire(PRIMARY, (failed, primary) => {
        if (failed || !primary) return callback(failed ?? error);
        const again = [...args];
        again[last] = (...answer: [Error | null, ...unknown[]]) => {
          primary.release();
          callback(...answer);
        };
        primary.query(...again);
      });
    };
    return query(...args);
  };
}

/**
 * The application's data source. TypeORM sends every raw query (`DataSource.query`,
 * `EntityManager.query`) to the primary; a plain `SELECT` of work that runs outside a transaction
 * with a replica chosen for it goes to a replica's connection instead, as the reads of query
 * builders do. Without replicas nothing ever chooses one, and every query runs as TypeORM runs it.
 */
export class ReadRoutedDataSource extends MigrationLockingDataSource {
  override async query<T = unknown>(sql: string, parameters?: unknown[] | ObjectLiteral, runner?: QueryRunner): Promise<T> {
    if (runner || routedReplica() === null || !isPlainRead(sql)) return super.query<T>(sql, parameters, runner);
    const reader = this.createQueryRunner('slave');
    try {
      return (await reader.query(sql, parameters)) as T;
    } finally {
      await reader.release();
    }
  }
}

function sqlOf(query: unknown): string {
  if (typeof query === 'string') return query;
  const sql = (query as { sql?: unknown } | null)?.sql;
  return typeof sql === 'string' ? sql : '';
}

/** The primary's replication position after everything committed so far: the consistency token. */
export async function primaryPosition(dataSource: DataSource, flavor: 'mariadb' | 'mysql'): Promise<string> {
  const sql = flavor === 'mariadb' ? 'SELECT @@GLOBAL.gtid_binlog_pos AS position' : 'SELECT @@GLOBAL.gtid_executed AS position';
  const rows: Array<{ position: string | null }> = await onPrimary(() => dataSource.query(sql));
  return String(rows[0]?.position ?? '').replace(/\s+/g, '');
}
