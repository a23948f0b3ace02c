import { Injectable, type NestMiddleware } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { freshReads } from '../cache/fresh-reads.js';
import { ApiError } from '../common/errors/api-error.js';
import { type LoginCheck, LoginLocks } from '../limits/login-locks.js';
import { tooManyRequests } from '../limits/rate-limits.js';
import type { AuthUser } from '../common/http/request-context.js';
import { AuthService, type BasicCredentials, parseBasicAuthorization } from './auth.service.js';
import { readCredentialsVersion } from './credentials-version.js';

/** What the credentials of a request came to: a lock, a refusal (401), or the user. */
export interface CredentialsOutcome {
  lock: LoginCheck;
  user?: AuthUser;
  refused?: ApiError;
}

/** `Cache-Control` of every answer to a request with valid credentials. */
const AUTHENTICATED_CACHE_CONTROL = 'no-cache, must-revalidate, max-age=0, no-store, private';

/** No lock, and no failure of the pair to clear. */
const FREE: LoginCheck = { waitSeconds: null, pairFailures: 0 };

/**
 * Step 2 of the order of checks (spec §4.2, §4.6): supplied Basic credentials are checked on every
 * route, before route matching; failures answer 401. Repeated failures lock the (address, login)
 * pair, and past higher limits a whole address or a login (429, see `LoginLocks`). A locked request
 * is refused before its password is looked at, so a right and a wrong password get the same answer
 * in the same time. Requests without credentials stay anonymous and are never locked.
 */
@Injectable()
export class BasicAuthMiddleware implements NestMiddleware {
  /**
   * The credentials version for remembered credentials, read once for the checks of one event-loop
   * turn (`freshReads`): each check gets a read that began after it was called, so a change
   * committed before a request's check is seen by it, as with a read of its own.
   */
  private readonly currentVersion: () => Promise<string | null>;

  constructor(
    private readonly auth: AuthService,
    private readonly locks: LoginLocks,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.currentVersion = freshReads(() => readCredentialsVersion(this.dataSource.manager));
  }

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!req.ctx.target) return next();
    const credentials = parseBasicAuthorization(req.headers.authorization);
    if (!credentials) return next();
    const client = req.ip ?? 'unknown';
    const outcome = await this.check(client, credentials);
    if (outcome.lock.waitSeconds !== null) throw tooManyRequests(outcome.lock.waitSeconds);
    if (outcome.refused) {
      if (outcome.refused.status === 401) await this.locks.failed(client, credentials.login);
      throw outcome.refused;
    }
    req.ctx.user = outcome.user as AuthUser;
    if (outcome.lock.pairFailures > 0) await this.locks.succeeded(client, credentials.login);
    res.setHeader('Cache-Control', AUTHENTICATED_CACHE_CONTROL);
    next();
  }

  /**
   * The check of credentials sent from `client`, without its consequences (the answer, the failure
   * counted, the pair's failures cleared). Credentials this process accepted before, with no failure
   * of the pair counted then, are accepted again while the credentials version is the one read with
   * that check: one short statement, shared by the checks of one event-loop turn. Otherwise the
   * version, the lock count and the passwords are read in turn, the passwords only when free.
   */
  async check(client: string, credentials: BasicCredentials): Promise<CredentialsOutcome> {
    const key = this.auth.rememberKey(client, credentials);
    const known = this.auth.recall(key);
    if (known) {
      const version = await this.currentVersion();
      // a remembered version is never null, so a missing row (null) matches nothing
      if (version === known.version) return { lock: FREE, user: this.auth.reuse(known) };
      this.auth.forget(key);
    }
    // the version first: a change committed after it is seen by the next check, whatever the rows below show
    const seen = await readCredentialsVersion(this.dataSource.manager);
    const lock = await this.locks.check(client, credentials.login);
    if (lock.waitSeconds !== null) return { lock };
    try {
      const { user, stored } = await this.auth.authenticateWith(credentials, await this.auth.passwordsOf(credentials.login));
      if (lock.pairFailures === 0 && seen !== null) this.auth.remember(key, { user, stored, version: seen });
      return { lock, user };
    } catch (error) {
      if (error instanceof ApiError) return { lock, refused: error };
      throw error;
    }
  }
}
