/** The entry point of an import run (`import:tec`, the import jobs): options, opening the run, the phases in order, the report. */
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { CostConfig, EventsConfig, ListsConfig, OutboundConfig, SiteConfig } from '../config/app-config.js';
import { parseDateInput } from '../common/dates/parse-date.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { offsetHours } from '../common/dates/zones.js';
import { DataVersionService } from '../cache/data-version.service.js';
import { UserEntity } from '../users/user.entity.js';
import { extraPhase, vanishedPhase } from './import-extra-phases.js';
import { itemsPhase } from './import-item-phases.js';
import { ImportRefused, type ImportObserver, type ImportOptions, type OpenedRun } from './import-options.js';
import { buildReport, emptyTally, tallyFrom, warn, type ImportReport, type ImportTally } from './import-report.js';
import { HEARTBEAT_MS, ImportRunStore, PHASES, type Phase } from './import-run-store.js';
import type { RunState } from './import-run-state.js';
import { readTerms, termsPhase } from './import-term-phases.js';
import type { ConflictPolicy } from './import-outcome.js';
import { ImportWriter } from './import-writer.js';
import { SourceClient, SourceError } from './source-client.js';
import { discoverSource, type Resource, type SourceSite } from './source-site.js';
import { defaultPageSize, highestItemId, scanProtection, sourceLogins, sourcePassword } from './source-survey.js';

/**
 * `import:tec` (CLI) and the import jobs (HTTP): reads categories, tags, venues, organizers and
 * events of a site of the reference plugin (or of another instance of this service) through REST
 * API v1 and writes them here, keeping ids and slugs, in one transaction per record. Re-runs update
 * what changed, add what is new and trash what vanished; an interrupted run resumes where it stopped.
 */
