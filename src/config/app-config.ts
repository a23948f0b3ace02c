import { readDatabaseConfig, type DatabaseConfig } from './database-config.js';
import { ConfigError, decimal, envReader, flag, integer, type Env } from './env-values.js';
import { readApiConfig, readHttpConfig, type ApiConfig, type HttpConfig } from './http-config.js';
import { readLimitsConfig, type LimitsConfig } from './limits-config.js';
import { readMetricsConfig, type MetricsConfig } from './metrics-config.js';
import { readOutboundConfig, type OutboundConfig } from './outbound-config.js';
import { withSecretFiles } from './secret-files.js';
import { normalizeTimezone } from './time-zone-names.js';

// the sections read in files of their own, importable from here with the rest of the configuration
export { databaseKindFromEnv, type DatabaseConfig, type MysqlConfig } from './database-config.js';
export { ConfigError, type Env } from './env-values.js';
export type { ApiConfig, HttpConfig } from './http-config.js';
export type { LimitsConfig } from './limits-config.js';
export type { MetricsConfig } from './metrics-config.js';
export type { OutboundAllowance, OutboundConfig } from './outbound-config.js';

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
  sources: SourcesConfig;
  outbound: OutboundConfig;
  log: LogConfig;
  metrics: MetricsConfig;
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
  /**
   * How often a process looks for the next scheduled publication (`SCHEDULED_CHECK_INTERVAL_MS`):
   * the most an item another process scheduled may wait past its time (its own writes look at once).
   */
  scheduledCheckIntervalMs: number;
  geofenceRadiusKm: number;
  customFields: CustomFieldDefinition[];
}

export interface AdminBootstrapConfig {
  login?: string;
  password?: string;
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
  /** First retry after about this long; each later one waits five times longer (`WEBHOOK_RETRY_BASE_MS`). */
  retryBaseMs: number;
  /** Attempts of one delivery before it fails and its subscription is deactivated (`WEBHOOK_MAX_ATTEMPTS`). */
  maxAttempts: number;
  /** Bound on one attempt, from resolving the receiver's name to the end of its answer (`WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  /** How long finished deliveries and their attempts are kept (`WEBHOOK_LOG_RETENTION_DAYS`). */
  logRetentionDays: number;
}

export interface SourcesConfig {
  /** Runs kept per calendar source, the newest; older ones are deleted after each run (`SOURCE_RUNS_KEPT`). */
  runsKept: number;
}

export interface LogConfig {
  level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Log one line per request (off makes benchmarks measure the API, not the logger). */
  requests: boolean;
  /** `auto`: a human start-up banner on a terminal, JSON lines otherwise; `json`: JSON lines always. */
  format: 'auto' | 'json';
}

const CUSTOM_FIELD_KEY = /^[A-Za-z0-9_]{1,64}$/;
const USER_PASSWORD = /^[^\s\p{Cc}]{8,128}$/u;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Reads the variables of spec §2.1 plus storage and logging settings, secrets also from `<NAME>_FILE`
 * (`secret-files.ts`). Throws {@link ConfigError}.
 */
export function loadConfig(given: Env): AppConfig {
  const env = withSecretFiles(given);
  const read = envReader(env);
  const http = readHttpConfig(read);
  const api = readApiConfig(read);

  const timezone = normalizeTimezone(read('SITE_TIMEZONE') ?? 'UTC');
  if (!timezone) throw new ConfigError('SITE_TIMEZONE', 'is not a recognised time zone');

  const defaultPerPage = integer(read('DEFAULT_PER_PAGE') ?? '6', 'DEFAULT_PER_PAGE', 1, 1000);
  const maxPerPage = integer(read('MAX_PER_PAGE') ?? '50', 'MAX_PER_PAGE', 1, 1000);
  if (maxPerPage < defaultPerPage) throw new ConfigError('MAX_PER_PAGE', 'must not be smaller than DEFAULT_PER_PAGE');

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

  const limits = readLimitsConfig(read);

  const logLevel = (read('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }

  return {
    http,
    api,
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
      scheduledCheckIntervalMs: integer(read('SCHEDULED_CHECK_INTERVAL_MS') ?? '1000', 'SCHEDULED_CHECK_INTERVAL_MS', 50, 600_000),
      customFields: parseCustomFields(read('EVENT_CUSTOM_FIELDS')),
    },
    admin,
    database: readDatabaseConfig(read),
    limits,
    changes: {
      retentionDays: decimal(read('CHANGES_RETENTION_DAYS') ?? '30', 'CHANGES_RETENTION_DAYS', 0.00001, 3650),
      pollIntervalMs: integer(read('CHANGES_POLL_INTERVAL_MS') ?? '1000', 'CHANGES_POLL_INTERVAL_MS', 10, 600_000),
    },
    webhooks: {
      retryBaseMs: integer(read('WEBHOOK_RETRY_BASE_MS') ?? '5000', 'WEBHOOK_RETRY_BASE_MS', 1, 3_600_000),
      maxAttempts: integer(read('WEBHOOK_MAX_ATTEMPTS') ?? '8', 'WEBHOOK_MAX_ATTEMPTS', 1, 20),
      timeoutMs: integer(read('WEBHOOK_TIMEOUT_MS') ?? '10000', 'WEBHOOK_TIMEOUT_MS', 100, 120_000),
      logRetentionDays: decimal(read('WEBHOOK_LOG_RETENTION_DAYS') ?? '7', 'WEBHOOK_LOG_RETENTION_DAYS', 0.00001, 3650),
    },
    sources: {
      runsKept: integer(read('SOURCE_RUNS_KEPT') ?? '50', 'SOURCE_RUNS_KEPT', 1, 100_000),
    },
    outbound: readOutboundConfig(read),
    log: {
      level: logLevel as LogConfig['level'],
      requests: flag(read('LOG_REQUESTS') ?? 'true', 'LOG_REQUESTS'),
      format: logFormat(read('LOG_FORMAT')),
    },
    metrics: readMetricsConfig(read),
  };
}

/** The configuration of this process, read from its environment (the only place that reads it). */
export function readConfig(overrides: Env = {}): AppConfig {
  return loadConfig({ ...process.env, ...overrides });
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

function logFormat(raw: string | undefined): LogConfig['format'] {
  const value = (raw ?? 'auto').trim().toLowerCase();
  if (value !== 'auto' && value !== 'json') throw new ConfigError('LOG_FORMAT', 'must be auto or json');
  return value;
}
