/** The webhook dispatcher's lifecycle: when a pass runs (commits, polls, due retries), pausing, settling; the steps are its collaborators'. */
import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ChangeCommits } from '../changes/change-commits.js';
import { ChangeSequencer } from '../changes/change-sequencer.js';
import type { ChangesConfig } from '../config/app-config.js';
import { WebhookDeliveryWorker } from './webhook-delivery-worker.js';
import { FAN_OUT_BATCH, WebhookFanOut } from './webhook-fan-out.js';
import { WebhookPruning } from './webhook-pruning.js';
import { isoOf, wallOf, WebhookStore } from './webhook-store.js';

/** How often finished deliveries and attempts are pruned at most. */
const MAX_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs in every server process. The change log is the outbox: each change was written in the
 * transaction of the write it describes. The dispatcher
 *
 * 1. **fans out** numbered changes to deliveries, one per matching active subscription, from the
 *    position kept in `change_sequence.dispatched_through` (one process at a time: the row is locked),
 *    so each change fans out once and retention never removes a change before it did;
 * 2. **claims** due deliveries (`FOR UPDATE SKIP LOCKED` on MySQL/MariaDB, so processes share the
 *    work without taking the same one; on SQLite a claim is a write and writers take turns), never a
 *    delivery while an earlier one of the same record to the same subscription is unfinished (order
 *    per record); a claim is a lease, so a delivery whose process died is taken over when it ends;
 * 3. **sends** each, signed, and logs the attempt: delivered, retried later with backoff, or failed
 *    (after the last attempt, or at once on `410 Gone`), which deactivates the subscription;
 * 4. **prunes** finished deliveries and attempts older than `WEBHOOK_LOG_RETENTION_DAYS`.
 *
 * It wakes after every commit of this process that recorded changes, at its poll interval, and when
 * the next retry is due.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WebhookDispatcher');
  private readonly pollIntervalMs: number;
  private readonly pruneIntervalMs: number;
  private running: Promise<void> | null = null;
  private again = false;
  private paused = false;
  private stopped = false;
  private poll: NodeJS.Timeout | null = null;
  private nextDue: NodeJS.Timeout | null = null;
  private nextPruneAt = 0;

  constructor(
    private readonly store: WebhookStore,
    private readonly sequencer: ChangeSequencer,
    private readonly commits: ChangeCommits,
    private readonly fanOut: WebhookFanOut,
    private readonly deliveries: WebhookDeliveryWorker,
    private readonly pruning: WebhookPruning,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.pollIntervalMs = config.getOrThrow<ChangesConfig>('changes').pollIntervalMs;
    this.pruneIntervalMs = Math.max(1000, Math.min(MAX_PRUNE_INTERVAL_MS, Math.floor((store.settings.logRetentionDays * 86_400_000) / 10)));
  }

  onApplicationBootstrap(): void {
    this.commits.onCommit(() => this.wake());
    this.poll = setInterval(() => this.wake(), this.pollIntervalMs);
    this.poll.unref();
    this.wake();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    if (this.nextDue) clearTimeout(this.nextDue);
    await this.idle();
  }

  /** Stops sending until {@link resume} (sends under way finish). For tests and maintenance. */
  async pause(): Promise<void> {
    this.paused = true;
    await this.idle();
  }

  resume(): void {
    this.paused = false;
    this.wake();
  }

  /** Starts a pass now (or right after the one under way). */
  wake(): void {
    if (this.stopped || this.paused) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error: unknown) => this.logger.warn(`Webhook dispatch failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves when a pass started after the call has ended. */
  async settle(): Promise<void> {
    await this.idle();
    this.wake();
    await this.idle();
  }

  /** Resolves when no pass is under way (passes started meanwhile included). */
  private async idle(): Promise<void> {
    for (let pass = this.running; pass; pass = this.running) await pass;
  }

  /** An idle pass (nothing new, no active subscription) costs three small reads and no transaction. */
  private async pass(): Promise<void> {
    await this.sequencer.sequence();
    const [state]: Array<{ last_seq: string | number; dispatched_through: string | number }> = await this.store.dataSource.query(
      'SELECT last_seq, dispatched_through FROM change_sequence WHERE id = 1',
    );
    const active: unknown[] = await this.store.dataSource.query('SELECT id FROM webhook_subscriptions WHERE active = 1 LIMIT 1');
    if (state && BigInt(state.last_seq) > BigInt(state.dispatched_through)) {
      // with no active subscription there is nobody to deliver to: the changes are passed in one statement
      if (active.length === 0) await this.fanOut.passOver(String(state.last_seq));
      else while ((await this.fanOut.fanOut()) === FAN_OUT_BATCH && !this.stopped);
    }
    if (active.length > 0) {
      while (!this.stopped && !this.paused && (await this.deliveries.deliverDue()) > 0);
      await this.scheduleNextDue();
    }
    if (Date.now() >= this.nextPruneAt) {
      this.nextPruneAt = Date.now() + this.pruneIntervalMs;
      await this.prune();
    }
  }

  /** Wakes when the earliest pending delivery is due, if that is before the next poll. */
  private async scheduleNextDue(): Promise<void> {
    if (this.stopped || this.paused) return;
    const [row]: Array<{ due: Date | string | null }> = await this.store.dataSource.query(
      "SELECT MIN(next_attempt_utc) AS due FROM webhook_deliveries WHERE status = 'pending'",
    );
    if (!row?.due) return;
    const wait = new Date(isoOf(wallOf(row.due))).getTime() - Date.now();
    if (wait >= this.pollIntervalMs) return;
    if (this.nextDue) clearTimeout(this.nextDue);
    this.nextDue = setTimeout(() => this.wake(), Math.max(0, wait) + 5);
    this.nextDue.unref();
  }

  /** Prunes the delivery log now ({@link WebhookPruning.prune}); answers how many deliveries went. */
  prune(): Promise<number> {
    return this.pruning.prune();
  }
}
