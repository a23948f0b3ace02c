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
  /** Connection attempts at start before the server gives up and exits 1 (`DB_CONNECT_ATTEMPTS`). */
  connectAttempts: number;
  /** Pause after a failed connection attempt at start (`DB_CONNECT_RETRY_DELAY_MS`). */
  connectRetryDelayMs: number;
  /** Read replicas of the primary (`DATABASE_REPLICA_URLS`); empty: every query goes to `url`. */
  replicaUrls: string[];
  /** A replica further behind the primary than this is skipped until it catches up (`REPLICA_MAX_LAG_MS`). */
  replicaMaxLagMs: number;
  /** Longest wait of a read that presents a consistency token for a replica to reach it, before the primary answers (`REPLICA_WAIT_MS`). */
  replicaWaitMs: number;
}

/**
 * scheme://[user[:password]@]host[:port]/database[?options]: the user and password hold no raw `/ ? # @`
 * (percent-encoded, they may hold anything), so the host is the one the operator meant.
 */
const DATABASE_URL_SHAPE = /^(mysql|mariadb):\/\/(?:([^@/?#]*)@)?([^@/?#:[\]]+|\[[0-9a-fA-F:.]+\])(?::\d{1,5})?\/[^/?#]+(\?[^#]*)?$/;

function wellFormed(url: string): boolean {
  const match = DATABASE_URL_SHAPE.exec(url);
  if (!match) return false;
  try {
    decodeURIComponent(match[2] ?? '');
    return new URL(url).hostname !== '';
  } catch {
    return false;
  }
}

/** The variables that give the primary's connection in parts, instead of `DATABASE_URL`. */
export const DATABASE_PARTS = ['DATABASE_HOST', 'DATABASE_PORT', 'DATABASE_USER', 'DATABASE_PASSWORD', 'DATABASE_NAME'] as const;
const HOST_SHAPE = /^([^@/?#:[\]\s]+|\[[0-9a-fA-F:.]+\])(:\d{1,5})?$/;

/**
 * `DATABASE_URL` from `DATABASE_HOST`, `DATABASE_PORT` (3306), `DATABASE_USER`, `DATABASE_PASSWORD` and
 * `DATABASE_NAME`, the user, password and name percent-encoded so any characters work; the read replicas
 * from `DATABASE_REPLICA_HOSTS` (host[:port], comma-separated) with the same user, password and name.
 * Undefined when none of the parts is set.
 */
function urlsFromParts(read: EnvReader): { url: string; replicaUrls?: string } | undefined {
  if (!DATABASE_PARTS.some((name) => read(name) !== undefined) && read('DATABASE_REPLICA_HOSTS') === undefined) return undefined;
  if (read('DATABASE_URL') !== undefined) {
    throw new ConfigError(
      'DATABASE_URL',
      `is set together with ${DATABASE_PARTS.filter((name) => read(name) !== undefined).join(', ') || 'DATABASE_REPLICA_HOSTS'}: give the database either as DATABASE_URL or in parts, not both`,
    );
  }
  if (read('DATABASE_REPLICA_HOSTS') !== undefined && read('DATABASE_REPLICA_URLS') !== undefined) {
    throw new ConfigError('DATABASE_REPLICA_HOSTS', 'is set together with DATABASE_REPLICA_URLS: give the replicas one way, not both');
  }
  const required = (name: string) => {
    const value = read(name);
    if (value === undefined)
      throw new ConfigError(name, 'is required when the database is given in parts (DATABASE_HOST, DATABASE_USER, DATABASE_NAME)');
    return value;
  };
  const host = required('DATABASE_HOST');
  if (!HOST_SHAPE.test(host) || host.includes(':') !== host.startsWith('[')) {
    throw new ConfigError('DATABASE_HOST', 'must be a host name or IP address (the port goes in DATABASE_PORT)');
  }
  const port = integer(read('DATABASE_PORT') ?? '3306', 'DATABASE_PORT', 1, 65535);
  const user = encodeURIComponent(required('DATABASE_USER'));
  const password = read('DATABASE_PASSWORD');
  const name = encodeURIComponent(required('DATABASE_NAME'));
  const credentials = password === undefined ? user : `${user}:${encodeURIComponent(password)}`;
  const at = (server: string) => `mysql://${credentials}@${server}/${name}`;
  const replicaHosts = read('DATABASE_REPLICA_HOSTS')
    ?.split(',')
    .map((replica) => replica.trim());
  if (replicaHosts?.some((replica) => !HOST_SHAPE.test(replica))) {
    throw new ConfigError('DATABASE_REPLICA_HOSTS', 'must be a comma-separated list of host or host:port');
  }
  const withPort = (server: string) => (/:\d+$/.test(server) && !server.endsWith(']') ? server : `${server}:3306`);
  return { url: at(`${host}:${port}`), replicaUrls: replicaHosts?.map((replica) => at(withPort(replica))).join(',') };
}

export function readDatabaseConfig(read: EnvReader): DatabaseConfig {
  const parts = urlsFromParts(read);
  const url = parts?.url ?? read('DATABASE_URL');
  const replicas = parts?.replicaUrls ?? read('DATABASE_REPLICA_URLS');
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
  if (!wellFormed(url)) {
    throw new ConfigError(
      'DATABASE_URL',
      'must look like mysql://user:password@host:3306/database, with / ? # @ % in the user or password percent-encoded (or give the database in parts: DATABASE_HOST, DATABASE_USER, DATABASE_PASSWORD, DATABASE_NAME)',
    );
  }
  const replicaUrls = replicas === undefined ? [] : replicas.split(',').map((replica) => replica.trim());
  if (replicaUrls.some((replica) => !wellFormed(replica)) || new Set(replicaUrls).size !== replicaUrls.length) {
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
    connectAttempts: integer(read('DB_CONNECT_ATTEMPTS') ?? '5', 'DB_CONNECT_ATTEMPTS', 1, 1000),
    connectRetryDelayMs: milliseconds('DB_CONNECT_RETRY_DELAY_MS', 2000, 0, 600000),
    replicaUrls,
    replicaMaxLagMs: milliseconds('REPLICA_MAX_LAG_MS', 2000, 100, 3600000),
    replicaWaitMs: milliseconds('REPLICA_WAIT_MS', 500, 0, 60000),
  };
}

/** Which storage engine this process uses; entity column types depend on it before Nest starts. */
export function databaseKindFromEnv(): DatabaseConfig['kind'] {
  const set = (name: string) => (process.env[name] ?? '').trim() !== '';
  return set('DATABASE_URL') || set('DATABASE_URL_FILE') || set('DATABASE_HOST') ? 'mysql' : 'sqlite';
}
