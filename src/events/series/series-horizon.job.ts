import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { EventsConfig } from '../../config/app-config.js';
import { expandRecurrence, horizonWall } from '../../common/dates/recurrence-expansion.js';
import { readRecurrenceLines } from '../../common/dates/recurrence-lines.js';
import { nowUtcWall } from '../../common/dates/wall-time.js';
import { dateToWall, wallToDate } from '../../common/sql/columns.js';
import { ItemsService } from '../../items/items.service.js';
import { Metrics } from '../../metrics/metrics.js';
import { EventEntity } from '../event.entity.js';
import { EventSeriesEntity } from './event-series.entity.js';
import { SERIES_CAP, SeriesGenerationService, seriesStartOf } from './series-generation.service.js';

/** How often a process looks for series whose occurrences no longer reach the horizon. */
const PASS_INTERVAL_MS = 60 * 60 * 1000;
/** Series extended per pass and process; the next pass takes the rest. */
const SERIES_PER_PASS = 100;

/**
 * Keeps open-ended series generated up to `SERIES_HORIZON_DAYS` ahead as time passes. Every
 * process runs it; each series is extended in a transaction that holds its row (MySQL/MariaDB skip
 * a row another process holds, SQLite writes one at a time) and checks again how far it reaches,
 * so two processes never generate the same occurrence.
 */
@Injectable()
export class SeriesHorizonJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SeriesHorizonJob');
  private readonly horizonDays: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  /** The passes of this process, for `/metrics`. */
  private readonly passes = { lastEnd: 0, lastSuccess: 0, lastSeconds: 0, succeeded: 0, failed: 0, added: 0 };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly generation: SeriesGenerationService,
    private readonly items: ItemsService,
    config: ConfigService,
    metrics: Metrics,
  ) {
    this.horizonDays = config.getOrThrow<EventsConfig>('events').seriesHorizonDays;
    this.defineMetrics(metrics);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.extendDue(new Date()), PASS_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One pass: every series due is extended to the horizon seen from `now`. Returns the occurrences added. */
  extendDue(now: Date): Promise<number> {
    const started = performance.now();
    this.running ??= this.pass(now)
      .then((added) => {
        this.passEnded(started, added);
        return added;
      })
      .catch((error: unknown) => {
        this.passEnded(started, null);
        this.logger.warn(`Extending series failed: ${error instanceof Error ? error.message : String(error)}`);
        return 0;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** `added` null: the pass failed. */
  private passEnded(started: number, added: number | null): void {
    const passes = this.passes;
    passes.lastEnd = Date.now();
    passes.lastSeconds = (performance.now() - started) / 1000;
    if (added === null) passes.failed++;
    else {
      passes.succeeded++;
      passes.added += added;
      passes.lastSuccess = passes.lastEnd;
    }
  }

  private defineMetrics(metrics: Metrics): void {
    const passes = this.passes;
    const gauge = (name: string, help: string, value: () => number) =>
      metrics.gauge({
        name,
        help,
        collect() {
          this.set(value());
        },
      });
    gauge(
      'calendar_series_horizon_last_run_timestamp_seconds',
      'When the last hourly pass extending open-ended series ended (Unix time); 0 before the first, an hour after the start.',
      () => passes.lastEnd / 1000,
    );
    gauge(
      'calendar_series_horizon_last_success_timestamp_seconds',
      'When the last pass extending series succeeded (Unix time); 0 before the first.',
      () => passes.lastSuccess / 1000,
    );
    gauge('calendar_series_horizon_last_duration_seconds', 'How long the last pass extending series took.', () => passes.lastSeconds);
    metrics.counter({
      name: 'calendar_series_horizon_runs_total',
      help: 'Passes extending series in this process, by result (ok, failed).',
      labelNames: ['result'],
      collect() {
        this.reset();
        this.inc({ result: 'ok' }, passes.succeeded);
        this.inc({ result: 'failed' }, passes.failed);
      },
    });
    metrics.counter({
      name: 'calendar_series_horizon_occurrences_added_total',
      help: 'Occurrences the passes of this process generated as the horizon moved on.',
      collect() {
        this.reset();
        this.inc(passes.added);
      },
    });
  }

  private async pass(now: Date): Promise<number> {
    // a day of margin covers the zones: generated_through is a wall time of the series' zone
    const dueBefore = wallToDate(nowUtcWall(new Date(now.getTime() + (this.horizonDays - 1) * 86_400_000)));
    const due = await this.dataSource
      .getRepository(EventSeriesEntity)
      .createQueryBuilder('s')
      .select('s.id', 'id')
      .where('s.complete = :complete AND s.generated_through < :dueBefore', { complete: false, dueBefore })
      .orderBy('s.generated_through', 'ASC')
      .addOrderBy('s.id', 'ASC')
      .limit(SERIES_PER_PASS)
      .getRawMany<{ id: number | string }>();
    let added = 0;
    for (const { id } of due) added += await this.dataSource.transaction((manager) => this.extend(manager, Number(id), now));
    if (added > 0) await this.items.dataChanged();
    return added;
  }

  private async extend(manager: EntityManager, id: number, now: Date): Promise<number> {
    const query = manager.getRepository(EventSeriesEntity).createQueryBuilder('s').where('s.id = :id', { id });
    if (manager.connection.driver.options.type !== 'better-sqlite3') query.setLock('pessimistic_write').setOnLocked('skip_locked');
    const series = await query.getOne();
    if (!series || series.complete) return 0;
    const main = await manager.findOneBy(EventEntity, { id });
    if (!main || main.status === 'trash') return 0;
    const throughWall = horizonWall(main.startUtc, series.timezone, this.horizonDays, now);
    if (throughWall <= series.generatedThrough) return 0;
    const expansion = expandRecurrence(readRecurrenceLines(series.rules, series.timezone), seriesStartOf(main), series.timezone, {
      throughWall,
      cap: SERIES_CAP,
    });
    const known = new Set(
      (
        await manager
          .getRepository(EventEntity)
          .createQueryBuilder('e')
          .select('e.series_original_start', 'start')
          .where('e.series_id = :id', { id })
          .getRawMany<{ start: Date | string | null }>()
      ).map((row) => (row.start instanceof Date ? dateToWall(row.start) : String(row.start).slice(0, 19))),
    );
    const missing = expansion.starts.slice(1).filter((start) => !known.has(start));
    const added = await this.generation.addOccurrences(manager, main, missing);
    await manager.update(
      EventSeriesEntity,
      { id },
      {
        generatedThrough: throughWall,
        generatedCount: known.size + added.length,
        complete: !expansion.continues,
        modifiedUtc: nowUtcWall(now),
      },
    );
    return added.length;
  }
}
