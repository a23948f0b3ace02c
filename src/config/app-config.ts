import { normalizeTimezone } from './time-zone-names.js';

/** Typed, validated configuration. Built once from the environment by {@link loadConfig}. */
export interface AppConfig {
  http: HttpConfig;
  api: ApiConfig;
  site: SiteConfig;
  lists: ListsConfig;
  cost: CostConfig;
  events: EventsConfig;
  admin: AdminBootstrapConfig;
  database: DatabaseConfig;
  limits: LimitsConfig;
  changes: ChangesConfig;
  webhooks: WebhooksConfig;
  log: LogConfig;
}

export interface HttpConfig {
  port: number;
  /** Public URL without a trailing slash, e.g. `https://calendar.example.org/cal`. */
  publicUrl: string;
  /** Path part of the public URL (`/cal`), or `''`. Requests are accepted with and without it. */
  publicPath: string;
  /** Host and path of the public URL without scheme and port, used by `global_id`. */
  globalIdBase: string;
  corsOrigins: '*' | string[];
  maxBodyBytes: number;
  /** Request line plus headers, in bytes (Node's parser limit): beyond it 431, or 414 while still in the URL. */
  maxHeaderBytes: number;
  /** Request target (path and query), in bytes: beyond it 414. */
  maxUrlBytes: number;
  /** Milliseconds the server waits for requests in flight on shutdown. */
  shutdownGraceMs: number;
  /** `max-age` of `Cache-Control: public, max-age=N, must-revalidate` on anonymous 200/304 reads (`HTTP_CACHE_MAX_AGE`). */
  cacheMaxAgeSeconds: number;
}

export interface ApiConfig {
  /** `/wp-json` by default. */
  root: string;
  vendor: string;
  /** `<vendor>/events/v1`. */
  namespace: string;
  /** Language codes; the first is the default edition, served without a prefix. */
  editions: string[];
}

export interface SiteConfig {
  timezone: string;
  name: string;
  description: string;
}

export interface ListsConfig {
  defaultPerPage: number;
  maxPerPage: number;
}

export interface CostConfig {
  currencySymbol: string;
  currencyPosition: 'prefix' | 'postfix';
  currencyCode: string;
  decimalSeparator: '.' | ',';
}

export interface CustomFieldDefinition {
  key: string;
  label: string;
}

export interface EventsConfig {
  /** Most events one `GET /events.ics` answer holds (`ICS_MAX_EVENTS`). */
  icsMaxEvents: number;
  /** Feed requests that may wait while another feed is built; one more is answered 503 (`ICS_WAITING_MAX`). */
  icsWaitingMax: number;
  /** How far ahead of now (or of a later series start) a series' occurrences are generated, in days (`SERIES_HORIZON_DAYS`). */
  seriesHorizonDays: number;
  geofenceRadiusKm: number;
  customFields: CustomFieldDefinition[];
}

export interface AdminBootstrapConfig {
  login?: string;
  password?: string;
}

export type DatabaseConfig = { kind: 'sqlite'; path: string } | MysqlConfig;

export interface MysqlConfig {
  kind: 'mysql';
  url: string;
  poolSize: number;
  /** Longest wait for a new connection's handshake. */
  connectTimeoutMs: number;
  /** Longest wait for the answer to one query; past it the connection is discarded and the database marked down. */
  queryTimeoutMs: number;
  /** Longest wait for a connection of the pool (busy pool or a connection being opened). */
  acquireTimeoutMs: number;
  /** While the database is marked down: pause between two probes (`SELECT 1`). */
  probeIntervalMs: number;
  /** Read replicas of the primary (`DATABASE_REPLICA_URLS`); empty: every query goes to `url`. */
  replicaUrls: string[];
  /** A replica further behind the primary than this is skipped until it catches up (`REPLICA_MAX_LAG_MS`). */
  replicaMaxLagMs: number;
  /** Longest wait of a read that presents a consistency token for a replica to reach it, before the primary answers (`REPLICA_WAIT_MS`). */
  replicaWaitMs: number;
}

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

export interface ChangesConfig {
  /** How long the change log keeps a change (`CHANGES_RETENTION_DAYS`, decimals allowed); older cursors expire. */
  retentionDays: number;
  /**
   * How often a process looks for changes committed by other processes (`CHANGES_POLL_INTERVAL_MS`): the
   * domain events and the webhook dispatcher; a process's own commits wake them at once.
   */
  pollIntervalMs: number;
}

