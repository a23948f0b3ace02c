import type { DataSource, QueryRunner } from 'typeorm';
import { isDatabaseUnavailable } from '../common/errors/db-errors.js';
import { isPlainRead, onPrimary, routedReplica } from '../common/sql/read-routing.js';
import type { GuardedPool } from './database-guard.js';
import type { ReplicaSet } from './replica-set.js';

type ClusterPool = GuardedPool;

/** The parts of TypeORM's MySQL driver with a replication set that the routing replaces. */
interface ReplicatedDriver {
  poolCluster?: { _nodes: Record<string, { pool: ClusterPool } | undefined> };
  prepareDbConnection(connection: unknown): unknown;
  obtainMasterConnection(): Promise<unknown>;
  obtainSlaveConnection(): Promise<unknown>;
}

/** The pool of one server of TypeORM's replication set (`MASTER`, `SLAVE0`, …). */
export function clusterPool(dataSource: DataSource, id: string): ClusterPool | undefined {
  return (dataSource.driver as unknown as ReplicatedDriver).poolCluster?._nodes[id]?.pool;
}

/**
 * Sends reads where the request decided (`common/sql/read-routing.ts`) instead of to a random
 * replica:
 *
 * - TypeORM asks for a "slave" connection for the reads of its query builders and repositories
 *   outside a transaction; it gets the request's replica when one was chosen and is still usable,
 *   else the primary. A replica that refuses the connection is marked failed and the primary answers.
 * - Plain `SELECT`s through `DataSource.query` (TypeORM sends every raw query to the primary) go to
 *   the request's replica too; anything else, and everything of a transaction, stays on the primary.
 * - A read whose replica goes away while it runs (connection lost, no answer within the bound) is
 *   sent again to the primary: a read has no effect, so running it twice is harmless.
 * - Connections are taken from each server's pool directly: the cluster's own bookkeeping would
 *   drop a server for good after a few errors.
 */
export function installReadRouting(dataSource: DataSource, replicas: ReplicaSet): void {
  const driver = dataSource.driver as unknown as ReplicatedDriver;
  if (!driver.poolCluster) return;
  const acquire = (pool: ClusterPool | undefined) =>
    new Promise<unknown>((resolve, reject) => {
      if (!pool) return reject(new Error('no such server in the replication set'));
      pool.getConnection((error, connection) => (error || !connection ? reject(error ?? new Error('no connection')) : resolve(connection)));
    }).then((connection) => driver.prepareDbConnection(connection));

  driver.obtainMasterConnection = () => acquire(clusterPool(dataSource, 'MASTER'));
  const retried = new WeakSet<object>();
  const retryOnPrimary = (connection: unknown, id: string) => {
    const target = connection as { query: (...args: unknown[]) => unknown };
    if (retried.has(target)) return;
    retried.add(target);
    const query = target.query.bind(target);
    target.query = (...args: unknown[]) => {
      const last = args.length - 1;
      if (typeof args[last] !== 'function') return query(...args);
      const callback = args[last] as (error: Error | null, ...results: unknown[]) => void;
      args[last] = (error: Error | null, ...results: unknown[]) => {
        if (!error || !isDatabaseUnavailable(error) || !isPlainRead(sqlOf(args[0]))) return callback(error, ...results);
        replicas.markFailed(id);
        const pool = clusterPool(dataSource, 'MASTER');
        if (!pool) return callback(error);
        pool.getConnection((failed, primary) => {
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
  };
  driver.obtainSlaveConnection = async () => {
    const id = routedReplica();
    if (id === null || !replicas.usable(id)) return driver.obtainMasterConnection();
    let connection: unknown;
    try {
      connection = await acquire(clusterPool(dataSource, id));
    } catch {
      replicas.markFailed(id);
      return driver.obtainMasterConnection();
    }
    retryOnPrimary(connection, id);
    return connection;
  };

  const query: DataSource['query'] = dataSource.query.bind(dataSource);
  dataSource.query = (async (sql: string, parameters?: unknown[], runner?: QueryRunner) => {
    if (runner || routedReplica() === null || !isPlainRead(sql)) return query(sql, parameters, runner);
    const reader = dataSource.createQueryRunner('slave');
    try {
      return (await reader.query(sql, parameters)) as unknown;
    } finally {
      await reader.release();
    }
  }) as DataSource['query'];
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
