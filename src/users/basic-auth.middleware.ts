import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { LoginLocks } from '../limits/login-locks.js';
import { tooManyRequests } from '../limits/rate-limits.js';
import { AuthService, parseBasicAuthorization } from './auth.service.js';

/**
 * Step 2 of the order of checks (spec §4.2, §4.6): supplied Basic credentials are checked on every
 * route, before route matching; failures answer 401. Repeated failures lock the (address, login)
 * pair, and past higher limits a whole address or a login (429, see `LoginLocks`). A locked request
 * is refused before its password is looked at, so a right and a wrong password get the same answer
 * in the same time. Requests without credentials stay anonymous and are never locked.
 */
@Injectable()
export class BasicAuthMiddleware implements NestMiddleware {
  constructor(
    private readonly auth: AuthService,
    private readonly locks: LoginLocks,
  ) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!req.ctx.target) return next();
    const credentials = parseBasicAuthorization(req.headers.authorization);
    if (!credentials) return next();
    const client = req.ip ?? 'unknown';
    const check = await this.locks.check(client, credentials.login);
    if (check.waitSeconds !== null) throw tooManyRequests(check.waitSeconds);
    try {
      req.ctx.user = await this.auth.authenticate(credentials);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) await this.locks.failed(client, credentials.login);
      throw error;
    }
    if (check.pairFailures > 0) await this.locks.succeeded(client, credentials.login);
    res.setHeader('Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private');
    next();
  }
}