@Injectable()
export class TecImporter {
  private readonly runs: ImportRunStore;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: ConfigService,
    private readonly version: DataVersionService,
  ) {
    this.runs = new ImportRunStore(dataSource);
  }

  /** Checks and resolves the options that need no source: policy, `--since`, the author. */
  async prepare(options: ImportOptions): Promise<{ since: string | null; authorId: number; policy: ConflictPolicy }> {
    const policy = options.onConflict ?? 'skip';
    if (!['overwrite', 'keep-local', 'skip'].includes(policy))
      throw new ImportRefused(`--on-conflict must be overwrite, keep-local or skip, not "${policy}"`, 'on_conflict');
    if (options.user !== undefined && options.password === undefined)
      throw new ImportRefused(
        '--user needs its application password: give --password or set the environment variable TEC_PASSWORD',
        'password',
      );
    if (options.user === undefined && options.password !== undefined) throw new ImportRefused('--password needs --user', 'user');
    let since: string | null = null;
    if (options.since !== undefined) {
      const parsed = parseDateInput(options.since, this.config.getOrThrow<SiteConfig>('site').timezone, new Date());
      if (!parsed) throw new ImportRefused(`--since: "${options.since}" is not a date (try 2026-11-01 or "2026-11-01 08:00")`, 'since');
      since = parsed.utc;
    }
    const users = this.dataSource.getRepository(UserEntity);
    let author: UserEntity | null;
    if (options.author !== undefined) {
      author = await users.findOneBy({ loginKey: options.author.toLowerCase() });
      if (!author) throw new ImportRefused(`--author: no user has the login "${options.author}" here (npm run cli -- user:list)`, 'author');
    } else {
      author = await users.findOne({ where: { role: 'administrator' }, order: { id: 'ASC' } });
      if (!author) throw new ImportRefused('there is no administrator here to own the imported records: create one or give --author');
    }
    return { since, authorId: author.id, policy };
  }

  /** A whole run: {@link open}, then {@link execute}; a source that cannot be used ends it with a report. */
  async run(options: ImportOptions, observer: ImportObserver = {}, stop: () => boolean = () => false): Promise<ImportReport> {
    const started = Date.now();
    let opened: OpenedRun;
    try {
      opened = await this.open(options);
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      return buildReport(options, started, {
        status: 'failed',
        reason: error.message,
        requests: (error as { requests?: number }).requests ?? 0,
      });
    }
    return this.execute(opened, observer, stop);
  }

  /**
   * Checks the options, finds the source's API and opens the run (a new one, or the interrupted
   * run of the same source, resumed). Throws {@link ImportRefused} for options and a run already
   * going, {@link SourceError} for a source that cannot be used.
   */
  async open(options: ImportOptions): Promise<OpenedRun> {
    const started = Date.now();
    const prepared = await this.prepare(options);
    const client = new SourceClient({
      ...options.client,
      user: options.user,
      password: options.password,
      outbound: this.config.getOrThrow<OutboundConfig>('outbound'),
    });
    let site: SourceSite;
    try {
      site = await discoverSource(client, options.from);
    } catch (error) {
      if (error instanceof SourceError) Object.assign(error, { requests: client.requests });
      throw error;
    }
    const { run, resumed } = await this.runs.openRun(site.api, options, prepared, options.dryRun === true);
    return { options, prepared, client, site, run, resumed, started };
  }

  /** Reads the source and writes here, phase after phase, from where the run stands. */
  async execute(opened: OpenedRun, observer: ImportObserver = {}, stop: () => boolean = () => false): Promise<ImportReport> {
    const { options, prepared, client, site, run, resumed, started } = opened;
    const dryRun = options.dryRun === true;
    const report = (partial: Partial<ImportReport> & Pick<ImportReport, 'status'>) => buildReport(options, started, partial);
    const tally = resumed ? tallyFrom(run.progress) : emptyTally();
    observer.started?.({ id: run.id, source: site.api, resumed, phase: run.phase, dryRun });
    const heartbeat = setInterval(() => void this.runs.beat(run.id), HEARTBEAT_MS);
    heartbeat.unref();
    const writer = new ImportWriter(
      this.dataSource,
      {
        sourceId: run.sourceId,
        runId: run.id,
        dryRun,
        policy: prepared.policy,
        defaultAuthorId: prepared.authorId,
        authors: await this.authors(client, site, tally),
        customFieldKeys: new Set(this.config.getOrThrow<EventsConfig>('events').customFields.map((field) => field.key)),
        since: prepared.since,
        authenticated: client.authenticated,
      },
      (kind, sourceId) => sourcePassword(client, site, kind, sourceId),
    );
    await writer.loadMappings();
    const state: RunState = {
      client,
      site,
      writer,
      tally,
      convert: {
        flavor: site.flavor,
        sourceTimezone: site.siteTimezone,
        cost: this.config.getOrThrow<CostConfig>('cost'),
        now: nowUtcWall(),
      },
      run,
      observer,
      stop,
      save: (position) => this.runs.save(run, tally, position),
      bumpVersion: () => this.version.bump(),
      seen: new Map(),
      visible: new Map(),
      protection: { ids: new Map(), anonymousOrganizers: new Map(), warnings: [] },
      knownItemIds: new Set(),
      gone: [],
      earlier: await this.runs.earlier(run, options.user),
      leftAlone: 0,
      terms: new Map(),
    };
    this.checkTimezone(site, tally);
    let status: ImportReport['status'] = 'completed';
    let failure: string | null = null;
    try {
      if (client.authenticated) {
        state.protection = await scanProtection(client, site);
        for (const line of state.protection.warnings) warn(tally, line);
      }
      await this.checkPageSize(client, site, tally);
      await readTerms(state);
      writer.floors.item = await highestItemId(client, site);
      let phase = run.phase as Phase;
      while (phase !== 'done') {
        const fromPage = run.pagesDone + 1;
        const finished = await this.runPhase(state, phase, fromPage);
        if (!finished) {
          status = 'interrupted';
          break;
        }
        phase = PHASES[PHASES.indexOf(phase) + 1];
        await state.save({ phase, pagesDone: 0 });
        if (stop() && phase !== 'done') {
          status = 'interrupted';
          break;
        }
      }
    } catch (error) {
      status = 'failed';
      failure = error instanceof SourceError ? error.message : `${error instanceof Error ? error.message : String(error)}`.split('\n')[0];
    } finally {
      clearInterval(heartbeat);
    }
    if (writer.wrote) await this.version.bump();
    for (const line of writer.allNotes()) warn(tally, line);
    await this.runs.finish(run, status, failure, tally, dryRun);
    return report({
      status,
      runId: run.id,
      source: site.api,
      tally,
      requests: client.requests,
      ...(failure ? { reason: failure } : {}),
    });
  }

  // ---------------------------------------------------------------- what the source says about itself

  private checkTimezone(site: SourceSite, tally: ImportTally): void {
    const here = this.config.getOrThrow<SiteConfig>('site').timezone;
    if (!site.siteTimezone) return;
    const now = new Date();
    if (site.siteTimezone !== here && offsetHours(site.siteTimezone, now) !== offsetHours(here, now)) {
      warn(
        tally,
        `the source's site time zone is ${site.siteTimezone}, here it is ${here}: date and modified (site time) will differ; set SITE_TIMEZONE=${site.siteTimezone} to match`,
      );
    }
  }

  /** Paged clients see the same pages here when the default page size is the source's. */
  private async checkPageSize(client: SourceClient, site: SourceSite, tally: ImportTally): Promise<void> {
    const there = await defaultPageSize(client, site);
    const here = this.config.getOrThrow<ListsConfig>('lists').defaultPerPage;
    if (there !== null && there !== here) {
      warn(
        tally,
        `the source's default page size (per_page when a list is asked without it) is ${there}, here it is ${here}: set DEFAULT_PER_PAGE=${there} to match, so that paged clients see the same pages`,
      );
    }
  }

  /** Source author id → local user id, by login, where WordPress tells the logins (`wp/v2/users`). */
  private async authors(client: SourceClient, site: SourceSite, tally: ImportTally): Promise<Map<number, number>> {
    const result = new Map<number, number>();
    const logins = await sourceLogins(client, site);
    if (logins.size === 0) return result;
    const users = await this.dataSource.getRepository(UserEntity).find();
    const byLogin = new Map(users.map((user) => [user.loginKey, user.id]));
    for (const [sourceId, login] of logins) {
      const local = byLogin.get(login.toLowerCase());
      if (local !== undefined) result.set(sourceId, local);
    }
    if (result.size > 0) warn(tally, `authors matched by login: ${result.size} of ${logins.size} source users`);
    return result;
  }

  // ---------------------------------------------------------------- phases

  private async runPhase(state: RunState, phase: Phase, fromPage: number): Promise<boolean> {
    switch (phase) {
      case 'categories':
      case 'tags':
        await termsPhase(state, phase);
        return true;
      case 'venues':
      case 'organizers':
      case 'events':
        return itemsPhase(state, phase, fromPage, false);
      case 'venues-trash':
      case 'organizers-trash':
      case 'events-trash':
        return state.client.authenticated ? itemsPhase(state, phase.replace('-trash', '') as Resource, fromPage, true) : true;
      case 'extra':
        await extraPhase(state);
        return true;
      case 'vanished':
        await vanishedPhase(state);
        return true;
      default:
        return true;
    }
  }
}
