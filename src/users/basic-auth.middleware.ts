import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { RateLimits, tooManyRequests } from '../limits/rate-limits.js';
import { AuthService, parseBasicAuthorization } from './auth.service.js';

/**
 * Step 2 of the order of checks (spec §4.2, §4.6): supplied Basic credentials are checked on every
 * route, before route matching; failures answer 401, and repeated failures from one client or for
 * one login are slowed down with 429. Requests without credentials stay anonymous.
 */
@Injectable()
export class BasicAuthMiddleware implements NestMiddleware {
  constructor(
    private readonly auth: AuthService,
    private readonly limits: RateLimits,
  ) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!req.ctx.target) return next();
    const credentials = parseBasicAuthorization(req.headers.authorization);
    if (!credentials) return next();
    const client = req.ip ?? 'unknown';
    const wait = await this.limits.loginBlocked(client, credentials.login);
    if (wait !== null) throw tooManyRequests(wait);
    try {
      req.ctx.user = await this.auth.authenticate(credentials);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) await this.limits.loginFailed(client, credentials.login);
      throw error;
    }
    res.setHeader('Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private');
    next();
  }
}
