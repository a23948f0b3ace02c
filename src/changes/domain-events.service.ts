import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ChangesConfig } from '../config/app-config.js';
import { dateToWall } from '../common/sql/columns.js';
import { ChangeCommits } from './change-commits.js';
import type { ChangeAction, ChangeKind } from './change-recording.js';
import { ChangeSequencer } from './change-sequencer.js';
import { isEventPattern, matchesEventPatterns, type DomainEvent, type DomainEventHandler } from './domain-event.js';

const BATCH = 500;

interface Subscription {
  patterns: readonly string[];
  handler: DomainEventHandler;
  name: string;
}

interface LogRow {
  seq: string | number;
  kind: ChangeKind;
  record_id: string | number;
  action: ChangeAction;
  status_before: string | null;
  status_after: string | null;
  recorded_utc: Date | string;
}

/**
 * The domain events of this process: `subscribe('event.*', handler)`. Each process reads the change
 * log in commit order from where it stood at start-up, so subscribers hear of every change committed
 * by any process while it runs (this process's own writes at once, the others' within
 * `CHANGES_POLL_INTERVAL_MS`), once, in commit order, and never of a write that rolled back: the log
 * holds a change exactly when its transaction committed.
 *
 * Handlers run detached from the write and from each other: the write has committed and answered
 * before they run, a handler that throws or rejects is logged, and a slow one delays no write and
 * no other handler. Changes committed while no process runs are not replayed to handlers; modules
 * that must not miss one follow the change feed or a webhook instead.
 */
@Injectable()
export class DomainEvents implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DomainEvents');
  private readonly subscriptions: Subscription[] = [];
  private readonly pollIntervalMs: number;
  private position: bigint | null = null;
  private starting: Promise<void> | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sequencer: ChangeSequencer,
    private readonly commits: ChangeCommits,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.pollIntervalMs = config.getOrThrow<ChangesConfig>('changes').pollIntervalMs;
  }

  /**
   * Calls `handler` for every committed change whose type (`event.created`, …) matches one of
   * `patterns` (exact types, `<kind>.*`, `*`). Returns the function that ends the subscription.
   */
  subscribe(patterns: string | readonly string[], handler: DomainEventHandler, name: string = handler.name || 'handler'): () => void {
    const list = typeof patterns === 'string' ? [patterns] : [...patterns];
    const bad = list.filter((pattern) => !isEventPattern(pattern));
    if (list.length === 0 || bad.length > 0) throw new Error(`Not a domain event type or pattern: ${bad.join(', ') || '(none)'}`);
    const subscription: Subscription = { patterns: list, handler, name };
    this.subscriptions.push(subscription);
    if (this.timer && this.position === null) void this.start();
    return () => {
      const index = this.subscriptions.indexOf(subscription);
      if (index >= 0) this.subscriptions.splice(index, 1);
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    this.commits.onCommit(() => this.wake());
    this.timer = setInterval(() => this.wake(), this.pollIntervalMs);
    this.timer.unref();
    if (this.subscriptions.length > 0) await this.start();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  /** Resolves once every change committed before the call has been handed to the handlers. */
  async settle(): Promise<void> {
    if (this.starting) await this.starting;
    await this.idle();
    if (this.position === null || this.stopped) return;
    this.wake();
    await this.idle();
  }

  /** Resolves when no pass is under way (passes started meanwhile included). */
  private async idle(): Promise<void> {
    for (let pass = this.running; pass; pass = this.running) await pass;
  }

  private start(): Promise<void> {
    this.starting ??= (async () => {
      await this.sequencer.sequence();
      this.position = (await this.sequencer.state()).lastSeq;
    })().catch((error: unknown) => {
      this.starting = null;
      this.logger.warn(`Could not find the end of the change log: ${error instanceof Error ? error.message : String(error)}`);
    });
    return this.starting;
  }

  private wake(): void {
    if (this.stopped || this.subscriptions.length === 0) return;
    if (this.position === null) {
      void this.start();
      return;
    }
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) =>
        this.logger.warn(`Reading the change log failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async drain(): Promise<void> {
    await this.sequencer.sequence();
    for (;;) {
      const rows: LogRow[] = await this.dataSource.query(
        'SELECT seq, kind, record_id, action, status_before, status_after, recorded_utc FROM changes WHERE seq > ? ORDER BY seq LIMIT ?',
        [String(this.position), BATCH],
      );
      for (const row of rows) {
        this.position = BigInt(row.seq);
        this.emit({
          type: `${row.kind}.${row.action}`,
          kind: row.kind,
          action: row.action,
          id: Number(row.record_id),
          seq: String(row.seq),
          occurredUtc: row.recorded_utc instanceof Date ? dateToWall(row.recorded_utc) : String(row.recorded_utc).slice(0, 19),
          statusBefore: row.status_before,
          statusAfter: row.status_after,
        });
      }
      if (rows.length < BATCH || this.stopped) return;
    }
  }

  private emit(event: DomainEvent): void {
    for (const subscription of this.subscriptions) {
      if (!matchesEventPatterns(subscription.patterns, event.type)) continue;
      setImmediate(() => {
        const failed = (error: unknown) =>
          this.logger.warn(
            `Domain event handler ${subscription.name} failed on ${event.type} ${event.id}: ${error instanceof Error ? error.message : String(error)}`,
          );
        try {
          const result = subscription.handler(event);
          if (result instanceof Promise) result.catch(failed);
        } catch (error) {
          failed(error);
        }
      });
    }
  }
}