export interface WebhooksConfig {
  /** Private, loopback, link-local, unspecified and multicast targets allowed (`WEBHOOK_ALLOW_PRIVATE_TARGETS`). */
  allowPrivateTargets: boolean;
  /** First retry after about this long; each later one waits five times longer (`WEBHOOK_RETRY_BASE_MS`). */
  retryBaseMs: number;
  /** Attempts of one delivery before it fails and its subscription is deactivated (`WEBHOOK_MAX_ATTEMPTS`). */
  maxAttempts: number;
  /** Bound on connecting, and on the whole answer once connected (`WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  /** How long finished deliveries and their attempts are kept (`WEBHOOK_LOG_RETENTION_DAYS`). */
  logRetentionDays: number;
}

export interface LogConfig {
  level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Log one line per request (off makes benchmarks measure the API, not the logger). */
  requests: boolean;
  /** `auto`: a human start-up banner on a terminal, JSON lines otherwise; `json`: JSON lines always. */
  format: 'auto' | 'json';
}

export type Env = Record<string, string | undefined>;

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
  }
}

const LANGUAGE_CODE = /^[a-z]{2}(-[a-z]{2})?$/;
const CUSTOM_FIELD_KEY = /^[A-Za-z0-9_]{1,64}$/;
const USER_PASSWORD = /^[^\s\p{Cc}]{8,128}$/u;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const DEFAULT_EDITIONS = 'en,de,fr,es,it,nl,pt-br,pl,sv,ja,zh-cn,ko';

