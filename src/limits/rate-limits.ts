import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { LimitsConfig } from '../config/app-config.js';

export function tooManyRequests(seconds: number): ApiError {
  return new ApiError(429, ErrorCode.TooManyRequests, {}, { retryAfterSeconds: seconds });
}

/**
 * The general request limit (429 with `Retry-After`). Counters live in memory, or in Redis when
 * `REDIS_URL` is set so that several replicas share them. Failed logins are counted elsewhere, in
 * the database: see `login-locks.ts`.
 */
export class RateLimits {
  private readonly requests: RateLimiterAbstract | null;
  private readonly redis: Redis | null;

  constructor(limits: LimitsConfig) {
    this.redis =
      limits.redisUrl && limits.requestsPerMinute > 0
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

  async close(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}

function retryAfter(error: unknown): number {
  if (error instanceof RateLimiterRes) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
  throw error;
}
