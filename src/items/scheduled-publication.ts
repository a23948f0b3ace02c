import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { EventsConfig } from '../config/app-config.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { dateToWall, wallToDate } from '../common/sql/columns.js';
import { DataVersionService } from '../cache/data-version.service.js';
import { recordingChanges } from '../changes/change-recording.js';
import { retryOnConflict } from '../common/errors/db-errors.js';
import { forUpdate } from '../common/sql/for-update.js';
import { idChunks } from '../common/sql/id-chunks.js';
import { onPrimary } from '../common/sql/read-routing.js';
import { ITEM_EVENTS, type ItemEvents } from './item-events.js';

/**
 * The earliest publication time of a scheduled item, in one statement: the `(status, date_utc)`
 * index of each table answers its part at once.
 */
export const NEXT_SCHEDULED_SQL =
  "SELECT (SELECT MIN(date_utc) FROM events WHERE status = 'future') AS events, " +
  "(SELECT MIN(date_utc) FROM venues WHERE status = 'future') AS venues, " +
  "(SELECT MIN(date_utc) FROM organizers WHERE status = 'future') AS organizers";

/** Timers are not armed further ahead than this; the periodic look re-arms them. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function instantOf(value: Date | string | null | undefined): number {
  if (value === null || value === undefined) return Infinity;
  return wallToDate(value instanceof Date ? dateToWall(value) : String(value).slice(0, 19)).getTime();
}

/**
 * Publishes scheduled items (`future`) when their publication time comes (spec §5.3), whether or not
 * anybody reads: the publication is a write of its own, recorded in the change log, so the change
 * feed and webhooks report it. Every server process runs it:
 *
 * - it knows the earliest publication time ({@link NEXT_SCHEDULED_SQL}), looked up at start, after
 *   each write of this process that may have scheduled a row (`ItemsService.dataChanged`), and every
 *   `SCHEDULED_CHECK_INTERVAL_MS` (for other processes' writes);
 * - a timer wakes it at that time, and it publishes what is due in transactions that lock the due rows
 *   (`FOR UPDATE` on MySQL/MariaDB; SQLite writes one at a time) and publish only rows still
 *   `future`: two processes never publish an item twice, the second finds nothing left;
 * - reads call {@link beforeRead}: they send no statement unless the known time has passed and the
 *   timer has not published yet, and then wait for the publication, so a read after the instant
 *   never shows the item scheduled.
 */
@Injectable()
export class ScheduledPublication implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ScheduledPublication');
  private readonly intervalMs: number;
  /** The earliest publication time known (ms), `Infinity` when nothing is scheduled; 0 before the first look. */
  private nextDueMs = 0;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  /** A look started after this process's latest write. */
  private afterWrite: Promise<void> | null = null;
  private poll: NodeJS.Timeout | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly version: DataVersionService,
    @Inject(ITEM_EVENTS) private readonly events: ItemEvents,
    config: ConfigService,
  ) {
    this.intervalMs = config.getOrThrow<EventsConfig>('events').scheduledCheckIntervalMs;
  }

  onApplicationBootstrap(): void {
    this.poll = setInterval(() => void this.wake(), this.intervalMs);
    this.poll.unref();
    void this.wake();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    if (this.timer) clearTimeout(this.timer);
    for (let pass = this.running ?? this.queued; pass; pass = this.running ?? this.queued) await pass;
  }

  /** Before a read: what is due is published first (a statement only when something is due). */
  async beforeRead(): Promise<void> {
    if (this.afterWrite) await this.afterWrite;
    if (Date.now() >= this.nextDueMs) await this.wake();
  }

  /** After a committed write of this process: it may have scheduled an item earlier than the one known. */
  written(): void {
    this.afterWrite = this.wake();
  }

  /** Runs a pass now, or right after the one under way; resolves when a pass started after the call has ended. */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (!this.running) {
      this.running = this.pass()
        .catch((error: unknown) =>
          this.logger.warn(`Publishing scheduled items failed: ${error instanceof Error ? error.message : String(error)}`),
        )
        .finally(() => {
          this.running = null;
        });
      return this.running;
    }
    this.queued ??= this.running.then(() => {
      this.queued = null;
      return this.wake();
    });
    return this.queued;
  }

  /** One look at the next publication time; when it has come, the due items are published and it is looked up again. */
  private async pass(): Promise<void> {
    // on the primary, even where reads go to replicas: a lagging replica would hide due items
    await onPrimary(async () => {
      let next = await this.nextScheduled();
      if (next <= Date.now()) {
        await this.publishDue();
        next = await this.nextScheduled();
        // still due after publishing (a row another transaction holds): the periodic look tries again
        if (next <= Date.now()) next = Date.now() + this.intervalMs;
      }
      this.nextDueMs = next;
    });
    this.arm();
  }

  /** The timer, at the next publication time when that comes before the next periodic look. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const wait = this.nextDueMs - Date.now();
    if (this.stopped || !Number.isFinite(wait) || wait > Math.min(this.intervalMs, MAX_TIMER_MS)) return;
    // the column keeps whole seconds: the item is due from that second on
    this.timer = setTimeout(() => void this.wake(), Math.max(0, wait) + 5);
    this.timer.unref();
  }

  private async nextScheduled(): Promise<number> {
    const [row]: Array<Record<'events' | 'venues' | 'organizers', Date | string | null>> = await this.dataSource.query(NEXT_SCHEDULED_SQL);
    return row ? Math.min(instantOf(row.events), instantOf(row.venues), instantOf(row.organizers)) : Infinity;
  }

  private async publishDue(): Promise<void> {
    const due = wallToDate(nowUtcWall(new Date()));
    let published = await this.events.publishDue(due);
    for (const kind of ['venue', 'organizer'] as const) published += await this.publishDueOf(kind, due);
    if (published > 0) await this.version.bump();
  }

  /** Due venues or organizers: a plain look first, then one transaction that publishes and logs them. */
  private async publishDueOf(kind: 'venue' | 'organizer', due: Date): Promise<number> {
    const table = `${kind}s`;
    const dueIds = (manager: EntityManager) =>
      manager.createQueryBuilder().select('t.id', 'id').from(table, 't').where("t.status = 'future' AND t.date_utc <= :due", { due });
    if (!(await dueIds(this.dataSource.manager).limit(1).getRawOne())) return 0;
    return retryOnConflict(() =>
      this.dataSource.transaction(async (manager) => {
        const ids = (await forUpdate(dueIds(manager)).getRawMany<{ id: number | string }>()).map((row) => Number(row.id));
        if (ids.length === 0) return 0;
        // `published` is a type of events only (docs/API.md, webhooks): a venue or organizer going live is updated
        await recordingChanges(manager, kind, ids, async () => {
          for (const chunk of idChunks(ids))
            await manager.query(`UPDATE ${table} SET status = 'publish' WHERE id IN (${chunk.join(', ')})`);
        });
        return ids.length;
      }),
    );
  }
}
