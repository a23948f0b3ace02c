import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { CategoriesModule } from './categories/categories.module.js';
import type { AppConfig } from './config/app-config.js';
import { resolveDataSourceOptions } from './database/data-source-options.js';
import { DocsModule } from './docs/docs.module.js';
import { EditionsModule } from './editions/editions.module.js';
import { HealthModule } from './health/health.module.js';
import { I18nModule } from './i18n/i18n.module.js';
import { TagsModule } from './tags/tags.module.js';
import { UsersModule } from './users/users.module.js';
import { ItemsModule } from './items/items.module.js';
import { CacheModule } from './cache/cache.module.js';
import { EventsModule } from './events/events.module.js';
import { VenuesModule } from './venues/venues.module.js';
import { OrganizersModule } from './organizers/organizers.module.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ ...config })] }),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.log.level,
            autoLogging: config.log.requests,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            quietReqLogger: true,
          },
        }),
        TypeOrmModule.forRootAsync({
          useFactory: async () => ({ ...(await resolveDataSourceOptions(config.database)), migrationsRun: true }),
        }),
        I18nModule,
        CacheModule,
        EditionsModule,
        UsersModule,
        DocsModule,
        ItemsModule,
        EventsModule,
        VenuesModule,
        OrganizersModule,
        CategoriesModule,
        TagsModule,
        HealthModule,
      ],
    };
  }
}
