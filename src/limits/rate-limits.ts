import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { LimitsConfig } from '../config/app-config.js';

export function tooManyRequests(seconds: number): ApiError {
  return new ApiError(429, ErrorCode.TooManyRequests, {}, { retryAfterSeconds: seconds });
}

/**
 * Request and failed-login limits (429 with `Retry-After`). Counters live in memory, or in Redis
 * when `REDIS_URL` is set so that several replicas share them.
 */
export class RateLimits {
  private readonly requests: RateLimiterAbstract | null;
  private readonly failuresByClient: RateLimiterAbstract;
  private readonly failuresByLogin: RateLimiterAbstract;
  private readonly redis: Redis | null;

  constructor(limits: LimitsConfig) {
    this.redis = limits.redisUrl
      ? new Redis(limits.redisUrl, { enableOfflineQueue: false, lazyConnect: false, maxRetriesPerRequest: 1 })
      : null;
    const make = (keyPrefix: string, points: number, duration: number) =>
      this.redis
        ? new RateLimiterRedis({
            storeClient: this.redis,
            keyPrefix,
            points,
            duration,
            insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
          })
        : new RateLimiterMemory({ keyPrefix, points, duration });
    this.requests = limits.requestsPerMinute > 0 ? make('calendar-requests', limits.requestsPerMinute, 60) : null;
    this.failuresByClient = make('calendar-login-client', limits.loginFailures, limits.loginWindowSeconds);
    this.failuresByLogin = make('calendar-login-name', limits.loginFailures * 2, limits.loginWindowSeconds);
  }

  /** Seconds to wait when the client has used up its requests, else null. */
  async request(client: string): Promise<number | null> {
    if (!this.requests) return null;
    try {
      await this.requests.consume(client);
      return null;
    } catch (error) {
      return retryAfter(error);
    }
  }

  /** Seconds to wait when this client or this login failed too often, else null. */
  async loginBlocked(client: string, login: string): Promise<number | null> {
    const [byClient, byLogin] = await Promise.all([this.failuresByClient.get(client), this.failuresByLogin.get(login.toLowerCase())]);
    const blocked = [
      [byClient, this.failuresByClient.points],
      [byLogin, this.failuresByLogin.points],
    ].filter(([state, points]) => state !== null && (state as RateLimiterRes).consumedPoints >= (points as number));
    if (blocked.length === 0) return null;
    return Math.max(...blocked.map(([state]) => Math.ceil((state as RateLimiterRes).msBeforeNext / 1000)), 1);
  }

  async loginFailed(client: string, login: string): Promise<void> {
    await Promise.all([this.failuresByClient.penalty(client, 1), this.failuresByLogin.penalty(login.toLowerCase(), 1)]);
  }

  async close(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}

function retryAfter(error: unknown): number {
  if (error instanceof RateLimiterRes) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
  throw error;
}
