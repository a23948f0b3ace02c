import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { ChangeCommits } from '../changes/change-commits.js';
import { ChangeSequencer } from '../changes/change-sequencer.js';
import { ChangeSnapshots } from '../changes/change-snapshots.js';
import { matchesEventPatterns } from '../changes/domain-event.js';
import type { ChangesConfig, WebhooksConfig } from '../config/app-config.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { dateToWall } from '../common/sql/columns.js';
import { WebhookAttemptEntity } from './webhook-attempt.entity.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { retryDelayMs } from './webhook-schedule.js';
import { sendWebhook, type SendResult } from './webhook-sender.js';
import { newMessageId, signedHeaders } from './webhook-signature.js';
import { WebhookSubscriptionEntity } from './webhook-subscription.entity.js';

/** Changes fanned out per transaction. */
const FAN_OUT_BATCH = 200;
/** Deliveries claimed per pass (sent side by side). */
const CLAIM_BATCH = 10;
/** How often finished deliveries and attempts are pruned at most. */
const MAX_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

interface ChangeRow {
  seq: string | number;
  kind: string;
  record_id: string | number;
  action: string;
  recorded_utc: Date | string;
  snapshot: string | null;
}

const wallOf = (value: Date | string) => (value instanceof Date ? dateToWall(value) : String(value).slice(0, 19));
const isoOf = (wall: string) => `${wall.replace(' ', 'T')}Z`;
/**
 * A moment `ms` from now, to store in a datetime column: with its milliseconds on SQLite; rounded
 * up to the next second on MySQL/MariaDB, whose DATETIME keeps none (never earlier than asked).
 */
