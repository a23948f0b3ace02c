import { ConfigError, flag, integer, type EnvReader } from './env-values.js';

export interface LimitsConfig {
  /** Requests per client per minute; 0 turns the general rate limit off. */
  requestsPerMinute: number;
  /** Failed Basic logins allowed per (client address, login) in the window before that pair is locked. */
  loginFailures: number;
  /** Failed logins allowed per client address, over every login, before the address is locked for all logins. */
  loginAddressFailures: number;
  /** Failed logins allowed per login, from every address, before the login is locked everywhere. */
  loginAccountFailures: number;
  loginWindowSeconds: number;
  /** Shared storage of several app replicas (request-rate counters, cached answers); memory when unset. */
  redisUrl?: string;
  /** Prefix of the cached answers' keys in Redis (`REDIS_KEY_PREFIX`), so several calendars can share one Redis. */
  redisKeyPrefix: string;
  /** Express `trust proxy` setting, so the client address is read from X-Forwarded-For. */
  trustProxy: boolean | number | string;
  /** Cache of anonymous read answers, checked against the shared data version. */
  responseCache: boolean;
  responseCacheEntries: number;
}

export function readLimitsConfig(read: EnvReader): LimitsConfig {
  const loginFailures = integer(read('LOGIN_FAILURE_LIMIT') ?? '10', 'LOGIN_FAILURE_LIMIT', 1, 1_000_000);
  // unset, the wider limits are never below the pair limit (a lower one would make the pair limit meaningless)
  const loginAddressFailures = integer(
    read('LOGIN_FAILURE_ADDRESS_LIMIT') ?? String(Math.max(100, loginFailures)),
    'LOGIN_FAILURE_ADDRESS_LIMIT',
    loginFailures,
    1_000_000,
  );
  const loginAccountFailures = integer(
    read('LOGIN_FAILURE_ACCOUNT_LIMIT') ?? String(Math.max(50, loginFailures)),
    'LOGIN_FAILURE_ACCOUNT_LIMIT',
    loginFailures,
    1_000_000,
  );
  return {
    requestsPerMinute: integer(read('RATE_LIMIT_PER_MINUTE') ?? '0', 'RATE_LIMIT_PER_MINUTE', 0, 10_000_000),
    loginFailures,
    loginAddressFailures,
    loginAccountFailures,
    loginWindowSeconds: integer(read('LOGIN_FAILURE_WINDOW_SECONDS') ?? '900', 'LOGIN_FAILURE_WINDOW_SECONDS', 1, 86_400),
    redisUrl: parseRedisUrl(read('REDIS_URL')),
    redisKeyPrefix: parseRedisKeyPrefix(read('REDIS_KEY_PREFIX')),
    trustProxy: parseTrustProxy(read('TRUST_PROXY')),
    responseCache: flag(read('RESPONSE_CACHE') ?? 'on', 'RESPONSE_CACHE'),
    responseCacheEntries: integer(read('RESPONSE_CACHE_ENTRIES') ?? '5000', 'RESPONSE_CACHE_ENTRIES', 1, 10_000_000),
  };
}

function parseRedisUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^rediss?:\/\/[^/]+/.test(raw)) throw new ConfigError('REDIS_URL', 'must look like redis://host:6379');
  return raw;
}

function parseRedisKeyPrefix(raw: string | undefined): string {
  if (raw === undefined) return 'calendar:';
  if (!/^[A-Za-z0-9:._-]{1,64}$/.test(raw)) throw new ConfigError('REDIS_KEY_PREFIX', 'must be 1-64 letters, digits and : . _ -');
  return raw;
}

function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined) return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (['true', 'false'].includes(raw.toLowerCase())) return raw.toLowerCase() === 'true';
  return raw;
}