/** Reads the variables of spec §2.1 plus storage and logging settings. Throws {@link ConfigError}. */
export function loadConfig(env: Env): AppConfig {
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const port = integer(read('PORT') ?? '3000', 'PORT', 0, 65535);
  const publicUrl = parsePublicUrl(read('PUBLIC_URL') ?? `http://localhost:${port}`);

  const root = read('API_ROOT') ?? '/wp-json';
  if (!/^\/[A-Za-z0-9._~%!$&'()*+,;=:@/-]*[^/]$/.test(root)) {
    throw new ConfigError('API_ROOT', 'must start with "/" and must not end with "/"');
  }
  const vendor = read('API_VENDOR') ?? 'tribe';
  if (!/^[a-z0-9-]+$/.test(vendor)) throw new ConfigError('API_VENDOR', 'must match [a-z0-9-]+');

  const editions = (read('EDITIONS') ?? DEFAULT_EDITIONS).split(',').map((code) => code.trim().toLowerCase());
  if (editions.some((code) => !LANGUAGE_CODE.test(code)) || new Set(editions).size !== editions.length) {
    throw new ConfigError('EDITIONS', 'must be a comma-separated list of distinct language codes such as en,de,pt-br');
  }

  const timezone = normalizeTimezone(read('SITE_TIMEZONE') ?? 'UTC');
  if (!timezone) throw new ConfigError('SITE_TIMEZONE', 'is not a recognised time zone');

  const defaultPerPage = integer(read('DEFAULT_PER_PAGE') ?? '6', 'DEFAULT_PER_PAGE', 1, 1000);
  const maxPerPage = integer(read('MAX_PER_PAGE') ?? '50', 'MAX_PER_PAGE', 1, 1000);
  if (maxPerPage < defaultPerPage) throw new ConfigError('MAX_PER_PAGE', 'must not be smaller than DEFAULT_PER_PAGE');

  const corsRaw = read('CORS_ORIGINS') ?? '*';
  const corsOrigins = corsRaw === '*' ? '*' : corsRaw.split(',').map((origin) => parseOrigin(origin.trim()));

  const position = read('DEFAULT_CURRENCY_POSITION') ?? 'prefix';
  if (position !== 'prefix' && position !== 'postfix') {
    throw new ConfigError('DEFAULT_CURRENCY_POSITION', 'must be "prefix" or "postfix"');
  }
  const separator = read('COST_DECIMAL_SEPARATOR') ?? '.';
  if (separator !== '.' && separator !== ',') throw new ConfigError('COST_DECIMAL_SEPARATOR', 'must be "." or ","');
  const currencyCode = read('DEFAULT_CURRENCY_CODE') ?? 'USD';
  if (!/^[A-Z]{3}$/.test(currencyCode)) throw new ConfigError('DEFAULT_CURRENCY_CODE', 'must be a three-letter code');

  const geofence = Number(read('GEOFENCE_RADIUS_KM') ?? '40.2336');
  if (!Number.isFinite(geofence) || geofence <= 0) throw new ConfigError('GEOFENCE_RADIUS_KM', 'must be a positive number');

  const admin = { login: read('ADMIN_LOGIN'), password: env.ADMIN_PASSWORD === '' ? undefined : env.ADMIN_PASSWORD };
  if ((admin.login === undefined) !== (admin.password === undefined)) {
    throw new ConfigError(
      admin.login === undefined ? 'ADMIN_LOGIN' : 'ADMIN_PASSWORD',
      'must be set together with the other ADMIN_ variable',
    );
  }
  if (admin.login !== undefined && !/^[A-Za-z0-9._@-]{1,60}$/.test(admin.login)) {
    throw new ConfigError('ADMIN_LOGIN', 'must be 1-60 characters of letters, digits and . _ @ -');
  }
  if (admin.password !== undefined && !USER_PASSWORD.test(admin.password)) {
    throw new ConfigError('ADMIN_PASSWORD', 'must be 8-128 characters without whitespace or control characters');
  }

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

  const logLevel = (read('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }

  return {
    http: {
      port,
      ...publicUrl,
      corsOrigins,
      maxBodyBytes: integer(read('MAX_BODY_BYTES') ?? '1048576', 'MAX_BODY_BYTES', 1, 1024 * 1024 * 1024),
      maxHeaderBytes: integer(read('MAX_HEADER_BYTES') ?? '16384', 'MAX_HEADER_BYTES', 1024, 1024 * 1024),
      maxUrlBytes: integer(read('MAX_URL_BYTES') ?? '8192', 'MAX_URL_BYTES', 256, 1024 * 1024),
      shutdownGraceMs: integer(read('SHUTDOWN_GRACE_MS') ?? '10000', 'SHUTDOWN_GRACE_MS', 0, 600000),
      cacheMaxAgeSeconds: integer(read('HTTP_CACHE_MAX_AGE') ?? '0', 'HTTP_CACHE_MAX_AGE', 0, 31_536_000),
    },
    api: { root, vendor, namespace: `${vendor}/events/v1`, editions },
    site: { timezone, name: read('SITE_NAME') ?? 'Events', description: read('SITE_DESCRIPTION') ?? '' },
    lists: { defaultPerPage, maxPerPage },
    cost: {
      currencySymbol: env.DEFAULT_CURRENCY_SYMBOL ?? '$',
      currencyPosition: position,
      currencyCode,
      decimalSeparator: separator,
    },
    events: {
      geofenceRadiusKm: geofence,
      // a feed's text is held in memory until it is whole: 10,000 events is the largest feed measured with the shipped heap
      icsMaxEvents: integer(read('ICS_MAX_EVENTS') ?? '5000', 'ICS_MAX_EVENTS', 1, 10000),
      icsWaitingMax: integer(read('ICS_WAITING_MAX') ?? '10', 'ICS_WAITING_MAX', 0, 1000),
      seriesHorizonDays: integer(read('SERIES_HORIZON_DAYS') ?? '730', 'SERIES_HORIZON_DAYS', 1, 3660),
      customFields: parseCustomFields(read('EVENT_CUSTOM_FIELDS')),
    },
    admin,
    database: parseDatabase(read),
    limits: {
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
    },
    changes: {
      retentionDays: decimal(read('CHANGES_RETENTION_DAYS') ?? '30', 'CHANGES_RETENTION_DAYS', 0.00001, 3650),
      pollIntervalMs: integer(read('CHANGES_POLL_INTERVAL_MS') ?? '1000', 'CHANGES_POLL_INTERVAL_MS', 10, 600_000),
    },
    webhooks: {
      allowPrivateTargets: flag(read('WEBHOOK_ALLOW_PRIVATE_TARGETS') ?? 'false', 'WEBHOOK_ALLOW_PRIVATE_TARGETS'),
      retryBaseMs: integer(read('WEBHOOK_RETRY_BASE_MS') ?? '5000', 'WEBHOOK_RETRY_BASE_MS', 1, 3_600_000),
      maxAttempts: integer(read('WEBHOOK_MAX_ATTEMPTS') ?? '8', 'WEBHOOK_MAX_ATTEMPTS', 1, 20),
      timeoutMs: integer(read('WEBHOOK_TIMEOUT_MS') ?? '10000', 'WEBHOOK_TIMEOUT_MS', 100, 120_000),
      logRetentionDays: decimal(read('WEBHOOK_LOG_RETENTION_DAYS') ?? '7', 'WEBHOOK_LOG_RETENTION_DAYS', 0.00001, 3650),
    },
    log: {
      level: logLevel as LogConfig['level'],
      requests: flag(read('LOG_REQUESTS') ?? 'true', 'LOG_REQUESTS'),
      format: logFormat(read('LOG_FORMAT')),
    },
  };
}

/** The configuration of this process, read from its environment (the only place that reads it). */
export function readConfig(overrides: Env = {}): AppConfig {
  return loadConfig({ ...process.env, ...overrides });
}

function integer(raw: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number between ${min} and ${max}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be a whole number between ${min} and ${max}`);
  return value;
}

function decimal(raw: string, name: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max) throw new ConfigError(name, `must be a number between ${min} and ${max}`);
  return value;
}

function flag(raw: string, name: string): boolean {
  const value = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(name, 'must be true or false');
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

function parsePublicUrl(raw: string): Pick<HttpConfig, 'publicUrl' | 'publicPath' | 'globalIdBase'> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('PUBLIC_URL', 'must be an absolute http or https URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
    throw new ConfigError('PUBLIC_URL', 'must be an absolute http or https URL without query, fragment or user');
  }
  const publicPath = url.pathname.replace(/\/+$/, '');
  return {
    publicUrl: `${url.protocol}//${url.host}${publicPath}`,
    publicPath,
    globalIdBase: `${url.hostname}${publicPath}`,
  };
}

function parseOrigin(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.origin === 'null' || url.pathname !== '/' || url.search) throw new Error('not an origin');
    return url.origin;
  } catch {
    throw new ConfigError('CORS_ORIGINS', 'must be "*" or a comma-separated list of origins such as https://app.example.org');
  }
}

