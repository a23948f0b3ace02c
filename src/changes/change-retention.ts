import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { nowUtcWall } from '../common/dates/wall-time.js';
import type { ChangesConfig } from '../config/app-config.js';
import { ChangeSequencer } from './change-sequencer.js';

/** How often a process removes expired changes at most (less often for long retention). */
const MAX_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Keeps the change log bounded: changes older than `CHANGES_RETENTION_DAYS` are removed by every
 * process on a timer and before a feed read once they are due, so the log never outgrows the
 * retention window however quiet or busy the service is.
 */
@Injectable()
export class ChangeRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ChangeRetention');
  private readonly retentionMs: number;
  private readonly intervalMs: number;
  private nextAt = 0;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly sequencer: ChangeSequencer,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.retentionMs = config.getOrThrow<ChangesConfig>('changes').retentionDays * 86_400_000;
    this.intervalMs = Math.max(1000, Math.min(MAX_PRUNE_INTERVAL_MS, Math.floor(this.retentionMs / 10)));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.pruneNow(), this.intervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Prunes when the interval has passed since the last pass of this process; joins a pass under way. */
  pruneWhenDue(): Promise<void> {
    if (this.running) return this.running;
    if (Date.now() < this.nextAt) return Promise.resolve();
    return this.pruneNow();
  }

  private pruneNow(): Promise<void> {
    if (this.running) return this.running;
    this.nextAt = Date.now() + this.intervalMs;
    this.running = this.prune()
      .catch((error: unknown) => {
        this.nextAt = 0;
        this.logger.warn(`Removing expired changes failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async prune(): Promise<void> {
    await this.sequencer.sequence();
    const removed = await this.sequencer.prune(nowUtcWall(new Date(Date.now() - this.retentionMs)));
    if (removed > 0) this.logger.log(`Removed ${removed} changes older than the retention window`);
  }
}
