/** Steps 2 and 3 of the dispatcher: due deliveries claimed, sent side by side, and each attempt recorded. */
import { Injectable, Logger } from '@nestjs/common';
import { In } from 'typeorm';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { WebhookAttemptEntity } from './webhook-attempt.entity.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { retryDelayMs } from './webhook-schedule.js';
import { sendWebhook, type SendResult } from './webhook-sender.js';
import { signedHeaders } from './webhook-signature.js';
import { deactivate, inFuture, WebhookStore } from './webhook-store.js';
import { WebhookSubscriptionEntity } from './webhook-subscription.entity.js';

/** What came of an attempt: delivered, to be tried again later, or failed for good (the subscription is deactivated). */
export type AttemptOutcome = 'delivered' | 'retried' | 'failed';

/** Deliveries claimed per pass (sent side by side). */
const CLAIM_BATCH = 10;

@Injectable()
export class WebhookDeliveryWorker {
  // its lines are the dispatcher's
  private readonly logger = new Logger('WebhookDispatcher');
  private readonly leaseMs: number;

  /** Attempts of this process since its start, by what came of them (`/metrics`): delivered, to be retried, failed for good. */
  readonly outcomes: Record<AttemptOutcome, number> = { delivered: 0, retried: 0, failed: 0 };

  constructor(private readonly store: WebhookStore) {
    // a claim outlives the longest attempt (connect + answer), with room to record the result
    this.leaseMs = 2 * store.settings.timeoutMs + 5000;
  }

  /** Claims due deliveries, sends them side by side and records the results; returns how many it sent. */
  async deliverDue(): Promise<number> {
    const claimed = await this.claim();
    if (claimed.length === 0) return 0;
    await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
    return claimed.length;
  }

  private claim(): Promise<Array<{ delivery: WebhookDeliveryEntity; subscription: WebhookSubscriptionEntity }>> {
    return this.store.transaction(async (manager) => {
      const subscriptions = await manager.find(WebhookSubscriptionEntity, { where: { active: true } });
      if (subscriptions.length === 0) return [];
      const now = this.store.sqlTime();
      const active = subscriptions.map((subscription) => subscription.id).join(', ');
      const candidates: Array<{ id: string | number; subscription_id: number | string; record_key: string | null }> = await manager.query(
        `SELECT id, subscription_id, record_key FROM webhook_deliveries
         WHERE ((status = 'pending' AND next_attempt_utc <= ?) OR (status = 'sending' AND claimed_until_utc <= ?))
           AND subscription_id IN (${active})
         ORDER BY id LIMIT ${CLAIM_BATCH * 3}${this.store.mysql ? ' FOR UPDATE SKIP LOCKED' : ''}`,
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
        [this.store.sqlTime(new Date(Date.now() + this.leaseMs)), ...ids],
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
        outbound: this.store.outbound,
        timeoutMs: this.store.settings.timeoutMs,
      },
    );
    try {
      this.outcomes[await this.record(delivery, subscription, attemptedUtc, result)]++;
    } catch (error) {
      // the claim runs out and another pass sends it again: at least once
      this.logger.warn(`Recording webhook delivery ${delivery.id} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private record(
    delivery: WebhookDeliveryEntity,
    subscription: WebhookSubscriptionEntity,
    attemptedUtc: string,
    result: SendResult,
  ): Promise<AttemptOutcome> {
    return this.store.transaction(async (manager): Promise<AttemptOutcome> => {
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
        return 'delivered';
      }
      const gone = result.statusCode === 410;
      if (gone || attempts >= this.store.settings.maxAttempts) {
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
        return 'failed';
      }
      await manager.update(
        WebhookDeliveryEntity,
        { id: delivery.id },
        {
          ...common,
          status: 'pending',
          nextAttemptUtc: inFuture(retryDelayMs(attempts, this.store.settings.retryBaseMs), this.store.mysql),
          lastError: result.error.slice(0, 500),
        },
      );
      return 'retried';
    });
  }
}
