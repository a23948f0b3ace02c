/** The run row of an import (`import_runs`) and its source (`import_sources`): opening or resuming a run, heartbeat, position, the end. */
import { LessThan, type DataSource } from 'typeorm';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { ImportRefused, type ImportOptions } from './import-options.js';
import { emptyTally, tallyFrom, type ImportReport, type ImportTally, type ProbeMark } from './import-report.js';
import { ImportRunEntity } from './import-run.entity.js';
import { ImportSourceEntity } from './import-source.entity.js';
import type { ConflictPolicy } from './import-outcome.js';

/** Phases in order; a resumed run starts again at the phase it stopped in. */
export const PHASES = [
  'categories',
  'tags',
  'venues',
  'venues-trash',
  'organizers',
  'organizers-trash',
  'events',
  'events-trash',
  'extra',
  'vanished',
  'done',
] as const;
export type Phase = (typeof PHASES)[number];

/** A run whose process has not shown a sign of life for this long was killed; the next run resumes it. */
export const STALE_RUN_MS = 120_000;
export const HEARTBEAT_MS = 20_000;

/** What the earlier real runs of a source tell a new one. */
export interface EarlierRuns {
  /**
   * One of them read with credentials this run lacks (other ones, or this run has none): this run
   * may see less than what is imported, so what it cannot read is left as it is, not trashed.
   */
  otherCredentials: boolean;
  /** How far the latest of them read the source's ids one by one. */
  probe: ProbeMark | null;
}

export class ImportRunStore {
  constructor(private readonly dataSource: DataSource) {}

  /** A new run of the source (registered on its first run), or its interrupted run resumed; refused while a run of it is alive. */
  async openRun(
    api: string,
    options: ImportOptions,
    prepared: { since: string | null; policy: ConflictPolicy },
    dryRun: boolean,
  ): Promise<{ run: ImportRunEntity; resumed: boolean }> {
    const sources = this.dataSource.getRepository(ImportSourceEntity);
    const runs = this.dataSource.getRepository(ImportRunEntity);
    const now = nowUtcWall();
    let source = await sources.findOneBy({ url: api });
    if (!source) {
      // the same site asked for over the other scheme (http/https) is the same source: its mappings apply
      const other = api.replace(/^https?:/, (scheme) => (scheme === 'http:' ? 'https:' : 'http:'));
      const sameSite = await sources.findOneBy({ url: other });
      if (sameSite) {
        await sources.update({ id: sameSite.id }, { url: api });
        source = { ...sameSite, url: api };
      }
    }
    if (!source) {
      await sources.insert({ url: api, createdUtc: now, lastCompletedUtc: null }).catch(() => undefined);
      source = await sources.findOneByOrFail({ url: api });
    }
    const previous = await runs.findOne({ where: { sourceId: source.id, dryRun: false }, order: { id: 'DESC' } });
    if (previous?.status === 'running' && Date.now() - Date.parse(`${previous.heartbeatUtc.replace(' ', 'T')}Z`) < STALE_RUN_MS) {
      throw new ImportRefused(
        `an import of ${api} is already running (run ${previous.id}, started ${previous.startedUtc} UTC)`,
        null,
        previous.id,
      );
    }
    const recordedOptions = {
      from: options.from,
      user: options.user ?? null,
      since: prepared.since,
      author: options.author ?? null,
      on_conflict: prepared.policy,
    };
    if (!dryRun && !options.restart && previous && previous.status !== 'completed' && previous.phase !== 'done') {
      previous.status = 'running';
      previous.heartbeatUtc = now;
      previous.error = null;
      previous.options = { ...recordedOptions, resumedAt: now };
      await runs.save(previous);
      return { run: previous, resumed: true };
    }
    const run = runs.create({
      sourceId: source.id,
      status: 'running',
      dryRun,
      options: recordedOptions,
      phase: 'categories',
      pagesDone: 0,
      progress: emptyTally() as unknown as Record<string, unknown>,
      error: null,
      startedUtc: now,
      heartbeatUtc: now,
      finishedUtc: null,
    });
    return { run: await runs.save(run), resumed: false };
  }

  /** What the earlier real runs of the run's source tell it (`user`: this run's login at the source). */
  async earlier(run: ImportRunEntity, user: string | undefined): Promise<EarlierRuns> {
    const runs = this.dataSource.getRepository(ImportRunEntity);
    const before = await runs.find({
      select: { id: true, options: true },
      where: { sourceId: run.sourceId, dryRun: false, id: LessThan(run.id) },
      order: { id: 'DESC' },
    });
    const otherCredentials = before.some((earlier) => {
      const login = earlier.options.user;
      return typeof login === 'string' && login !== user;
    });
    let probe: ProbeMark | null = null;
    for (const { id } of before.slice(0, 5)) {
      const latest = await runs.findOne({ select: { id: true, progress: true }, where: { id } });
      probe = latest ? (tallyFrom(latest.progress).probe ?? null) : null;
      if (probe) break;
    }
    return { otherCredentials, probe };
  }

  async beat(runId: number): Promise<void> {
    await this.dataSource
      .getRepository(ImportRunEntity)
      .update({ id: runId }, { heartbeatUtc: nowUtcWall() })
      .catch(() => undefined);
  }

  /** Where the run stands (phase, pages done of its list) and its tally, after every page. */
  async save(run: ImportRunEntity, tally: ImportTally, position: { phase?: Phase; pagesDone?: number }): Promise<void> {
    if (position.phase !== undefined) run.phase = position.phase;
    if (position.pagesDone !== undefined) run.pagesDone = position.pagesDone;
    await this.dataSource.getRepository(ImportRunEntity).update(
      { id: run.id },
      {
        phase: run.phase,
        pagesDone: run.pagesDone,
        progress: tally as never,
        heartbeatUtc: nowUtcWall(),
      },
    );
  }

  /** The run's last state: its status, error and tally; a completed real run marks its source completed. */
  async finish(
    run: ImportRunEntity,
    status: ImportReport['status'],
    failure: string | null,
    tally: ImportTally,
    dryRun: boolean,
  ): Promise<void> {
    const finishedUtc = nowUtcWall();
    await this.dataSource.getRepository(ImportRunEntity).update(
      { id: run.id },
      {
        status,
        error: failure ? failure.slice(0, 1000) : null,
        progress: tally as never,
        heartbeatUtc: finishedUtc,
        finishedUtc: status === 'interrupted' ? null : finishedUtc,
      },
    );
    if (status === 'completed' && !dryRun) {
      await this.dataSource.getRepository(ImportSourceEntity).update({ id: run.sourceId }, { lastCompletedUtc: finishedUtc });
    }
  }
}
