/** Step 1 of the dispatcher: numbered changes turned into deliveries, one per matching active subscription. */
import { Injectable } from '@nestjs/common';
import { ChangeSnapshots } from '../changes/change-snapshots.js';
import { matchesEventPatterns } from '../changes/domain-event.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { isoOf, pendingDelivery, wallOf, WebhookStore } from './webhook-store.js';
import { WebhookSubscriptionEntity } from './webhook-subscription.entity.js';

/** Changes fanned out per transaction. */
export const FAN_OUT_BATCH = 200;

interface ChangeRow {
  seq: string | number;
  kind: string;
  record_id: string | number;
  action: string;
  recorded_utc: Date | string;
  snapshot: string | null;
  languages: string | null;
}

@Injectable()
export class WebhookFanOut {
  constructor(
    private readonly store: WebhookStore,
    private readonly snapshots: ChangeSnapshots,
  ) {}

  /**
   * Marks the changes through `seq` as fanned out without reading them, while no subscription is
   * active (a subscription gets the changes numbered after it became active). Never moves the mark back.
   */
  async passOver(seq: string): Promise<void> {
    await this.store.dataSource.query('UPDATE change_sequence SET dispatched_through = ? WHERE id = 1 AND dispatched_through < ?', [
      seq,
      seq,
    ]);
  }

  /** Turns the next numbered changes into deliveries; returns how many changes it took. */
  fanOut(): Promise<number> {
    return this.store.transaction(async (manager) => {
      const [state]: Array<{ dispatched_through: string | number }> = await manager.query(
        `SELECT dispatched_through FROM change_sequence WHERE id = 1${this.store.mysql ? ' FOR UPDATE' : ''}`,
      );
      const rows: ChangeRow[] = await manager.query(
        'SELECT seq, kind, record_id, action, recorded_utc, snapshot, languages FROM changes WHERE seq > ? ORDER BY seq LIMIT ?',
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
          const languages = row.languages ? { languages: row.languages.split(',') } : {};
          const body = JSON.stringify({ type, timestamp: isoOf(wallOf(row.recorded_utc)), data, ...languages });
          deliveries.push(
            pendingDelivery(
              { subscriptionId: subscription.id, type, changeSeq: String(row.seq), recordKey: `${row.kind}:${id}`, body },
              now,
            ),
          );
        }
      }
      for (let start = 0; start < deliveries.length; start += 100) {
        await manager.insert(WebhookDeliveryEntity, deliveries.slice(start, start + 100));
      }
      await manager.query('UPDATE change_sequence SET dispatched_through = ? WHERE id = 1', [String(rows[rows.length - 1].seq)]);
      return rows.length;
    });
  }
}
