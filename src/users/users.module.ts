import { Module, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AdminBootstrapConfig } from '../config/app-config.js';
import { AppPasswordEntity } from './app-password.entity.js';
import { LimitsModule } from '../limits/limits.module.js';
import { AuthService } from './auth.service.js';
import { BasicAuthMiddleware } from './basic-auth.middleware.js';
import { UserEntity } from './user.entity.js';
import { UsersService } from './users.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, AppPasswordEntity]), LimitsModule],
  providers: [UsersService, AuthService, BasicAuthMiddleware],
  exports: [UsersService, AuthService, BasicAuthMiddleware],
})
export class UsersModule implements OnApplicationBootstrap {
  constructor(
    private readonly users: UsersService,
    private readonly config: ConfigService,
  ) {}

  /** The first administrator (spec §4.3), once migrations have run. */
  async onApplicationBootstrap(): Promise<void> {
    const admin = this.config.getOrThrow<AdminBootstrapConfig>('admin');
    await this.users.bootstrapAdministrator(admin.login, admin.password);
  }
}
