import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { collectDefaultMetrics, Counter, type CounterConfiguration, Gauge, type GaugeConfiguration, Registry } from 'prom-client';
import { wallToDate } from '../common/sql/columns.js';
import type { MetricsConfig } from '../config/app-config.js';
import { RequestDurations } from './request-durations.js';

/** Bound on reading one source at a scrape (a few database statements); past it the source counts as failed. */
export const SOURCE_TIMEOUT_MS = 1000;

/**
 * Values read at each scrape, usually from the database: `read` gets them, `apply` sets the gauges
 * from them, or with null after a failure or a timeout (the gauges then say they do not know: NaN,
 * or no series).
 */
export interface MetricsSource<T> {
  name: string;
  read: () => Promise<T>;
  apply: (values: T | null) => void;
}

/**
 * The metrics of this process, in one prom-client registry of its own (not the library's global
 * one, so that several applications in one process never share a metric): Node's default process
 * metrics, the request histogram, and what the modules register (cache, database, webhooks, change
 * log, series). Modules define their metrics here with {@link gauge} and {@link counter}, reading
 * values they keep anyway when a scrape asks (`collect`), and queries through {@link source}.
 * Everything is defined whether or not `/metrics` is on; without `METRICS_TOKEN` nothing is measured
 * per request and the default metrics (event-loop delay, GC) are not started.
 */
@Injectable()
export class Metrics {
  readonly enabled: boolean;
  readonly registry = new Registry();
  readonly requests = new RequestDurations();
  private readonly logger = new Logger('Metrics');
  private readonly sources: Array<MetricsSource<unknown>> = [];
  private readonly failing = new Set<string>();
  private readonly sourceUp: Gauge<'source'>;

  constructor(@Inject(ConfigService) config: ConfigService) {
    this.enabled = config.getOrThrow<MetricsConfig>('metrics').token !== null;
    if (this.enabled) collectDefaultMetrics({ register: this.registry });
    this.registry.registerMetric(this.requests.asMetric());
    this.sourceUp = this.gauge({
      name: 'calendar_metrics_source_up',
      help: 'Whether the values of a source (a database query) could be read for this scrape: 1 yes, 0 no (its gauges are NaN or absent).',
      labelNames: ['source'],
    });
  }

  gauge<T extends string>(config: Omit<GaugeConfiguration<T>, 'registers'>): Gauge<T> {
    return new Gauge({ ...config, registers: [this.registry] });
  }

  counter<T extends string>(config: Omit<CounterConfiguration<T>, 'registers'>): Counter<T> {
    return new Counter({ ...config, registers: [this.registry] });
  }

  /** Values read at every scrape, each source within {@link SOURCE_TIMEOUT_MS}. */
  source<T>(source: MetricsSource<T>): void {
    this.sources.push(source as MetricsSource<unknown>);
  }

  /** The text a scraper reads: the sources read side by side first; a source that fails only leaves its own values out. */
  async render(): Promise<{ text: string; contentType: string }> {
    await Promise.all(this.sources.map((source) => this.sample(source)));
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  private async sample(source: MetricsSource<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const values = await Promise.race([
        source.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${SOURCE_TIMEOUT_MS} ms`)), SOURCE_TIMEOUT_MS);
        }),
      ]);
      source.apply(values);
      this.sourceUp.set({ source: source.name }, 1);
      if (this.failing.delete(source.name)) this.logger.log(`Metrics of ${source.name} are read again.`);
    } catch (error) {
      source.apply(null);
      this.sourceUp.set({ source: source.name }, 0);
      // one line when a source starts failing, not one per scrape
      if (!this.failing.has(source.name)) {
        this.failing.add(source.name);
        this.logger.warn(`Metrics of ${source.name} could not be read: ${error instanceof Error ? error.message : String(error)}`);
      }
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Seconds from a stored UTC time (a `Date` from MySQL/MariaDB, `YYYY-MM-DD HH:MM:SS[.mmm]` from SQLite) to `now`; 0 when there is none. */
export function secondsSince(stored: Date | string | null | undefined, now = Date.now()): number {
  if (stored === null || stored === undefined) return 0;
  const at = stored instanceof Date ? stored.getTime() : wallToDate(String(stored).slice(0, 19)).getTime();
  return Number.isNaN(at) ? 0 : Math.max(0, (now - at) / 1000);
}
