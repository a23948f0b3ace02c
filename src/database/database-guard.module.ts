import { Inject, Injectable, Logger, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import mysql from 'mysql2/promise';
import { DataSource } from 'typeorm';
import type { DatabaseConfig, MysqlConfig } from '../config/app-config.js';
import { DatabaseGuard, type GuardedPool } from './database-guard.js';

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
  private guard: DatabaseGuard | undefined;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(ConfigService) private readonly config: ConfigService,
  ) {}

  onModuleInit(): void {
    const database = this.config.getOrThrow<DatabaseConfig>('database');
    const pool = (this.dataSource.driver as unknown as { pool?: GuardedPool }).pool;
    if (database.kind !== 'mysql' || !pool) return;
    this.guard = new DatabaseGuard({
      queryTimeoutMs: database.queryTimeoutMs,
      acquireTimeoutMs: database.acquireTimeoutMs,
      probeIntervalMs: database.probeIntervalMs,
      probe: () => probe(database),
      checkTimeoutMs: Math.min(CHECK_TIMEOUT_MS, database.connectTimeoutMs, database.queryTimeoutMs),
      log: (level, message) => this.logger[level](message),
    });
    this.guard.install(pool);
  }

  onModuleDestroy(): void {
    this.guard?.stop();
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
