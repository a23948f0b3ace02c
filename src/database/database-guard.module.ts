import { Inject, Injectable, Logger, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import mysql from 'mysql2/promise';
import { DataSource } from 'typeorm';
import type { DatabaseConfig, MysqlConfig } from '../config/app-config.js';
import { DatabaseGuard, serverTimeLimit, type GuardedPool } from './database-guard.js';
import { mysqlServersOf, PRIMARY } from './mysql-servers.js';
import { replicaId } from './replica-set.js';

/**
 * A database that takes longer than this to answer a fresh `SELECT 1` right after a query ran past its
 * bound counts as away; a quicker answer means only that query was slow.
 */
const CHECK_TIMEOUT_MS = 250;

/**
 * Puts the {@link DatabaseGuard} in front of TypeORM's MySQL/MariaDB pool once the data source is
 * up (migrations at start-up run unbounded). SQLite answers in-process and needs no guard.
 */
@Injectable()
export class DatabaseGuardInstaller implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('DatabaseGuard');
  private readonly guards: DatabaseGuard[] = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(ConfigService) private readonly config: ConfigService,
  ) {}

  onModuleInit(): void {
    const database = this.config.getOrThrow<DatabaseConfig>('database');
    if (database.kind !== 'mysql') return;
    // one pool per server (the primary, and each read replica): each gets a guard of its own
    const servers = new Map<string, [url: string, prefix: string]>([[PRIMARY, [database.url, '']]]);
    database.replicaUrls.forEach((url, index) => servers.set(replicaId(index), [url, `replica ${index + 1}: `]));
    for (const [id, pool] of mysqlServersOf(this.dataSource)?.all() ?? []) {
      const server = servers.get(id);
      if (server) this.guard(pool, database, ...server);
    }
  }

  private guard(pool: GuardedPool, database: MysqlConfig, url: string, prefix: string): void {
    const guard = new DatabaseGuard({
      queryTimeoutMs: database.queryTimeoutMs,
      acquireTimeoutMs: database.acquireTimeoutMs,
      probeIntervalMs: database.probeIntervalMs,
      probe: () => probe({ ...database, url }),
      checkTimeoutMs: Math.min(CHECK_TIMEOUT_MS, database.connectTimeoutMs, database.queryTimeoutMs),
      sessionSql: serverTimeLimit(this.dataSource.options.type === 'mariadb' ? 'mariadb' : 'mysql', database.queryTimeoutMs),
      log: (level, message) => this.logger[level](`${prefix}${message}`),
    });
    guard.install(pool);
    this.guards.push(guard);
  }

  onModuleDestroy(): void {
    for (const guard of this.guards) guard.stop();
  }
}

/** `SELECT 1` on a connection of its own, bounded by the connect and query timeouts. */
async function probe(database: MysqlConfig): Promise<void> {
  const timeoutMs = Math.min(database.connectTimeoutMs, database.queryTimeoutMs);
  let opened: mysql.Connection | undefined;
  let abandoned = false;
  let timer: NodeJS.Timeout | undefined;
  const attempt = (async () => {
    const connection = await mysql.createConnection({ uri: database.url, connectTimeout: timeoutMs });
    if (abandoned) return connection.destroy();
    opened = connection;
    await connection.query('SELECT 1');
  })();
  attempt.catch(() => undefined);
  try {
    await Promise.race([
      attempt,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`probe: no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    abandoned = true;
    clearTimeout(timer);
    opened?.destroy();
  }
}

@Module({ providers: [DatabaseGuardInstaller] })
export class DatabaseGuardModule {}
