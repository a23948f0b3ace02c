import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { wallToDate } from '../common/sql/columns.js';
import { onPrimary } from '../common/sql/read-routing.js';
import { CalendarSourceEntity } from './calendar-source.entity.js';
import { SourceRunner } from './source-runner.js';

/** How often a process looks for sources that are due. */
export const SOURCES_CHECK_INTERVAL_MS = 15_000;
/** Sources looked at per look; the next look takes the rest. */
const DUE_PER_PASS = 20;

/**
 * Runs the sources that are due, in every server process: each looks every
 * {@link SOURCES_CHECK_INTERVAL_MS} (and at once when a source is added or run by hand here) and
 * runs the due sources one after the other. The runner's lease decides who runs a source when two
 * processes look at once: the other one skips it. Each look first closes the runs that processes
 * which stopped left `running`.
 */
@Injectable()
export class SourceScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('CalendarSources');
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly runner: SourceRunner,
  ) {}

  onApplicationBootstrap(): void {
    this.runner.onWake = () => void this.wake();
    this.timer = setInterval(() => void this.wake(), SOURCES_CHECK_INTERVAL_MS);
    this.timer.unref();
    void this.wake();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.pass;
  }

  /** A look now, or right after the one under way. */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.pass) {
      this.again = true;
      return this.pass;
    }
    this.pass = this.runDue()
      .catch((error: unknown) => this.logger.warn(`Running due sources failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.pass = null;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.wake();
        }
      });
    return this.pass;
  }

  private async runDue(): Promise<void> {
    await this.runner.closeAbandonedRuns();
    const now = wallToDate(nowUtcWall());
    const due = await onPrimary(() =>
      this.dataSource
        .getRepository(CalendarSourceEntity)
        .createQueryBuilder('s')
        .select('s.id', 'id')
        .where('s.paused = 0 AND s.next_run_utc <= :now', { now })
        .andWhere('(s.lease_until_utc IS NULL OR s.lease_until_utc < :now)', { now })
        .orderBy('s.next_run_utc', 'ASC')
        .addOrderBy('s.id', 'ASC')
        .limit(DUE_PER_PASS)
        .getRawMany<{ id: number | string }>(),
    );
    for (const { id } of due) {
      if (this.stopped) return;
      await this.runner.runNow(Number(id), 'schedule');
    }
  }
}
