import { Injectable, type NestMiddleware } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { runTogether } from '../common/sql/together.js';
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
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!req.ctx.target) return next();
    const credentials = parseBasicAuthorization(req.headers.authorization);
    if (!credentials) return next();
    const client = req.ip ?? 'unknown';
    // the lock count and the passwords in one round trip; the passwords are looked at only when free
    const locking = this.locks.checkQuery(client, credentials.login);
    const reading = this.auth.passwordsQuery(credentials.login);
    const [counts, passwords] = await runTogether(this.dataSource.manager, [locking.statement, reading.statement]);
    const check = await locking.read(counts);
    if (check.waitSeconds !== null) throw tooManyRequests(check.waitSeconds);
    try {
      req.ctx.user = await this.auth.authenticateWith(credentials, reading.read(passwords));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) await this.locks.failed(client, credentials.login);
      throw error;
    }
    if (check.pairFailures > 0) await this.locks.succeeded(client, credentials.login);
    res.setHeader('Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private');
    next();
  }
}
