import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import mysql from 'mysql2/promise';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { ENTITIES } from './entities.js';
import { MysqlServers } from './mysql-servers.js';
import type { ExtensionTables } from '../common/extensions/extension-tables.js';
import { MIGRATIONS } from './migrations/index.js';

/**
 * One description of the storage for the app, the CLI and the TypeORM command line. MySQL and
 * MariaDB report column metadata differently, so the server is asked which one it is first.
 */
export async function resolveDataSourceOptions(
  database: DatabaseConfig,
  extensions: ExtensionTables = {},
  use: DataSourceUse = {},
): Promise<DataSourceOptions> {
  const options = dataSourceOptions(database, extensions, use);
  if (database.kind !== 'mysql') return options;
  const mariaDb = use.mariaDb ?? (await isMariaDb(database));
  return { ...options, type: mariaDb ? 'mariadb' : 'mysql' } as DataSourceOptions;
}

async function isMariaDb(database: Extract<DatabaseConfig, { kind: 'mysql' }>): Promise<boolean> {
  if (database.url.startsWith('mariadb:')) return true;
  let connection: mysql.Connection | undefined;
  try {
    connection = await mysql.createConnection({ uri: database.url, connectTimeout: database.connectTimeoutMs });
    const [rows] = await connection.query('SELECT VERSION() AS version');
    return /mariadb/i.test(String((rows as Array<{ version: string }>)[0]?.version));
  } catch {
    return false;
  } finally {
    await connection?.end().catch(() => undefined);
  }
}

/** What the serving app turns on that migrations, the CLI and the TypeORM command line leave off. */
export interface DataSourceUse {
  /** The read replicas of `DATABASE_REPLICA_URLS` join as TypeORM's replication set. */
  replicas?: boolean;
  /** Whether the primary is MariaDB, when already known (the server asked it at start); else it is asked. */
  mariaDb?: boolean;
}

/**
 * `extensions`: tables of extension modules (see `common/extensions/extension-tables.ts`), after the
 * core's own. `use`: see {@link DataSourceUse} (the primary alone otherwise).
 */
export function dataSourceOptions(database: DatabaseConfig, extensions: ExtensionTables = {}, use: DataSourceUse = {}): DataSourceOptions {
  const common = {
    entities: [...ENTITIES, ...(extensions.entities ?? [])],
    migrations: [...MIGRATIONS, ...(extensions.migrations ?? [])],
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (database.kind === 'sqlite') {
    const file = resolve(database.path);
    mkdirSync(dirname(file), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: file,
      // Other processes may share the file (a second server, the command line): a connection that meets
      // their writer waits up to SQLITE_BUSY_TIMEOUT_MS instead of failing with SQLITE_BUSY, and in WAL
      // mode (kept by the file once set) readers and the writer do not block each other.
      timeout: database.busyTimeoutMs,
      prepareDatabase: (db: { pragma(sql: string): unknown }) => {
        db.pragma(`busy_timeout = ${database.busyTimeoutMs}`);
        db.pragma('journal_mode = WAL');
        db.pragma('foreign_keys = ON');
        db.pragma('synchronous = NORMAL');
      },
    };
  }
  const replicated = use.replicas === true && database.replicaUrls.length > 0;
  return {
    ...common,
    type: 'mysql',
    // the pools are mysql2's own, opened where the guard and the read routing can reach them
    driver: new MysqlServers(),
    ...(replicated
      ? {
          // which server a read goes to is decided per request (replication-routing.ts)
          replication: {
            master: { url: database.url },
            slaves: database.replicaUrls.map((url) => ({ url })),
          },
        }
      : {}),
    url: database.url,
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
    supportBigNumbers: true,
    connectTimeout: database.connectTimeoutMs,
    poolSize: database.poolSize,
    // Waits are bounded by the guard (database-guard.ts): acquisitions by DB_ACQUIRE_TIMEOUT_MS, queries
    // by DB_QUERY_TIMEOUT_MS. Keep-alive lets the kernel notice a peer that vanished while a connection idles.
    extra: {
      connectionLimit: database.poolSize,
      waitForConnections: true,
      queueLimit: 0,
      enableKeepAlive: true,
      keepAliveInitialDelay: 10000,
      // mysql2 would capture a stack trace for every query to decorate a possible error with the
      // caller's frames: about 6 % of a busy server's CPU under writes.
      trace: false,
    },
  };
}
