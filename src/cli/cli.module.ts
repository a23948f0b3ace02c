import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config.js';
import { resolveDataSourceOptions } from '../database/data-source-options.js';
import { LoginLocks } from '../limits/login-locks.js';
import { UsersService } from '../users/users.service.js';

/** Just what the command-line tool needs: configuration, storage (migrated), the accounts and the login locks. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ ...config })] }),
        TypeOrmModule.forRootAsync({
          useFactory: async () => ({ ...(await resolveDataSourceOptions(config.database)), migrationsRun: true }),
        }),
      ],
      providers: [UsersService, LoginLocks],
    };
  }
}
