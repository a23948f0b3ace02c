import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
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
export class UsersModule {}
