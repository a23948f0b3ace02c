import { Injectable } from '@nestjs/common';
import { onPrimary } from '../common/sql/read-routing.js';
import { Metrics, secondsSince } from '../metrics/metrics.js';
import { WebhookDeliveryWorker } from './webhook-delivery-worker.js';
import { WebhookStore } from './webhook-store.js';

const STATUSES = ['pending', 'sending', 'failed'] as const;

interface WebhookState {
  deliveries: Record<(typeof STATUSES)[number], number>;
  oldestUndelivered: Date | string | null;
  active: number;
  inactive: number;
}

/**
 * Webhooks in `/metrics`: the backlog and the failed deliveries in the delivery log (read from the
 * primary at each scrape: every process sees the same numbers), the subscriptions, and what came of
 * this process's own attempts.
 */
@Injectable()
export class WebhookMetrics {
  constructor(
    metrics: Metrics,
    private readonly store: WebhookStore,
    worker: WebhookDeliveryWorker,
  ) {
    const deliveries = metrics.gauge({
      name: 'calendar_webhook_deliveries',
      help: 'Deliveries in the log by status: pending (waiting for an attempt) and sending (claimed by a process) are the backlog; failed were given up and stay for WEBHOOK_LOG_RETENTION_DAYS.',
      labelNames: ['status'],
    });
    const oldest = metrics.gauge({
      name: 'calendar_webhook_oldest_undelivered_seconds',
      help: 'Age of the oldest delivery not delivered yet (pending or sending); 0 when there is none.',
    });
    const subscriptions = metrics.gauge({
      name: 'calendar_webhook_subscriptions',
      help: 'Webhook subscriptions by state: active, or inactive (deactivated by an administrator or after failed deliveries).',
      labelNames: ['state'],
    });
    const outcomes = worker.outcomes;
    metrics.counter({
      name: 'calendar_webhook_attempts_total',
      help: 'Delivery attempts of this process by outcome: delivered, retried (failed, tried again later), failed (the last attempt failed or the receiver answered 410: the subscription was deactivated).',
      labelNames: ['outcome'],
      collect() {
        this.reset();
        for (const [outcome, count] of Object.entries(outcomes)) this.inc({ outcome }, count);
      },
    });
    metrics.source<WebhookState>({
      name: 'webhooks',
      read: () => onPrimary(() => this.read()),
      apply: (state) => {
        deliveries.reset();
        subscriptions.reset();
        if (state === null) {
          oldest.set(Number.NaN);
          return;
        }
        for (const status of STATUSES) deliveries.set({ status }, state.deliveries[status]);
        oldest.set(secondsSince(state.oldestUndelivered));
        subscriptions.set({ state: 'active' }, state.active);
        subscriptions.set({ state: 'inactive' }, state.inactive);
      },
    });
  }

  private async read(): Promise<WebhookState> {
    const query = this.store.dataSource.query.bind(this.store.dataSource);
    // the status index counts only the unfinished and failed deliveries, never the delivered ones
    const rows: Array<{ status: string; count: string | number; oldest: Date | string | null }> = await query(
      "SELECT status, COUNT(*) AS count, MIN(created_utc) AS oldest FROM webhook_deliveries WHERE status IN ('pending', 'sending', 'failed') GROUP BY status",
    );
    const subscriptions: Array<{ active: unknown; count: string | number }> = await query(
      'SELECT active, COUNT(*) AS count FROM webhook_subscriptions GROUP BY active',
    );
    const state: WebhookState = { deliveries: { pending: 0, sending: 0, failed: 0 }, oldestUndelivered: null, active: 0, inactive: 0 };
    for (const row of rows) {
      if (!(STATUSES as readonly string[]).includes(row.status)) continue;
      state.deliveries[row.status as (typeof STATUSES)[number]] = Number(row.count);
      if (row.status === 'failed' || row.oldest === null) continue;
      if (state.oldestUndelivered === null || secondsSince(row.oldest) > secondsSince(state.oldestUndelivered))
        state.oldestUndelivered = row.oldest;
    }
    for (const row of subscriptions) {
      const active = row.active === true || Number(row.active) === 1;
      state[active ? 'active' : 'inactive'] += Number(row.count);
    }
    return state;
  }
}
