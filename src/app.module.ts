import { type DynamicModule, Logger, type MiddlewareConsumer, Module, type NestModule, type Type } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSourceOptions } from 'typeorm';
import { LoggerModule } from 'nestjs-pino';
import { CacheModule } from './cache/cache.module.js';
import { ResponseCacheInterceptor } from './cache/response-cache.js';
import { ResponseCacheMetrics } from './cache/response-cache-metrics.js';
import { BEFORE_CACHED_READ, ResponseCacheStore } from './cache/response-cache-store.js';
import { CategoriesModule } from './categories/categories.module.js';
import { ChangesModule } from './changes/changes.module.js';
import { TranslationsModule } from './translations/translations.module.js';
import type { AppConfig } from './config/app-config.js';
import { reachDatabase } from './database/database-at-start.js';
import { DatabaseGuardModule } from './database/database-guard.module.js';
import { migrationLog } from './database/migration-log.js';
import { resolveDataSourceOptions } from './database/data-source-options.js';
import { ReadRoutingMiddleware, ReplicationModule } from './database/replication.module.js';
import { ReadRoutedDataSource } from './database/replication-routing.js';
import { serializeSqliteTransactions } from './database/sqlite-transactions.js';
import { extensionTables } from './common/extensions/extension-tables.js';
import { releaseSlugsWhenTransactionsEnd } from './common/sql/free-slug.js';
import { DocsModule } from './docs/docs.module.js';
import { EditionMiddleware } from './editions/edition.middleware.js';
import { EditionsModule } from './editions/editions.module.js';
import { EventsModule } from './events/events.module.js';
import { HealthModule } from './health/health.module.js';
import { BodyLimitMiddleware, BodyParserMiddleware } from './http/body.middleware.js';
import { HttpModule } from './http/http.module.js';
import { LIFECYCLE_STEPS, LifecycleMiddleware } from './http/lifecycle.middleware.js';
import { RequestLogMiddleware } from './http/request-log.middleware.js';
import { ImporterModule } from './importer/importer.module.js';
import { logDestination } from './startup-log.js';
import { RouteMiddleware } from './http/route.middleware.js';
import { CorsMiddleware, SecurityHeadersMiddleware } from './http/security.middleware.js';
import { extensionCatalogues } from './i18n/extension-catalogues.js';
import { I18nModule } from './i18n/i18n.module.js';
import { ItemsModule } from './items/items.module.js';
import { ItemsService } from './items/items.service.js';
import { SourcesModule } from './sources/sources.module.js';
import { LimitsModule, RequestLimitMiddleware } from './limits/limits.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { OrganizersModule } from './organizers/organizers.module.js';
import { TagsModule } from './tags/tags.module.js';
import { TecModule } from './tec/tec.module.js';
import { BasicAuthMiddleware } from './users/basic-auth.middleware.js';
import { FeedTokenMiddleware } from './users/feed-token.middleware.js';
import { UsersModule } from './users/users.module.js';
import { VenuesModule } from './venues/venues.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

/**
 * The request lifecycle's middleware steps, in the order of checks of spec §4.6. Each step is a
 * middleware class owned by the module whose concern it is; they run as one Nest middleware
 * (`LifecycleMiddleware`). After them come an extension's middleware, then Nest's router, guards,
 * interceptors (the response cache innermost), the validation pipe (`APP_PIPE`), the handler and the
 * exception filter (`APP_FILTER`) of `HttpModule`.
 */
const LIFECYCLE: Type[] = [
  RequestLogMiddleware, // request id; one line per request (LOG_REQUESTS) and its count in /metrics (METRICS_TOKEN)
  EditionMiddleware, // edition, request context, headers of every answer
  SecurityHeadersMiddleware,
  CorsMiddleware,
  RequestLimitMiddleware, // optional request limit (429)
  BodyLimitMiddleware, // 1. body size (413)
  BasicAuthMiddleware, // 2. credentials (401, 429)
  RouteMiddleware, // 3. route and method (404), OPTIONS, API index
  FeedTokenMiddleware, // `?token=` on the iCalendar routes (401, 429)
  ReadRoutingMiddleware, // reads of a GET to a replica (after credentials, which the primary checks)
  BodyParserMiddleware, // 4. JSON and form bodies (400)
];
/** The steps whose modules provide and export them: the lifecycle gets those modules' instances. */
const STEPS_OF_IMPORTED_MODULES = new Set<Type>([RequestLimitMiddleware, BasicAuthMiddleware, FeedTokenMiddleware, ReadRoutingMiddleware]);

@Module({})
export class AppModule implements NestModule {
  /**
   * `extensions`: modules of teams that extend the service (docs/EXTENDING.md); they get the whole
   * lifecycle, and the tables (`@OwnsTables`) and catalogues (`@OwnsCatalogues`) they declare.
   */
  static forRoot(config: AppConfig, extensions: Array<Type | DynamicModule> = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ ...config })] }),
        LoggerModule.forRoot({
          // the application's logger only: the request log is the first lifecycle step (RequestLogMiddleware)
          forRoutes: [],
          pinoHttp: [{ level: config.log.level }, logDestination()],
        }),
        TypeOrmModule.forRootAsync({
          useFactory: async () => {
            // the primary is waited for here, each attempt logged as it happens (DB_CONNECT_ATTEMPTS,
            // DB_CONNECT_RETRY_DELAY_MS); TypeORM's own retries are off, so nothing repeats them
            const server = config.database.kind === 'mysql' ? await reachDatabase(config.database, new Logger('Database')) : undefined;
            const options = await resolveDataSourceOptions(config.database, extensionTables(extensions), {
              replicas: true,
              mariaDb: server?.mariaDb,
            });
            return { ...options, logger: migrationLog(), toRetry: () => false };
          },
          // migrations run at start, and the log says which ones did
          dataSourceFactory: async (options) => {
            const dataSource = await new ReadRoutedDataSource(options as DataSourceOptions).initialize();
            serializeSqliteTransactions(dataSource);
            releaseSlugsWhenTransactionsEnd(dataSource);
            const applied = await dataSource.runMigrations();
            const logger = new Logger('Migrations');
            if (applied.length === 0) logger.log('The schema is up to date.');
            for (const migration of applied) logger.log(`Applied ${migration.name}.`);
            return dataSource;
          },
        }),
        MetricsModule,
        DatabaseGuardModule,
        ReplicationModule.forRoot(config.database.kind === 'mysql' && config.database.replicaUrls.length > 0),
        I18nModule.forRoot(extensionCatalogues(extensions)),
        CacheModule,
        EditionsModule,
        HttpModule,
        LimitsModule,
        UsersModule,
        DocsModule,
        TranslationsModule,
        ItemsModule,
        EventsModule,
        VenuesModule,
        OrganizersModule,
        CategoriesModule,
        TagsModule,
        ChangesModule,
        WebhooksModule,
        ImporterModule,
        SourcesModule,
        TecModule,
        HealthModule,
        ...extensions,
      ],
      providers: [
        ...LIFECYCLE.filter((step) => !STEPS_OF_IMPORTED_MODULES.has(step)),
        { provide: LIFECYCLE_STEPS, useFactory: (...steps: unknown[]) => steps, inject: LIFECYCLE },
        LifecycleMiddleware,
        ResponseCacheStore,
        ResponseCacheInterceptor,
        ResponseCacheMetrics,
        {
          provide: BEFORE_CACHED_READ,
          useFactory: (items: ItemsService) => ({ beforeRead: () => items.publishDueItems() }),
          inject: [ItemsService],
        },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(LifecycleMiddleware).forRoutes('/');
  }
}
