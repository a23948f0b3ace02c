import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { parseQueryString } from '../common/http/body.js';
import { FEED_TOKEN_PARAM } from '../common/http/feed-token.js';
import { FEED_TOKEN_LOGIN, LoginLocks } from '../limits/login-locks.js';
import { tooManyRequests } from '../limits/rate-limits.js';
import { FeedTokensService } from './feed-tokens.service.js';

const PRIVATE = 'no-cache, must-revalidate, max-age=0, no-store, private';

/**
 * After the route is known (step 3): on the routes marked `@AcceptsFeedToken()` (the two iCalendar
 * routes), a `token` in the query string authenticates the request as the token's user, with that
 * user's role, exactly as Basic credentials would. A token that is malformed, unknown or revoked, or
 * whose user is gone, answers 401 `rest_invalid_feed_token` and counts as a failed login of the
 * client's address (`LoginLocks`): past `LOGIN_FAILURE_ADDRESS_LIMIT` the address gets 429.
 * Credentials win: a request that authenticated with Basic is not looked at again. Elsewhere a
 * `token` parameter is an unknown parameter and ignored (spec §7.1).
 */
@Injectable()
export class FeedTokenMiddleware implements NestMiddleware {
  constructor(
    private readonly tokens: FeedTokensService,
    private readonly locks: LoginLocks,
  ) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    const route = req.ctx.route;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (!route || req.ctx.user || !route.feedTokenMethods.includes(method)) return next();
    const token = tokenOf(req.url);
    if (token === undefined) return next();
    const client = req.ip ?? 'unknown';
    const wait = await this.locks.checkAddress(client);
    if (wait !== null) throw tooManyRequests(wait);
    const user = typeof token === 'string' ? await this.tokens.authenticate(token) : null;
    if (!user) {
      await this.locks.failed(client, FEED_TOKEN_LOGIN);
      throw new ApiError(401, ErrorCode.InvalidFeedToken);
    }
    req.ctx.user = user;
    res.setHeader('Cache-Control', PRIVATE);
    next();
  }
}

/**
 * The `token` of the query string (after the route middleware: `?rest_route=` already taken out):
 * undefined when absent, the last value when repeated (spec §7.2), null when it is not text.
 */
function tokenOf(url: string): string | null | undefined {
  const query = url.indexOf('?');
  if (query === -1 || !url.includes(FEED_TOKEN_PARAM, query)) return undefined;
  const value = parseQueryString(url.slice(query + 1))[FEED_TOKEN_PARAM];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    const last: unknown = value.at(-1);
    return typeof last === 'string' ? last : null;
  }
  return typeof value === 'string' ? value : null;
}
