import { ConfigError, integer, type EnvReader } from './env-values.js';

export type DatabaseConfig = SqliteConfig | MysqlConfig;

export interface SqliteConfig {
  kind: 'sqlite';
  path: string;
  /** Longest wait for the write lock that another process sharing the file holds (`SQLITE_BUSY_TIMEOUT_MS`). */
  busyTimeoutMs: number;
}

export interface MysqlConfig {
  kind: 'mysql';
  url: string;
  poolSize: number;
  /** Longest wait for a new connection's handshake. */
  connectTimeoutMs: number;
  /** Longest wait for the answer to one query; past it the connection is discarded and the database marked down. */
  queryTimeoutMs: number;
  /** Longest wait for a connection of the pool (busy pool or a connection being opened). */
  acquireTimeoutMs: number;
  /** While the database is marked down: pause between two probes (`SELECT 1`). */
  probeIntervalMs: number;
  /** Read replicas of the primary (`DATABASE_REPLICA_URLS`); empty: every query goes to `url`. */
  replicaUrls: string[];
  /** A replica further behind the primary than this is skipped until it catches up (`REPLICA_MAX_LAG_MS`). */
  replicaMaxLagMs: number;
  /** Longest wait of a read that presents a consistency token for a replica to reach it, before the primary answers (`REPLICA_WAIT_MS`). */
  replicaWaitMs: number;
}

const DATABASE_URL_SHAPE = /^(mysql|mariadb):\/\/[^/]+\/[^/?]+/;

export function readDatabaseConfig(read: EnvReader): DatabaseConfig {
  const url = read('DATABASE_URL');
  const replicas = read('DATABASE_REPLICA_URLS');
  if (url === undefined) {
    if (replicas !== undefined) {
      throw new ConfigError('DATABASE_REPLICA_URLS', 'needs a MySQL/MariaDB DATABASE_URL (the embedded SQLite database has no replicas)');
    }
    return {
      kind: 'sqlite',
      path: read('SQLITE_PATH') ?? 'data/calendar.sqlite',
      busyTimeoutMs: integer(read('SQLITE_BUSY_TIMEOUT_MS') ?? '5000', 'SQLITE_BUSY_TIMEOUT_MS', 0, 600000),
    };
  }
  if (!DATABASE_URL_SHAPE.test(url)) {
    throw new ConfigError('DATABASE_URL', 'must look like mysql://user:password@host:3306/database');
  }
  const replicaUrls = replicas === undefined ? [] : replicas.split(',').map((replica) => replica.trim());
  if (replicaUrls.some((replica) => !DATABASE_URL_SHAPE.test(replica)) || new Set(replicaUrls).size !== replicaUrls.length) {
    throw new ConfigError(
      'DATABASE_REPLICA_URLS',
      'must be a comma-separated list of distinct URLs such as mysql://user:password@replica:3306/database',
    );
  }
  if (replicaUrls.includes(url)) throw new ConfigError('DATABASE_REPLICA_URLS', 'must not list the primary (DATABASE_URL)');
  const milliseconds = (name: string, fallback: number, min: number, max: number) =>
    integer(read(name) ?? String(fallback), name, min, max);
  return {
    kind: 'mysql',
    url,
    poolSize: integer(read('DB_POOL_SIZE') ?? '10', 'DB_POOL_SIZE', 1, 500),
    connectTimeoutMs: milliseconds('DB_CONNECT_TIMEOUT_MS', 2000, 100, 120000),
    queryTimeoutMs: milliseconds('DB_QUERY_TIMEOUT_MS', 3000, 100, 3600000),
    acquireTimeoutMs: milliseconds('DB_ACQUIRE_TIMEOUT_MS', 3000, 100, 120000),
    probeIntervalMs: milliseconds('DB_PROBE_INTERVAL_MS', 1000, 50, 60000),
    replicaUrls,
    replicaMaxLagMs: milliseconds('REPLICA_MAX_LAG_MS', 2000, 100, 3600000),
    replicaWaitMs: milliseconds('REPLICA_WAIT_MS', 500, 0, 60000),
  };
}

/** Which storage engine this process uses; entity column types depend on it before Nest starts. */
export function databaseKindFromEnv(): DatabaseConfig['kind'] {
  return (process.env.DATABASE_URL ?? '').trim() === '' ? 'sqlite' : 'mysql';
}