function inFuture(ms: number, mysql: boolean): string {
  const at = Date.now() + ms;
  // a Date passes the column's transformer as it is (see wallTimeTransformer)
  return new Date(mysql ? Math.ceil(at / 1000) * 1000 : at) as unknown as string;
}

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
  private readonly settings: WebhooksConfig;
  private readonly pollIntervalMs: number;
  private readonly mysql: boolean;
  private readonly leaseMs: number;
  private readonly pruneIntervalMs: number;
  private running: Promise<void> | null = null;
  private again = false;
  private paused = false;
  private stopped = false;
  private poll: NodeJS.Timeout | null = null;
  private nextDue: NodeJS.Timeout | null = null;
  private nextPruneAt = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sequencer: ChangeSequencer,
    private readonly snapshots: ChangeSnapshots,
    private readonly commits: ChangeCommits,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.settings = config.getOrThrow<WebhooksConfig>('webhooks');
    this.pollIntervalMs = config.getOrThrow<ChangesConfig>('changes').pollIntervalMs;
    this.mysql = dataSource.driver.options.type !== 'better-sqlite3';
    // a claim outlives the longest attempt (connect + answer), with room to record the result
    this.leaseMs = 2 * this.settings.timeoutMs + 5000;
    this.pruneIntervalMs = Math.max(1000, Math.min(MAX_PRUNE_INTERVAL_MS, Math.floor((this.settings.logRetentionDays * 86_400_000) / 10)));
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
    const [state]: Array<{ last_seq: string | number; dispatched_through: string | number }> = await this.dataSource.query(
      'SELECT last_seq, dispatched_through FROM change_sequence WHERE id = 1',
    );
    if (state && BigInt(state.last_seq) > BigInt(state.dispatched_through)) {
      while ((await this.fanOut()) === FAN_OUT_BATCH && !this.stopped);
    }
    const active: unknown[] = await this.dataSource.query('SELECT id FROM webhook_subscriptions WHERE active = 1 LIMIT 1');
    if (active.length > 0) {
      while (!this.stopped && !this.paused && (await this.deliverDue()) > 0);
      await this.scheduleNextDue();
    }
    if (Date.now() >= this.nextPruneAt) {
      this.nextPruneAt = Date.now() + this.pruneIntervalMs;
      await this.prune();
    }
  }

  /**
   * A time as raw SQL compares it with stored ones: TypeORM writes datetimes with milliseconds on
   * SQLite (`2026-11-23 09:30:00.000`), and text comparison needs the same form.
   */
  private sqlTime(date: Date = new Date()): string {
    const wall = dateToWall(date);
    return this.mysql ? wall : `${wall}.${String(date.getUTCMilliseconds()).padStart(3, '0')}`;
  }

  private transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.mysql ? this.dataSource.transaction('READ COMMITTED', work) : this.dataSource.transaction(work);
  }

  /** Turns the next numbered changes into deliveries; returns how many changes it took. */
  private fanOut(): Promise<number> {
    return this.transaction(async (manager) => {
      const [state]: Array<{ dispatched_through: string | number }> = await manager.query(
        `SELECT dispatched_through FROM change_sequence WHERE id = 1${this.mysql ? ' FOR UPDATE' : ''}`,
      );
      const rows: ChangeRow[] = await manager.query(
        'SELECT seq, kind, record_id, action, recorded_utc, snapshot FROM changes WHERE seq > ? ORDER BY seq LIMIT ?',
        [String(state.dispatched_through), FAN_OUT_BATCH],
      );
      if (rows.length === 0) return 0;
      const subscriptions = await manager.find(WebhookSubscriptionEntity, { where: { active: true }, order: { id: 'ASC' } });
      const now = nowUtcWall();
      const deliveries: Array<Partial<WebhookDeliveryEntity>> = [];
      for (const row of rows) {
        const type = `${row.kind}.${row.action}`;
        const targets = subscriptions.filter((subscription) => matchesEventPatterns(subscription.events, type));
        if (targets.length === 0) continue;
        const id = Number(row.record_id);
        // taken in the write's transaction; without one (no subscription then), the record as it is now
        const snapshot = row.snapshot ?? (row.action === 'deleted' ? null : await this.snapshots.render(manager, row.kind, id));
        for (const subscription of targets) {
          const data = snapshot ? this.snapshots.read(snapshot, subscription.edition) : { id };
          deliveries.push({
            subscriptionId: subscription.id,
            messageId: newMessageId(),
            type,
            changeSeq: String(row.seq),
            recordKey: `${row.kind}:${id}`,
            body: JSON.stringify({ type, timestamp: isoOf(wallOf(row.recorded_utc)), data }),
            status: 'pending',
            attempts: 0,
            nextAttemptUtc: now,
            claimedUntilUtc: null,
            createdUtc: now,
            finishedUtc: null,
            lastStatus: null,
            lastError: null,
          });
        }
      }
      for (let start = 0; start < deliveries.length; start += 100) {
        await manager.insert(WebhookDeliveryEntity, deliveries.slice(start, start + 100));
      }
      await manager.query('UPDATE change_sequence SET dispatched_through = ? WHERE id = 1', [String(rows[rows.length - 1].seq)]);
      return rows.length;
    });
  }

  /** Claims due deliveries, sends them side by side and records the results; returns how many it sent. */
  private async deliverDue(): Promise<number> {
    const claimed = await this.claim();
    if (claimed.length === 0) return 0;
    await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
    return claimed.length;
  }

  private claim(): Promise<Array<{ delivery: WebhookDeliveryEntity; subscription: WebhookSubscriptionEntity }>> {
    return this.transaction(async (manager) => {
      const subscriptions = await manager.find(WebhookSubscriptionEntity, { where: { active: true } });
      if (subscriptions.length === 0) return [];
      const now = this.sqlTime();
      const active = subscriptions.map((subscription) => subscription.id).join(', ');
      const candidates: Array<{ id: string | number; subscription_id: number | string; record_key: string | null }> = await manager.query(
        `SELECT id, subscription_id, record_key FROM webhook_deliveries
         WHERE ((status = 'pending' AND next_attempt_utc <= ?) OR (status = 'sending' AND claimed_until_utc <= ?))
           AND subscription_id IN (${active})
         ORDER BY id LIMIT ${CLAIM_BATCH * 3}${this.mysql ? ' FOR UPDATE SKIP LOCKED' : ''}`,
        [now, now],
      );
      if (candidates.length === 0) return [];
      // one delivery per record and subscription at a time, the oldest unfinished one first
      const keys = [...new Set(candidates.map((row) => row.record_key).filter((key): key is string => key !== null))];
      const first = new Map<string, string>();
      if (keys.length > 0) {
        const heads: Array<{ subscription_id: number | string; record_key: string; first_id: string | number }> = await manager.query(
          `SELECT subscription_id, record_key, MIN(id) AS first_id FROM webhook_deliveries
           WHERE status IN ('pending', 'sending') AND subscription_id IN (${active}) AND record_key IN (${keys.map(() => '?').join(', ')})
           GROUP BY subscription_id, record_key`,
          keys,
        );
        for (const head of heads) first.set(`${head.subscription_id}/${head.record_key}`, String(head.first_id));
      }
      const chosen = candidates
        .filter((row) => row.record_key === null || first.get(`${row.subscription_id}/${row.record_key}`) === String(row.id))
        .slice(0, CLAIM_BATCH);
      if (chosen.length === 0) return [];
      const ids = chosen.map((row) => String(row.id));
      await manager.query(
        `UPDATE webhook_deliveries SET status = 'sending', claimed_until_utc = ? WHERE id IN (${ids.map(() => '?').join(', ')})`,
        [this.sqlTime(new Date(Date.now() + this.leaseMs)), ...ids],
      );
      const deliveries = await manager.findBy(WebhookDeliveryEntity, { id: In(ids) });
      const byId = new Map(subscriptions.map((subscription) => [subscription.id, subscription]));
      return deliveries
        .sort((a, b) => Number(a.id) - Number(b.id))
        .map((delivery) => ({ delivery, subscription: byId.get(delivery.subscriptionId) as WebhookSubscriptionEntity }));
    });
  }

  private async attempt({ delivery, subscription }: { delivery: WebhookDeliveryEntity; subscription: WebhookSubscriptionEntity }) {
    const attemptedUtc = nowUtcWall();
    const result = await sendWebhook(
      subscription.url,
      signedHeaders(subscription.secret, delivery.messageId, delivery.body),
      delivery.body,
      {
        allowPrivate: this.settings.allowPrivateTargets,
        timeoutMs: this.settings.timeoutMs,
      },
    );
    try {
      await this.record(delivery, subscription, attemptedUtc, result);
    } catch (error) {
      // the claim runs out and another pass sends it again: at least once
      this.logger.warn(`Recording webhook delivery ${delivery.id} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private record(delivery: WebhookDeliveryEntity, subscription: WebhookSubscriptionEntity, attemptedUtc: string, result: SendResult) {
    return this.transaction(async (manager) => {
      await manager.insert(WebhookAttemptEntity, {
        deliveryId: delivery.id,
        attemptedUtc,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        responseBody: result.responseBody,
        error: result.error === null ? null : result.error.slice(0, 500),
      });
      const attempts = delivery.attempts + 1;
      const now = nowUtcWall();
      const common = { attempts, lastStatus: result.statusCode, claimedUntilUtc: null };
      if (result.error === null) {
        await manager.update(
          WebhookDeliveryEntity,
          { id: delivery.id },
          { ...common, status: 'delivered', finishedUtc: now, lastError: null },
        );
        return;
      }
      const gone = result.statusCode === 410;
      if (gone || attempts >= this.settings.maxAttempts) {
        await manager.update(
          WebhookDeliveryEntity,
          { id: delivery.id },
          { ...common, status: 'failed', finishedUtc: now, lastError: result.error.slice(0, 500) },
        );
        const reason = gone
          ? 'The receiver answered 410 Gone.'
          : `Delivery ${delivery.id} failed ${attempts} times since ${delivery.createdUtc} UTC; the last attempt: ${result.error}`;
        await deactivate(manager, subscription.id, reason.slice(0, 500));
        this.logger.warn(`Webhook subscription ${subscription.id} deactivated: ${reason}`);
        return;
      }
      await manager.update(
        WebhookDeliveryEntity,
        { id: delivery.id },
        {
          ...common,
          status: 'pending',
          nextAttemptUtc: inFuture(retryDelayMs(attempts, this.settings.retryBaseMs), this.mysql),
          lastError: result.error.slice(0, 500),
        },
      );
    });
  }

  /** Wakes when the earliest pending delivery is due, if that is before the next poll. */
  private async scheduleNextDue(): Promise<void> {
    if (this.stopped || this.paused) return;
    const [row]: Array<{ due: Date | string | null }> = await this.dataSource.query(
      "SELECT MIN(next_attempt_utc) AS due FROM webhook_deliveries WHERE status = 'pending'",
    );
    if (!row?.due) return;
    const wait = new Date(isoOf(wallOf(row.due))).getTime() - Date.now();
    if (wait >= this.pollIntervalMs) return;
    if (this.nextDue) clearTimeout(this.nextDue);
    this.nextDue = setTimeout(() => this.wake(), Math.max(0, wait) + 5);
    this.nextDue.unref();
  }

  /** Removes finished deliveries (and their attempts) older than the log retention. */
  async prune(): Promise<number> {
    const cutoff = this.sqlTime(new Date(Date.now() - this.settings.logRetentionDays * 86_400_000));
    let removed = 0;
    for (;;) {
      const rows: Array<{ id: string | number }> = await this.dataSource.query(
        "SELECT id FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND finished_utc < ? ORDER BY id LIMIT 1000",
        [cutoff],
      );
      if (rows.length === 0) break;
      const ids = rows.map((row) => String(row.id)).join(', ');
      await this.transaction(async (manager) => {
        await manager.query(`DELETE FROM webhook_attempts WHERE delivery_id IN (${ids})`);
        await manager.query(`DELETE FROM webhook_deliveries WHERE id IN (${ids})`);
      });
      removed += rows.length;
      if (rows.length < 1000) break;
    }
    await this.dataSource.query('DELETE FROM webhook_attempts WHERE attempted_utc < ?', [cutoff]);
    if (removed > 0) this.logger.log(`Removed ${removed} finished webhook deliveries older than the log retention`);
    return removed;
  }
}

/** Deactivates a subscription with a reason; its unfinished deliveries fail (they are not sent later). */
export async function deactivate(manager: EntityManager, subscriptionId: number, reason: string | null): Promise<void> {
  const now = nowUtcWall();
  await manager.update(
    WebhookSubscriptionEntity,
    { id: subscriptionId },
    { active: false, deactivatedReason: reason, deactivatedUtc: now, modifiedUtc: now },
  );
  await manager
    .createQueryBuilder()
    .update(WebhookDeliveryEntity)
    .set({ status: 'failed', finishedUtc: now, claimedUntilUtc: null, lastError: 'The subscription was deactivated.' })
    .where("subscription_id = :id AND status = 'pending'", { id: subscriptionId })
    .execute();
}
