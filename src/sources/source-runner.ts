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
import { onPrimary } from '../common/sql/read-routing.js';
import type { AuthUser } from '../common/http/request-context.js';
import { UserEntity } from '../users/user.entity.js';
import type { CalendarSourceRunEntity } from './calendar-source-run.entity.js';
import { CalendarSourceEntity } from './calendar-source.entity.js';
import { FeedRefused, readFeed } from './feed-calendar.js';
import { fetchFeed, FeedUnavailable } from './feed-fetch.js';
import { SourceRunHistory } from './source-run-history.js';
import { SourceSync } from './source-sync.js';
import { runView } from './source-views.js';
import type { SourceRunResponse } from './source.response.js';

/** How long a lease holds without being renewed: a process that died leaves its source to others after this. */
export const LEASE_MS = 5 * 60_000;
const RENEW_MS = 60_000;

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
    private readonly history: SourceRunHistory,
    config: ConfigService,
  ) {
    this.outbound = config.getOrThrow<OutboundConfig>('outbound');
  }

  wake(): void {
    this.onWake?.();
  }

  /** A manual run: started now (409 while another runs it), carried on in the background; answers the run as started. */
  async start(source: CalendarSourceEntity, startedBy: 'manual' | 'schedule'): Promise<SourceRunResponse> {
    const token = await this.claim(source.id);
    if (!token) throw new ApiError(409, ErrorCode.SourceRunning, { id: source.id });
    const run = await this.history.open(source.id, startedBy);
    const work = this.execute(source.id, run, token).finally(() => this.running.delete(work));
    this.running.add(work);
    return runView(run);
  }

  /** A run in this process, awaited (the scheduler's and the command line's); null when another process holds the source. */
  async runNow(sourceId: number, startedBy: 'manual' | 'schedule'): Promise<SourceRunResponse | null> {
    const token = await this.claim(sourceId);
    if (!token) return null;
    const run = await this.history.open(sourceId, startedBy);
    return runView(await this.execute(sourceId, run, token));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /**
   * Closes the runs left `running` by processes that stopped, for the sources nobody holds (paused
   * ones included, which no schedule runs): each is taken with its lease, closed, and given back
   * without moving its next run. Returns how many runs were closed.
   */
  async closeAbandonedRuns(): Promise<number> {
    const sources = await onPrimary(() =>
      this.dataSource
        .getRepository(CalendarSourceEntity)
        .createQueryBuilder('s')
        .select('s.id', 'id')
        .where('(s.lease_until_utc IS NULL OR s.lease_until_utc < :now)', { now: wallToDate(nowUtcWall()) })
        .andWhere("EXISTS (SELECT 1 FROM calendar_source_runs r WHERE r.source_id = s.id AND r.status = 'running')")
        .getRawMany<{ id: number | string }>(),
    );
    let closed = 0;
    for (const { id } of sources) {
      const token = await this.lease(Number(id));
      if (!token) continue;
      try {
        closed += await this.history.closeAbandoned(Number(id));
      } finally {
        await this.dataSource
          .getRepository(CalendarSourceEntity)
          .update({ id: Number(id), leaseToken: token }, { leaseToken: null, leaseUntilUtc: null });
      }
    }
    return closed;
  }

  /** The source's lease, and with it the runs its last holder left `running` closed as failed; null when someone holds it. */
  private async claim(sourceId: number): Promise<string | null> {
    const token = await this.lease(sourceId);
    if (token) await this.history.closeAbandoned(sourceId);
    return token;
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
      await this.history.finish(run);
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
