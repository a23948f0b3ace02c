import { Injectable, Module, type NestMiddleware, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import type { LimitsConfig } from '../config/app-config.js';
import { LoginFailureEntity } from './login-failure.entity.js';
import { LoginLocks } from './login-locks.js';
import { RateLimits, tooManyRequests } from './rate-limits.js';

/** The general request limit (off unless `RATE_LIMIT_PER_MINUTE` is set): 429 with `Retry-After`. */
@Injectable()
export class RequestLimitMiddleware implements NestMiddleware {
  constructor(private readonly limits: RateLimits) {}

  async use(req: Request, _res: Response, next: NextFunction): Promise<void> {
    const wait = await this.limits.request(req.ip ?? 'unknown');
    if (wait !== null) throw tooManyRequests(wait);
    next();
  }
}

/** Counters of requests (in memory or in Redis, `REDIS_URL`) and of failed logins (in the database). */
@Module({
  imports: [TypeOrmModule.forFeature([LoginFailureEntity])],
  providers: [
    LoginLocks,
    {
      provide: RateLimits,
      inject: [ConfigService],
      useFactory: (config: ConfigService) => new RateLimits(config.getOrThrow<LimitsConfig>('limits')),
    },
    RequestLimitMiddleware,
  ],
  exports: [RateLimits, LoginLocks, RequestLimitMiddleware],
})
export class LimitsModule implements OnApplicationShutdown {
  constructor(private readonly limits: RateLimits) {}

  async onApplicationShutdown(): Promise<void> {
    await this.limits.close();
  }
}
