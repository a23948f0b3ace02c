/** Step 4 of the dispatcher: finished deliveries and their attempts removed after the log retention. */
import { Injectable, Logger } from '@nestjs/common';
import { WebhookStore } from './webhook-store.js';

@Injectable()
export class WebhookPruning {
  // its lines are the dispatcher's
  private readonly logger = new Logger('WebhookDispatcher');

  constructor(private readonly store: WebhookStore) {}

  /** Removes finished deliveries (and their attempts) older than the log retention. */
  async prune(): Promise<number> {
    const cutoff = this.store.sqlTime(new Date(Date.now() - this.store.settings.logRetentionDays * 86_400_000));
    let removed = 0;
    for (;;) {
      const rows: Array<{ id: string | number }> = await this.store.dataSource.query(
        "SELECT id FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND finished_utc < ? ORDER BY id LIMIT 1000",
        [cutoff],
      );
      if (rows.length === 0) break;
      const ids = rows.map((row) => String(row.id)).join(', ');
      await this.store.transaction(async (manager) => {
        await manager.query(`DELETE FROM webhook_attempts WHERE delivery_id IN (${ids})`);
        await manager.query(`DELETE FROM webhook_deliveries WHERE id IN (${ids})`);
      });
      removed += rows.length;
      if (rows.length < 1000) break;
    }
    await this.store.dataSource.query('DELETE FROM webhook_attempts WHERE attempted_utc < ?', [cutoff]);
    if (removed > 0) this.logger.log(`Removed ${removed} finished webhook deliveries older than the log retention`);
    return removed;
  }
}
