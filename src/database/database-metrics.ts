import { Inject, Injectable } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Metrics } from '../metrics/metrics.js';
import { mysqlServersOf, PRIMARY } from './mysql-servers.js';
import { ReplicaSet } from './replica-set.js';

/** `primary`, `replica1`, `replica2`, … (the order of `DATABASE_REPLICA_URLS`) for the pools' ids. */
function serverName(id: string): string {
  if (id === PRIMARY) return 'primary';
  const replica = /^SLAVE(\d+)$/.exec(id);
  return replica ? `replica${Number(replica[1]) + 1}` : id;
}

/**
 * The database in `/metrics`, all from memory (no query): which engine, how busy each server's pool
 * is (MySQL/MariaDB; SQLite has one connection in the process and no pool), and how far each read
 * replica is behind (when `DATABASE_REPLICA_URLS` lists any).
 */
@Injectable()
export class DatabaseMetrics {
  constructor(metrics: Metrics, @Inject(getDataSourceToken()) dataSource: DataSource, @Inject(ReplicaSet) replicas: ReplicaSet) {
    const engine = dataSource.options.type === 'better-sqlite3' ? 'sqlite' : dataSource.options.type;
    metrics.gauge({ name: 'calendar_db_info', help: 'The database engine in use (always 1).', labelNames: ['engine'] }).set({ engine }, 1);
    const servers = mysqlServersOf(dataSource);
    if (servers) {
      metrics.gauge({
        name: 'calendar_db_pool_connections',
        help: 'Open connections of the pool of each database server, by state: in_use (held by a query or transaction) or idle.',
        labelNames: ['server', 'state'],
        collect() {
          for (const [id, usage] of servers.usage()) {
            this.set({ server: serverName(id), state: 'in_use' }, usage.inUse);
            this.set({ server: serverName(id), state: 'idle' }, usage.idle);
          }
        },
      });
      metrics.gauge({
        name: 'calendar_db_pool_waiting',
        help: 'Requests for a connection not answered yet (all in use, or a new one opening), per database server.',
        labelNames: ['server'],
        collect() {
          for (const [id, usage] of servers.usage()) this.set({ server: serverName(id) }, usage.waiting);
        },
      });
      metrics.gauge({
        name: 'calendar_db_pool_max_connections',
        help: 'The connection limit of the pool of each database server (DB_POOL_SIZE).',
        labelNames: ['server'],
        collect() {
          for (const [id, usage] of servers.usage()) this.set({ server: serverName(id) }, usage.max);
        },
      });
    }
    if (!replicas.enabled) return;
    metrics.gauge({
      name: 'calendar_db_replica_lag_seconds',
      help: 'How far each read replica is behind the primary, as of its last check (+Inf while it does not answer).',
      labelNames: ['server'],
      collect() {
        for (const replica of replicas.replicas) this.set({ server: serverName(replica.id) }, replicas.lagMs(replica.id) / 1000);
      },
    });
    metrics.gauge({
      name: 'calendar_db_replica_usable',
      help: 'Whether reads go to each replica: 1 while it answers and is within REPLICA_MAX_LAG_MS, else 0 (the primary answers).',
      labelNames: ['server'],
      collect() {
        for (const replica of replicas.replicas) this.set({ server: serverName(replica.id) }, replicas.usable(replica.id) ? 1 : 0);
      },
    });
  }
}
