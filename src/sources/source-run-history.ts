import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThanOrEqual } from 'typeorm';
import type { SourcesConfig } from '../config/app-config.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { CalendarSourceRunEntity, type SourceRunCounts } from './calendar-source-run.entity.js';

const NO_COUNTS: SourceRunCounts = { created: 0, updated: 0, unchanged: 0, kept: 0, trashed: 0, refused: 0 };

/** The `error` of a run found `running` by a process that took its source's lease after the lease of the run's own process ran out. */
export const ABANDONED_RUN_ERROR =
  'the server process running it stopped before the end (its lease on the source ran out without renewal); found and closed by another run';

export type SourceRunOutcome = 'completed' | 'not_modified' | 'failed';

/** What the runs of this process did, per source id: plain numbers, read by `/metrics` at a scrape. */
export interface SourceRunTotals {
  runs: Record<SourceRunOutcome, number>;
  created: number;
  updated: number;
  trashed: number;
  refused: number;
}

/**
 * The runs of sources as rows: opened, finished (and counted for `/metrics`), the oldest pruned so
 * that each source keeps its newest `SOURCE_RUNS_KEPT`, and runs left `running` by a process that
 * died closed as failed. Every write here is made by a process holding the source's lease.
 */
@Injectable()
export class SourceRunHistory {
  /** Per source id, since this process started. */
  readonly totals = new Map<number, SourceRunTotals>();
  private readonly logger = new Logger('CalendarSources');
  private readonly runsKept: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.runsKept = config.getOrThrow<SourcesConfig>('sources').runsKept;
  }

  private get runs() {
    return this.dataSource.getRepository(CalendarSourceRunEntity);
  }

  open(sourceId: number, startedBy: string): Promise<CalendarSourceRunEntity> {
    return this.runs.save(
      this.runs.create({
        sourceId,
        startedBy,
        status: 'running',
        httpStatus: null,
        counts: NO_COUNTS,
        problems: [],
        error: null,
        startedUtc: nowUtcWall(),
        finishedUtc: null,
      }),
    );
  }

  /** Stores the run as it ended, counts it, and deletes the source's runs older than the newest `SOURCE_RUNS_KEPT`. */
  async finish(run: CalendarSourceRunEntity): Promise<void> {
    run.finishedUtc = nowUtcWall();
    await this.runs.save(run);
    this.count(run.sourceId, run.status === 'running' ? 'failed' : run.status, run.counts);
    // the run is stored whatever happens here: the next run prunes again
    await this.prune(run.sourceId).catch((error: unknown) =>
      this.logger.warn(`Pruning the runs of source ${run.sourceId} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /**
   * Runs of the source still `running` although the caller holds its lease: the process that started
   * them stopped (a run holds the lease from before its row is opened until after it is finished).
   * Each becomes `failed` with {@link ABANDONED_RUN_ERROR}; returns how many.
   */
  async closeAbandoned(sourceId: number): Promise<number> {
    const result = await this.runs.update(
      { sourceId, status: 'running' },
      { status: 'failed', error: ABANDONED_RUN_ERROR, finishedUtc: nowUtcWall() },
    );
    const closed = result.affected ?? 0;
    for (let index = 0; index < closed; index++) this.count(sourceId, 'failed', NO_COUNTS);
    return closed;
  }

  private async prune(sourceId: number): Promise<void> {
    // the newest run past those kept; it and every older one go (two statements: MySQL cannot delete from a table it reads in a subquery)
    const [oldest] = await this.runs.find({
      select: { id: true },
      where: { sourceId },
      order: { id: 'DESC' },
      skip: this.runsKept,
      take: 1,
    });
    if (oldest) await this.runs.delete({ sourceId, id: LessThanOrEqual(oldest.id) });
  }

  private count(sourceId: number, outcome: SourceRunOutcome, counts: SourceRunCounts): void {
    let totals = this.totals.get(sourceId);
    if (!totals) {
      totals = { runs: { completed: 0, not_modified: 0, failed: 0 }, created: 0, updated: 0, trashed: 0, refused: 0 };
      this.totals.set(sourceId, totals);
    }
    totals.runs[outcome]++;
    totals.created += counts.created;
    totals.updated += counts.updated;
    totals.trashed += counts.trashed;
    totals.refused += counts.refused;
  }
}
