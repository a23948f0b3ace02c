import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { OutboundConfig } from '../config/app-config.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { wallToDate } from '../common/sql/columns.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { AuthUser } from '../common/http/request-context.js';
import { UserEntity } from '../users/user.entity.js';
import { CalendarSourceRunEntity, type SourceRunCounts } from './calendar-source-run.entity.js';
import { CalendarSourceEntity } from './calendar-source.entity.js';
import { FeedRefused, readFeed } from './feed-calendar.js';
import { fetchFeed, FeedUnavailable } from './feed-fetch.js';
import { SourceSync } from './source-sync.js';
import { runView } from './source-views.js';
import type { SourceRunResponse } from './source.response.js';

/** How long a lease holds without being renewed: a process that died leaves its source to others after this. */
export const LEASE_MS = 5 * 60_000;
const RENEW_MS = 60_000;
const NO_COUNTS: SourceRunCounts = { created: 0, updated: 0, unchanged: 0, kept: 0, trashed: 0, refused: 0 };

const wallIn = (ms: number) => nowUtcWall(new Date(Date.now() + ms));

/**
 * Runs sources: one run of a source at a time across every process, by a lease on its row taken
 * with a conditional UPDATE (the row is taken only when nobody holds it, or its holder let it lapse),
 * renewed while the run lasts and given back at its end with the time of the next run.
 */
@Injectable()
export class SourceRunner implements OnApplicationShutdown {
  private readonly logger = new Logger('CalendarSources');
  private readonly outbound: OutboundConfig;
  private readonly running = new Set<Promise<unknown>>();
  /** Set by the scheduler: a new source or a manual run wakes it. */
  onWake: (() => void) | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sync: SourceSync,
    config: ConfigService,
  ) {
    this.outbound = config.getOrThrow<OutboundConfig>('outbound');
  }

  wake(): void {
    this.onWake?.();
  }

  /** A manual run: started now (409 while another runs it), carried on in the background; answers the run as started. */
  async start(source: CalendarSourceEntity, startedBy: 'manual' | 'schedule'): Promise<SourceRunResponse> {
    const token = await this.lease(source.id);
    if (!token) throw new ApiError(409, ErrorCode.SourceRunning, { id: source.id });
    const run = await this.openRun(source.id, startedBy);
    const work = this.execute(source.id, run, token).finally(() => this.running.delete(work));
    this.running.add(work);
    return runView(run);
  }

  /** A run in this process, awaited (the scheduler's and the command line's); null when another process holds the source. */
  async runNow(sourceId: number, startedBy: 'manual' | 'schedule'): Promise<SourceRunResponse | null> {
    const token = await this.lease(sourceId);
    if (!token) return null;
    const run = await this.openRun(sourceId, startedBy);
    return runView(await this.execute(sourceId, run, token));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /** Takes the source's lease when nobody holds it; returns the token, or null. */
  private async lease(sourceId: number): Promise<string | null> {
    const token = randomBytes(16).toString('hex');
    const result = await this.dataSource
      .createQueryBuilder()
      .update(CalendarSourceEntity)
      .set({ leaseToken: token, leaseUntilUtc: wallIn(LEASE_MS) })
      .where('id = :id AND (lease_until_utc IS NULL OR lease_until_utc < :now)', { id: sourceId, now: wallToDate(nowUtcWall()) })
      .execute();
    return result.affected === 1 ? token : null;
  }

  private async openRun(sourceId: number, startedBy: string): Promise<CalendarSourceRunEntity> {
    const runs = this.dataSource.getRepository(CalendarSourceRunEntity);
    return runs.save(
      runs.create({
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

  /** The run itself: fetch, read, sync; the run row finished and the lease given back whatever happens. */
  private async execute(sourceId: number, run: CalendarSourceRunEntity, token: string): Promise<CalendarSourceRunEntity> {
    const sources = this.dataSource.getRepository(CalendarSourceEntity);
    const renew = setInterval(
      () => void sources.update({ id: sourceId, leaseToken: token }, { leaseUntilUtc: wallIn(LEASE_MS) }).catch(() => undefined),
      RENEW_MS,
    );
    renew.unref();
    const source = await sources.findOneBy({ id: sourceId });
    const after: Partial<CalendarSourceEntity> = {};
    try {
      if (!source) throw new FeedUnavailable('the source was deleted', null);
      const answer = await fetchFeed(source.url, source, this.outbound);
      if (answer.status === 304) {
        Object.assign(run, { status: 'not_modified', httpStatus: 304 });
      } else {
        run.httpStatus = 200;
        const outcome = await this.sync.sync(source, run.id, await this.author(source), readFeed(answer.text));
        Object.assign(run, { status: 'completed', counts: outcome.counts, problems: outcome.problems });
        Object.assign(after, { etag: answer.etag, lastModified: answer.lastModified });
      }
    } catch (error) {
      if (!(error instanceof FeedUnavailable || error instanceof FeedRefused || error instanceof SourceUserGone)) {
        this.logger.error(`Run ${run.id} of source ${sourceId} failed: ${error instanceof Error ? error.stack : String(error)}`);
      }
      Object.assign(run, {
        status: 'failed',
        httpStatus: error instanceof FeedUnavailable ? error.httpStatus : run.httpStatus,
        error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
      });
    } finally {
      clearInterval(renew);
      run.finishedUtc = nowUtcWall();
      await this.dataSource.getRepository(CalendarSourceRunEntity).save(run);
      if (source) {
        await sources.update(
          { id: sourceId, leaseToken: token },
          { ...after, leaseToken: null, leaseUntilUtc: null, nextRunUtc: wallIn(source.refreshMinutes * 60_000) },
        );
      }
    }
    return run;
  }

  /** The user the source's events are written as: its author, while an administrator or editor. */
  private async author(source: CalendarSourceEntity): Promise<AuthUser> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: source.authorId });
    if (!user || (user.role !== 'administrator' && user.role !== 'editor'))
      throw new SourceUserGone(`the user the source writes as (ID ${source.authorId}) no longer exists or may no longer edit every event`);
    return { id: user.id, login: user.login, role: user.role };
  }
}

class SourceUserGone extends Error {}
