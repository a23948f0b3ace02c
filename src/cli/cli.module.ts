import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config.js';
import type { DataSourceOptions } from 'typeorm';
import { resolveDataSourceOptions } from '../database/data-source-options.js';
import { MigrationLockingDataSource } from '../database/migration-lock.js';
import { serializeSqliteTransactions } from '../database/sqlite-transactions.js';
import { DataVersionService } from '../cache/data-version.service.js';
import { TecImporter } from '../importer/tec-importer.js';
import { LoginLocks } from '../limits/login-locks.js';
import { FeedTokensService } from '../users/feed-tokens.service.js';
import { EditionsModule } from '../editions/editions.module.js';
import { UsersService } from '../users/users.service.js';
import { SourcesService } from '../sources/sources.service.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';

/** Just what the command-line tool needs: configuration, storage (migrated), the accounts, feed tokens, login locks, the webhooks (no dispatcher: servers send), the calendar sources (servers run them) and the importer. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ ...config })] }),
        TypeOrmModule.forRootAsync({
          useFactory: async () => ({ ...(await resolveDataSourceOptions(config.database)), migrationsRun: true }),
          dataSourceFactory: async (options) => {
            const dataSource = await new MigrationLockingDataSource(options as DataSourceOptions).initialize();
            serializeSqliteTransactions(dataSource);
            return dataSource;
          },
        }),
        EditionsModule,
      ],
      providers: [UsersService, LoginLocks, FeedTokensService, WebhooksService, SourcesService, DataVersionService, TecImporter],
    };
  }
}
