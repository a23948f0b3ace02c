import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppPasswordEntity } from './app-password.entity.js';
import { LimitsModule } from '../limits/limits.module.js';
import { AuthService } from './auth.service.js';
import { BasicAuthMiddleware } from './basic-auth.middleware.js';
import { CurrentUserController } from './current-user.controller.js';
import { FeedTokenEntity } from './feed-token.entity.js';
import { FeedTokenMiddleware } from './feed-token.middleware.js';
import { FeedTokensService } from './feed-tokens.service.js';
import { UserEntity } from './user.entity.js';
import { UsersService } from './users.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, AppPasswordEntity, FeedTokenEntity]), LimitsModule],
  controllers: [CurrentUserController],
  providers: [UsersService, AuthService, BasicAuthMiddleware, FeedTokensService, FeedTokenMiddleware],
  exports: [UsersService, AuthService, BasicAuthMiddleware, FeedTokensService, FeedTokenMiddleware],
})
export class UsersModule {}
