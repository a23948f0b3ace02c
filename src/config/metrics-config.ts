import { ConfigError, type EnvReader } from './env-values.js';

/** The Prometheus endpoint `GET /metrics` (docs/OPERATIONS.md, "Metrics"). */
export interface MetricsConfig {
  /**
   * The bearer token a scraper sends (`METRICS_TOKEN`); null when unset, and then `/metrics` does not
   * exist (404) and no request is measured.
   */
  token: string | null;
}

/** Visible ASCII without spaces, long enough not to be guessed: what a scraper's `Authorization: Bearer` line carries. */
const TOKEN = /^[\x21-\x7e]{16,256}$/;

export function readMetricsConfig(read: EnvReader): MetricsConfig {
  const token = read('METRICS_TOKEN');
  if (token !== undefined && !TOKEN.test(token)) {
    throw new ConfigError('METRICS_TOKEN', 'must be 16-256 visible ASCII characters without spaces (e.g. openssl rand -hex 32)');
  }
  return { token: token ?? null };
}
