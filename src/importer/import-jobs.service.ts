import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { RequestContext } from '../common/http/request-context.js';
import type { StartImportDto } from './dto/start-import.dto.js';
import { incompleteReason, tallyFrom } from './import-report.js';
import type { ImportJobResponse } from './import-job.response.js';
import { ImportRunEntity } from './import-run.entity.js';
import { ImportSourceEntity } from './import-source.entity.js';
import { SourceError } from './source-client.js';
import { ImportRefused } from './import-options.js';
import { TecImporter } from './tec-importer.js';

/** How long a shutting-down process lets its jobs finish their page. */
const SHUTDOWN_WAIT_MS = 20_000;

/**
 * Import jobs started over HTTP (`POST /imports`): the same importer as `npm run cli -- import:tec`,
 * run in the process that took the request; its progress is stored with the run, so any process
 * answers `GET /imports/<id>`. Administrators only. On shutdown a job finishes its page and is left
 * `interrupted`: the next job of the same source resumes it.
 */
@Injectable()
export class ImportJobsService implements OnApplicationShutdown {
  private readonly logger = new Logger('Imports');
  private readonly running = new Map<number, { stop: boolean; done: Promise<unknown> }>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly importer: TecImporter,
  ) {}

  async start(input: StartImportDto, ctx: RequestContext): Promise<ImportJobResponse> {
    this.assertAdministrator(ctx);
    let opened;
    try {
      opened = await this.importer.open({
        from: input.from,
        user: input.user,
        password: input.password,
        dryRun: input.dry_run === true,
        since: input.since,
        author: input.author,
        onConflict: input.on_conflict,
      });
    } catch (error) {
      if (error instanceof ImportRefused && error.runningRun !== null)
        throw new ApiError(409, ErrorCode.ImportRunning, { id: error.runningRun });
      if (error instanceof ImportRefused && error.param !== null) {
        const key = {
          since: 'date',
          author: 'unknown_login',
          on_conflict: 'invalid_value',
          user: 'credentials_pair',
          password: 'credentials_pair',
        }[error.param];
        throw ApiError.invalidParam(error.param, key);
      }
      if (error instanceof ImportRefused || error instanceof SourceError)
        throw new ApiError(400, ErrorCode.ImportSourceUnusable, { reason: error.message });
      throw error;
    }
    const job = { stop: false, done: Promise.resolve() as Promise<unknown> };
    job.done = this.importer
      .execute(opened, {}, () => job.stop)
      .then((report) =>
        this.logger.log(`Import job ${report.runId} of ${report.source}: ${report.status}${report.reason ? ` (${report.reason})` : ''}`),
      )
      .catch((error: unknown) =>
        this.logger.error(`Import job ${opened.run.id} failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => this.running.delete(opened.run.id));
    this.running.set(opened.run.id, job);
    return this.read(opened.run.id, ctx);
  }

  async read(id: number, ctx: RequestContext): Promise<ImportJobResponse> {
    const run = Number.isSafeInteger(id) ? await this.dataSource.getRepository(ImportRunEntity).findOneBy({ id }) : null;
    if (!run) throw ApiError.invalidParam('id', 'unknown_import');
    this.assertAdministrator(ctx);
    const source = await this.dataSource.getRepository(ImportSourceEntity).findOneBy({ id: run.sourceId });
    return view(run, source?.url ?? '');
  }

  async list(ctx: RequestContext): Promise<{ imports: ImportJobResponse[] }> {
    this.assertAdministrator(ctx);
    const runs = await this.dataSource.getRepository(ImportRunEntity).find({ order: { id: 'DESC' }, take: 50 });
    const sources = await this.dataSource
      .getRepository(ImportSourceEntity)
      .findBy({ id: In([...new Set(runs.map((run) => run.sourceId))]) });
    const urls = new Map(sources.map((source) => [source.id, source.url]));
    return { imports: runs.map((run) => view(run, urls.get(run.sourceId) ?? '')) };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.running.size === 0) return;
    for (const job of this.running.values()) job.stop = true;
    const all = Promise.allSettled([...this.running.values()].map((job) => job.done));
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref())]);
  }

  private assertAdministrator(ctx: RequestContext): void {
    if (ctx.user?.role !== 'administrator') throw ApiError.forbidden(ctx.user !== null);
  }
}

function view(run: ImportRunEntity, source: string): ImportJobResponse {
  const tally = tallyFrom(run.progress);
  const reason =
    run.status === 'running'
      ? null
      : (run.error ??
        (run.status === 'interrupted'
          ? 'interrupted before the end: the next job of this source resumes it'
          : incompleteReason(tally, false)));
  const options = { ...run.options };
  delete options.from;
  return {
    id: run.id,
    source,
    status: run.status,
    dry_run: run.dryRun,
    phase: run.phase,
    started_utc: run.startedUtc,
    finished_utc: run.finishedUtc,
    complete: run.status === 'running' ? null : reason === null,
    reason,
    options,
    progress: tally.progress,
    counts: tally.counts,
    renumbered: tally.renumbered.map(({ kind, sourceId, localId, merged }) => ({
      kind,
      source_id: sourceId,
      local_id: localId,
      ...(merged ? { merged } : {}),
    })),
    slug_changes: tally.slugChanges.map(({ kind, sourceId, localId, from, to }) => ({
      kind,
      source_id: sourceId,
      local_id: localId,
      from,
      to,
    })),
    skipped: tally.skipped.map(({ kind, sourceId, reason }) => ({ kind, source_id: sourceId, reason })),
    unread: tally.unread.map(({ kind, sourceId, reason }) => ({ kind, source_id: sourceId, reason })),
    unreadable: tally.unreadable.map(({ kind, sourceId, reason }) => ({ kind, source_id: sourceId, reason })),
    notes: tally.warnings,
  };
}
