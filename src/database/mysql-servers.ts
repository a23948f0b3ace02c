import mysql from 'mysql2';
import type { DataSource } from 'typeorm';
import type { GuardedConnection, GuardedPool } from './database-guard.js';
import { PoolMeter, type PoolUsage } from './pool-meter.js';

/** The id of the primary's pool; TypeORM names the replicas' pools `SLAVE0`, `SLAVE1`, … in list order. */
export const PRIMARY = 'MASTER';

/** One server's pool: a mysql2 (callback) pool. */
export interface ServerPool extends GuardedPool {
  end(callback?: (error: Error | null) => void): void;
}

export type Acquired = (error: Error | null, connection?: GuardedConnection) => void;

/** Hands out a connection for the plain reads TypeORM sends to "a replica" (see replication-routing.ts). */
export type ReadConnection = (callback: Acquired) => void;

/**
 * The mysql2 module as TypeORM's MySQL driver sees it (the data source's `driver` option): it opens
 * every server's pool with mysql2's `createPool` and keeps it by server id, so the guard and the read
 * routing reach each pool directly. With `replication` configured, TypeORM asks for a pool cluster
 * and takes connections from it by pattern: `MASTER` for everything on the primary, `SLAVE*` for the
 * reads of its query builders and repositories outside a transaction. Those reads go where
 * {@link routeReads} says, else to the primary; no server is ever dropped by bookkeeping of the
 * cluster's own (whether a replica is usable is the replica set's concern).
 */
export class MysqlServers {
  private readonly pools = new Map<string, ServerPool>();
  private readonly meters = new Map<string, PoolMeter>();
  private reads: ReadConnection | null = null;

  constructor(private readonly openPool: (config: mysql.PoolOptions) => ServerPool = (config) => mysql.createPool(config)) {}

  /** TypeORM's MySQL driver without replication: the primary's pool. */
  createPool(config: mysql.PoolOptions): ServerPool {
    return this.open(PRIMARY, config);
  }

  /** TypeORM's MySQL driver with replication: a cluster it adds every server to. */
  createPoolCluster(): ServerCluster {
    return new ServerCluster(this);
  }

  /** Every server's pool, by id: the primary's first. */
  all(): Array<[id: string, pool: ServerPool]> {
    return [...this.pools].sort(([a], [b]) => (a === PRIMARY ? -1 : b === PRIMARY ? 1 : a.localeCompare(b)));
  }

  /** How busy each server's pool is, by id: the primary's first (`GET /metrics`). */
  usage(): Array<[id: string, usage: PoolUsage]> {
    return this.all().flatMap(([id]) => {
      const meter = this.meters.get(id);
      return meter ? [[id, meter.usage()] as [string, PoolUsage]] : [];
    });
  }

  /** Sends the reads TypeORM would give to a replica through `reads` (the primary until then). */
  routeReads(reads: ReadConnection): void {
    this.reads = reads;
  }

  /** A connection of the server `id`'s pool (through the guard installed on it). */
  acquire(id: string, callback: Acquired): void {
    const pool = this.pools.get(id);
    if (!pool) {
      process.nextTick(() => callback(new Error(`no database server ${id}`)));
      return;
    }
    pool.getConnection(callback);
  }

  /** Opens the pool of the server `id`. */
  open(id: string, config: mysql.PoolOptions): ServerPool {
    const pool = this.openPool(config);
    // the meter wraps the pool first, so it sees every connection, the migrations' at start included
    this.meters.set(id, new PoolMeter(pool, config.connectionLimit ?? 10));
    this.pools.set(id, pool);
    return pool;
  }

  /** A connection for a read TypeORM would give to a replica. */
  read(callback: Acquired): void {
    if (this.reads) this.reads(callback);
    else this.acquire(PRIMARY, callback);
  }

  /** Closes every pool. */
  end(callback: (error: Error | null) => void): void {
    const pools = [...this.pools.values()];
    this.pools.clear();
    let left = pools.length;
    let failure: Error | null = null;
    if (left === 0) return callback(null);
    for (const pool of pools)
      pool.end((error) => {
        failure ??= error ?? null;
        if (--left === 0) callback(failure);
      });
  }
}

/** The part of mysql2's `PoolCluster` that TypeORM's MySQL driver uses: `add`, `getConnection`, `end`. */
export class ServerCluster {
  constructor(private readonly servers: MysqlServers) {}

  add(id: string, config: mysql.PoolOptions): void {
    this.servers.open(id, config);
  }

  getConnection(pattern: string, callback: Acquired): void {
    if (pattern === PRIMARY) this.servers.acquire(PRIMARY, callback);
    else this.servers.read(callback);
  }

  end(callback: (error: Error | null) => void): void {
    this.servers.end(callback);
  }
}

/** The servers of a MySQL/MariaDB data source made from `dataSourceOptions`; undefined for SQLite. */
export function mysqlServersOf(dataSource: DataSource): MysqlServers | undefined {
  const options = dataSource.options;
  const driver: unknown = 'driver' in options ? options.driver : undefined;
  return driver instanceof MysqlServers ? driver : undefined;
}