function parseCustomFields(raw: string | undefined): CustomFieldDefinition[] {
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('EVENT_CUSTOM_FIELDS', 'must be a JSON array of {"key", "label"} objects');
  }
  const valid =
    Array.isArray(parsed) &&
    parsed.every((field: unknown) => {
      const { key, label } = (typeof field === 'object' && field !== null ? field : {}) as Record<string, unknown>;
      return typeof key === 'string' && CUSTOM_FIELD_KEY.test(key) && typeof label === 'string';
    });
  if (!valid)
    throw new ConfigError('EVENT_CUSTOM_FIELDS', 'must be a JSON array of {"key", "label"} objects with keys matching [A-Za-z0-9_]{1,64}');
  const fields = (parsed as CustomFieldDefinition[]).map(({ key, label }) => ({ key, label }));
  if (new Set(fields.map((field) => field.key)).size !== fields.length) {
    throw new ConfigError('EVENT_CUSTOM_FIELDS', 'must not define the same key twice');
  }
  return fields;
}

const DATABASE_URL_SHAPE = /^(mysql|mariadb):\/\/[^/]+\/[^/?]+/;

function parseDatabase(read: (name: string) => string | undefined): DatabaseConfig {
  const url = read('DATABASE_URL');
  const replicas = read('DATABASE_REPLICA_URLS');
  if (url === undefined) {
    if (replicas !== undefined) {
      throw new ConfigError('DATABASE_REPLICA_URLS', 'needs a MySQL/MariaDB DATABASE_URL (the embedded SQLite database has no replicas)');
    }
    return { kind: 'sqlite', path: read('SQLITE_PATH') ?? 'data/calendar.sqlite' };
  }
  if (!DATABASE_URL_SHAPE.test(url)) {
    throw new ConfigError('DATABASE_URL', 'must look like mysql://user:password@host:3306/database');
  }
  const replicaUrls = replicas === undefined ? [] : replicas.split(',').map((replica) => replica.trim());
  if (replicaUrls.some((replica) => !DATABASE_URL_SHAPE.test(replica)) || new Set(replicaUrls).size !== replicaUrls.length) {
    throw new ConfigError(
      'DATABASE_REPLICA_URLS',
      'must be a comma-separated list of distinct URLs such as mysql://user:password@replica:3306/database',
    );
  }
  if (replicaUrls.includes(url)) throw new ConfigError('DATABASE_REPLICA_URLS', 'must not list the primary (DATABASE_URL)');
  const milliseconds = (name: string, fallback: number, min: number, max: number) =>
    integer(read(name) ?? String(fallback), name, min, max);
  return {
    kind: 'mysql',
    url,
    poolSize: integer(read('DB_POOL_SIZE') ?? '10', 'DB_POOL_SIZE', 1, 500),
    connectTimeoutMs: milliseconds('DB_CONNECT_TIMEOUT_MS', 2000, 100, 120000),
    queryTimeoutMs: milliseconds('DB_QUERY_TIMEOUT_MS', 3000, 100, 3600000),
    acquireTimeoutMs: milliseconds('DB_ACQUIRE_TIMEOUT_MS', 3000, 100, 120000),
    probeIntervalMs: milliseconds('DB_PROBE_INTERVAL_MS', 1000, 50, 60000),
    replicaUrls,
    replicaMaxLagMs: milliseconds('REPLICA_MAX_LAG_MS', 2000, 100, 3600000),
    replicaWaitMs: milliseconds('REPLICA_WAIT_MS', 500, 0, 60000),
  };
}

/** Which storage engine this process uses; entity column types depend on it before Nest starts. */
export function databaseKindFromEnv(): DatabaseConfig['kind'] {
  return (process.env.DATABASE_URL ?? '').trim() === '' ? 'sqlite' : 'mysql';
}

function logFormat(raw: string | undefined): LogConfig['format'] {
  const value = (raw ?? 'auto').trim().toLowerCase();
  if (value !== 'auto' && value !== 'json') throw new ConfigError('LOG_FORMAT', 'must be auto or json');
  return value;
}
