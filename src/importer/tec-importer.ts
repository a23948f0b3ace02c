import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { CostConfig, EventsConfig, SiteConfig } from '../config/app-config.js';
import { parseDateInput } from '../common/dates/parse-date.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { offsetHours } from '../common/dates/zones.js';
import { DataVersionService } from '../cache/data-version.service.js';
import { UserEntity } from '../users/user.entity.js';
import type { ImportKind, ImportMappingEntity } from './import-mapping.entity.js';
import { ImportRunEntity } from './import-run.entity.js';
import { ImportSourceEntity } from './import-source.entity.js';
import {
  emptyTally,
  record,
  renumbered,
  RESOURCE_OF_KIND,
  skip,
  skippedCount,
  tallyFrom,
  unreadable,
  warn,
  type ImportTally,
} from './import-report.js';
import { ImportWriter, type ConflictPolicy, type Outcome } from './import-writer.js';
import { SourceClient, SourceError, type SourceClientOptions } from './source-client.js';
import { CREDENTIAL_STATUSES, ListRefused, PER_PAGE, readList, readSingle } from './source-reader.js';
import {
  convertEvent,
  convertOrganizer,
  convertTerm,
  convertVenue,
  looksRedacted,
  UnusableRecord,
  type ConvertSettings,
  type EventRecord,
  type LinkRef,
  type TermRecord,
} from './source-records.js';
import { discoverSource, type Resource, type SourceSite } from './source-site.js';
import { highestItemId, scanProtection, sourceLogins, sourcePassword, unlistedEventIds, type ProtectionScan } from './source-survey.js';

export interface ImportOptions {
  from: string;
  user?: string;
  password?: string;
  dryRun?: boolean;
  /** Any date form of contract §6.2, read in the site zone. */
  since?: string;
  /** Login of the local user that imported records belong to (default: the first administrator). */
  author?: string;
  onConflict?: ConflictPolicy;
  /** Start over instead of resuming an interrupted run of the same source. */
  restart?: boolean;
  client?: Partial<SourceClientOptions>;
}

/** What a run tells whoever started it while it works. */
export interface ImportObserver {
  started?(run: { id: number; source: string; resumed: boolean; phase: string }): void;
  /** A resource's list is being read: `total` records (null when the source does not say), `done` so far. */
  progress?(resource: string, done: number, total: number | null): void;
  note?(line: string): void;
}

export interface ImportReport {
  runId: number | null;
  source: string | null;
  status: 'completed' | 'interrupted' | 'failed';
  dryRun: boolean;
  since: boolean;
  tally: ImportTally;
  /** Why the exit code is 1; null when it is 0. */
  reason: string | null;
  exitCode: 0 | 1;
  durationMs: number;
  requests: number;
}

/** Phases in order; a resumed run starts again at the phase it stopped in. */
const PHASES = [
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
type Phase = (typeof PHASES)[number];

/** A run whose process has not shown a sign of life for this long was killed; the next run resumes it. */
export const STALE_RUN_MS = 120_000;
const HEARTBEAT_MS = 20_000;

const KIND_OF: Record<Resource, ImportKind> = {
  categories: 'category',
  tags: 'tag',
  venues: 'venue',
  organizers: 'organizer',
  events: 'event',
};
const RESOURCE_OF: Record<'category' | 'tag' | 'venue' | 'organizer' | 'event', Resource> = {
  category: 'categories',
  tag: 'tags',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
};

/** An error that ends the run before it starts: an option (`param` names it) or a run of the same source already going. */
export class ImportRefused extends Error {
  constructor(
    message: string,
    readonly param: 'on_conflict' | 'user' | 'password' | 'since' | 'author' | null = null,
    /** The run already going, when that is the reason. */
    readonly runningRun: number | null = null,
  ) {
    super(message);
  }
}

/** Everything one run works with. */
interface RunState {
  client: SourceClient;
  site: SourceSite;
  writer: ImportWriter;
  tally: ImportTally;
  convert: ConvertSettings;
  run: ImportRunEntity;
  observer: ImportObserver;
  stop: () => boolean;
  /** Source ids seen in this run, per kind. */
  seen: Map<ImportKind, Set<number>>;
  /** Statuses this run could list, per item resource (`publish` alone without credentials). */
  visible: Map<Resource, Set<string>>;
  /** Published records an anonymous reader sees redacted: they are password-protected at the source. */
  protection: ProtectionScan;
  /** Item ids known to exist at the source (lists, embedded records, images), for finding hidden events. */
  knownItemIds: Set<number>;
  /** Extra ids to read one by one (hidden events). */
  discovered: Map<Resource, Set<number>>;
  /** Records found gone at the source in the extra pass. */
  gone: ImportMappingEntity[];
  /** Categories and tags, read whole before anything is written (parents may follow children; ids above all of them are free for renumbering). */
  terms: Map<'categories' | 'tags', { records: TermRecord[]; total: number | null }>;
}

/**
 * `import:tec` (CLI) and the import jobs (HTTP): reads categories, tags, venues, organizers and
 * events of a site of the reference plugin (or of another instance of this service) through REST
 * API v1 and writes them here, keeping ids and slugs, in one transaction per record. Re-runs update
 * what changed, add what is new and trash what vanished; an interrupted run resumes where it stopped.
 */
@Injectable()
export class TecImporter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: ConfigService,
    private readonly version: DataVersionService,
  ) {}

  /** Checks and resolves the options that need no source: policy, `--since`, the author. */
  async prepare(options: ImportOptions): Promise<{ since: string | null; authorId: number; policy: ConflictPolicy }> {
    const policy = options.onConflict ?? 'skip';
    if (!['overwrite', 'keep-local', 'skip'].includes(policy))
      throw new ImportRefused(`--on-conflict must be overwrite, keep-local or skip, not "${policy}"`, 'on_conflict');
    if ((options.user === undefined) !== (options.password === undefined))
      throw new ImportRefused('--user and --password go together', options.user === undefined ? 'user' : 'password');
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
    const client = new SourceClient({ ...options.client, user: options.user, password: options.password });
    let site: SourceSite;
    try {
      site = await discoverSource(client, options.from);
    } catch (error) {
      if (error instanceof SourceError) Object.assign(error, { requests: client.requests });
      throw error;
    }
    const { run, resumed } = await this.openRun(site.api, options, prepared, options.dryRun === true);
    return { options, prepared, client, site, run, resumed, started };
  }

  /** Reads the source and writes here, phase after phase, from where the run stands. */
  async execute(opened: OpenedRun, observer: ImportObserver = {}, stop: () => boolean = () => false): Promise<ImportReport> {
    const { options, prepared, client, site, run, resumed, started } = opened;
    const dryRun = options.dryRun === true;
    const report = (partial: Partial<ImportReport> & Pick<ImportReport, 'status'>) => buildReport(options, started, partial);
    const tally = resumed ? tallyFrom(run.progress) : emptyTally();
    observer.started?.({ id: run.id, source: site.api, resumed, phase: run.phase });
    const heartbeat = setInterval(() => void this.beat(run.id), HEARTBEAT_MS);
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
      seen: new Map(),
      visible: new Map(),
      protection: { ids: new Map(), anonymousOrganizers: new Map(), warnings: [] },
      knownItemIds: new Set(),
      discovered: new Map(),
      gone: [],
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
      await this.readTerms(state);
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
        await this.save(state, { phase, pagesDone: 0 });
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
    for (const line of writer.notes) warn(tally, line);
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
    return report({
      status,
      runId: run.id,
      source: site.api,
      tally,
      requests: client.requests,
      ...(failure ? { reason: failure } : {}),
    });
  }

  // ---------------------------------------------------------------- the run row

  private async openRun(
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

  private async beat(runId: number): Promise<void> {
    await this.dataSource
      .getRepository(ImportRunEntity)
      .update({ id: runId }, { heartbeatUtc: nowUtcWall() })
      .catch(() => undefined);
  }

  private async save(state: RunState, position: { phase?: Phase; pagesDone?: number }): Promise<void> {
    if (position.phase !== undefined) state.run.phase = position.phase;
    if (position.pagesDone !== undefined) state.run.pagesDone = position.pagesDone;
    await this.dataSource.getRepository(ImportRunEntity).update(
      { id: state.run.id },
      {
        phase: state.run.phase,
        pagesDone: state.run.pagesDone,
        progress: state.tally as never,
        heartbeatUtc: nowUtcWall(),
      },
    );
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

  /** Whether a visitor sees the record redacted at the source (the anonymous scan of the lists). */
  private isProtected(state: RunState, kind: ImportKind, raw: Record<string, unknown>): boolean {
    const id = Number(raw.id);
    if (state.protection.ids.get(kind)?.has(id)) return true;
    const anonymous = state.protection.anonymousOrganizers.get(id);
    return kind === 'organizer' && anonymous !== undefined && looksRedacted(anonymous, raw);
  }

  // ---------------------------------------------------------------- phases

  private async runPhase(state: RunState, phase: Phase, fromPage: number): Promise<boolean> {
    switch (phase) {
      case 'categories':
      case 'tags':
        await this.termsPhase(state, phase);
        return true;
      case 'venues':
      case 'organizers':
      case 'events':
        return this.itemsPhase(state, phase, fromPage, false);
      case 'venues-trash':
      case 'organizers-trash':
      case 'events-trash':
        return state.client.authenticated ? this.itemsPhase(state, phase.replace('-trash', '') as Resource, fromPage, true) : true;
      case 'extra':
        await this.extraPhase(state);
        return true;
      case 'vanished':
        await this.vanishedPhase(state);
        return true;
      default:
        return true;
    }
  }

  private seenSet(state: RunState, kind: ImportKind): Set<number> {
    let set = state.seen.get(kind);
    if (!set) state.seen.set(kind, (set = new Set()));
    return set;
  }

  private count(state: RunState, outcome: Outcome): void {
    for (const image of state.writer.renumberedImages.splice(0)) renumbered(state.tally, { kind: 'image', ...image });
    record(state.tally, outcome);
    this.seenSet(state, outcome.kind).add(outcome.sourceId);
  }

  /** Both taxonomies, whole: they are small, parents may come after their children, and their highest id bounds renumbering. */
  private async readTerms(state: RunState): Promise<void> {
    for (const resource of ['categories', 'tags'] as const) {
      const kind = KIND_OF[resource] as 'category' | 'tag';
      const records: TermRecord[] = [];
      let total: number | null = null;
      for await (const page of readList(state.client, state.site, resource)) {
        total = page.total;
        for (const raw of page.records) {
          try {
            records.push(convertTerm(raw, kind, state.convert));
          } catch (error) {
            if (!(error instanceof UnusableRecord)) throw error;
            skip(state.tally, resource, { kind, sourceId: null, reason: error.message });
          }
        }
      }
      state.terms.set(resource, { records, total });
      for (const record of records) state.writer.floors.term = Math.max(state.writer.floors.term, record.sourceId);
    }
  }

  /** Categories or tags, parents first, from the lists read at the start. */
  private async termsPhase(state: RunState, resource: 'categories' | 'tags'): Promise<void> {
    const { records, total } = state.terms.get(resource) ?? { records: [], total: 0 };
    const ordered = parentsFirst(records);
    let done = 0;
    state.observer.progress?.(resource, 0, total ?? ordered.length);
    for (const term of ordered) {
      this.seenSet(state, term.kind).add(term.sourceId);
      await this.writeTermSafely(state, term);
      state.tally.progress[resource] = { done: ++done, total: total ?? ordered.length };
      state.observer.progress?.(resource, done, total ?? ordered.length);
    }
    if (state.writer.wrote) {
      await this.version.bump();
      state.writer.wrote = false;
    }
    await this.save(state, {});
  }

  private async writeTermSafely(state: RunState, term: TermRecord): Promise<void> {
    try {
      this.count(state, await state.writer.writeTerm(term));
    } catch (error) {
      this.seenSet(state, term.kind).add(term.sourceId);
      skip(state.tally, term.kind === 'category' ? 'categories' : 'tags', {
        kind: term.kind,
        sourceId: term.sourceId,
        reason: writeFailure(error),
      });
    }
  }

  /** Venues, organizers or events, page by page; the run row remembers the last page written. */
  private async itemsPhase(state: RunState, resource: Resource, fromPage: number, trash: boolean): Promise<boolean> {
    const kind = KIND_OF[resource];
    const authenticated = state.client.authenticated;
    const status = trash
      ? 'trash'
      : authenticated && state.site.listArgs[resource].has('status')
        ? CREDENTIAL_STATUSES.join(',')
        : undefined;
    const visible = this.visibleStatuses(state, resource);
    const key = trash ? `${resource} (trash)` : resource;
    try {
      for await (const page of readList(state.client, state.site, resource, { status, fromPage })) {
        const total = page.total;
        const done = (page.page - 1) * PER_PAGE;
        for (const raw of page.records) await this.importRaw(state, resource, raw as Record<string, unknown>);
        const progress = { done: Math.min(total ?? Infinity, done + page.records.length), total };
        state.tally.progress[key] = progress;
        state.observer.progress?.(key, progress.done, progress.total);
        await state.writer.markSeen(kind, page.records.map((raw) => Number((raw as { id?: unknown }).id)).filter(Number.isSafeInteger));
        if (state.writer.wrote) {
          await this.version.bump();
          state.writer.wrote = false;
        }
        await this.save(state, { pagesDone: page.page });
        if (state.stop() && page.page < page.totalPages) return false;
      }
    } catch (error) {
      if (!(error instanceof ListRefused)) throw error;
      // credentials that may not use this status filter: what they could read is all there is
      if (trash) {
        warn(state.tally, `${resource} in the trash are not listed for these credentials (${error.answer.status}): none were imported`);
        return true;
      }
      if (status !== undefined && [400, 401, 403].includes(error.answer.status)) {
        warn(state.tally, `these credentials may not list unpublished ${resource} (${error.answer.status}): published ones only`);
        visible.clear();
        visible.add('publish');
        for await (const page of readList(state.client, state.site, resource, { fromPage })) {
          for (const raw of page.records) await this.importRaw(state, resource, raw as Record<string, unknown>);
          state.observer.progress?.(resource, Math.min(page.total ?? Infinity, page.page * PER_PAGE), page.total);
          await this.save(state, { pagesDone: page.page });
        }
        return true;
      }
      throw error;
    }
    if (trash) visible.add('trash');
    return true;
  }

  /**
   * Statuses the run can see in a list: with credentials every status but the trash (the trash once
   * its own pass read it), else `publish`. Only records last seen in one of them count as vanished.
   */
  private visibleStatuses(state: RunState, resource: Resource): Set<string> {
    let visible = state.visible.get(resource);
    if (!visible) {
      const all = state.client.authenticated && state.site.listArgs[resource].has('status');
      visible = new Set<string>(all ? CREDENTIAL_STATUSES : ['publish']);
      state.visible.set(resource, visible);
    }
    return visible;
  }

  /** One record of a list (or read alone): converted, its links imported first, written. */
  private async importRaw(state: RunState, resource: Resource, raw: Record<string, unknown>): Promise<void> {
    const kind = KIND_OF[resource];
    const id = Number(raw.id);
    if (Number.isSafeInteger(id)) {
      this.seenSet(state, kind).add(id);
      if (kind !== 'category' && kind !== 'tag') {
        state.knownItemIds.add(id);
        state.writer.floors.item = Math.max(state.writer.floors.item, id);
      }
    }
    let body = raw;
    // a record shown redacted to the credentials (the reference redacts protected events in lists even for
    // editors) is read alone, where the reference shows it in full to editors
    const redacted = raw.all_day === null || raw.show_map === null;
    if (redacted && state.client.authenticated && Number.isSafeInteger(id)) {
      const single = await readSingle(state.client, state.site, resource, id);
      if (single.kind === 'found' && single.body.all_day !== null && single.body.show_map !== null) body = single.body;
    }
    const imageId = Number((body.image as { id?: unknown } | undefined)?.id);
    if (Number.isSafeInteger(imageId) && imageId > 0) state.knownItemIds.add(imageId);
    try {
      const redactedBody = body.all_day === null || body.show_map === null;
      const protectedAtSource = this.isProtected(state, kind, body) || redactedBody;
      let outcome: Outcome | undefined;
      if (kind === 'event') {
        const event = convertEvent(body, state.convert);
        await this.importLinks(state, event);
        outcome = await state.writer.writeEvent(event, protectedAtSource);
      } else if (kind === 'venue' || kind === 'organizer') {
        const linked = kind === 'venue' ? convertVenue(body, state.convert) : convertOrganizer(body, state.convert);
        outcome = await state.writer.writeLinked(linked, protectedAtSource);
      } else {
        await this.writeTermSafely(state, convertTerm(body, kind as 'category' | 'tag', state.convert));
      }
      if (outcome) {
        this.count(state, outcome);
        if (protectedAtSource && (outcome.action === 'created' || outcome.action === 'updated')) {
          if (redactedBody) {
            warn(
              state.tally,
              `${kind} ${id} is password-protected at the source and these credentials do not unlock it: imported as a visitor sees it (content blank), protected here with a random password`,
            );
          } else if (!(await this.hasSourcePassword(state, kind, id))) {
            warn(
              state.tally,
              `${kind} ${id} is password-protected at the source, which does not tell the password: it is protected here with a random one (set post_password to change it)`,
            );
          }
        }
      }
    } catch (error) {
      skip(state.tally, RESOURCE_OF[kind as 'event'], {
        kind,
        sourceId: Number.isSafeInteger(id) ? id : null,
        reason: writeFailure(error),
      });
    }
  }

  private async hasSourcePassword(state: RunState, kind: ImportKind, id: number): Promise<boolean> {
    if (kind !== 'event' && kind !== 'venue' && kind !== 'organizer') return true;
    return (await sourcePassword(state.client, state.site, kind, id)) !== null;
  }

  /** Venues, organizers and terms an event links to that are not imported yet: from the event's own embedded copy. */
  private async importLinks(state: RunState, event: EventRecord): Promise<void> {
    const missing = (kind: ImportKind, ref: LinkRef) =>
      !state.writer.mapping(kind, ref.sourceId) && !state.writer.failed.has(`${kind}:${ref.sourceId}`);
    for (const [kind, refs] of [
      ['category', event.categories],
      ['tag', event.tags],
    ] as const) {
      for (const ref of refs) {
        if (!missing(kind, ref) || !ref.embedded) continue;
        try {
          this.count(state, await state.writer.writeTerm(convertTerm(ref.embedded, kind, state.convert)));
        } catch (error) {
          state.writer.failed.add(`${kind}:${ref.sourceId}`);
          skip(state.tally, kind === 'category' ? 'categories' : 'tags', { kind, sourceId: ref.sourceId, reason: writeFailure(error) });
        }
      }
    }
    for (const [kind, refs] of [
      ['venue', event.venue ? [event.venue] : []],
      ['organizer', event.organizers],
    ] as const) {
      for (const ref of refs) {
        state.knownItemIds.add(ref.sourceId);
        if (!missing(kind, ref)) continue;
        let body = ref.embedded;
        if (!body || body.show_map === null) {
          const single = await readSingle(state.client, state.site, RESOURCE_OF[kind], ref.sourceId);
          if (single.kind === 'found') body = single.body;
        }
        if (!body) continue;
        try {
          const linked = kind === 'venue' ? convertVenue(body, state.convert) : convertOrganizer(body, state.convert);
          this.count(state, await state.writer.writeLinked(linked, this.isProtected(state, kind, body), true));
        } catch (error) {
          state.writer.failed.add(`${kind}:${ref.sourceId}`);
          skip(state.tally, RESOURCE_OF_KIND[kind], { kind, sourceId: ref.sourceId, reason: writeFailure(error) });
        }
      }
    }
  }

  /**
   * Records no list showed: events hidden from listings (found through `wp/v2/tribe_events` on
   * WordPress, through the change feed and the gaps of the id sequence on this service), and
   * records imported before that the lists no longer show. Each is read alone: found ones are
   * imported, gone ones are trashed in the next phase.
   */
  private async extraPhase(state: RunState): Promise<void> {
    await this.discoverUnlisted(state);
    const work: Array<{ resource: Resource; id: number; mapped: ImportMappingEntity | undefined }> = [];
    for (const [resource, ids] of state.discovered) {
      for (const id of ids) if (!this.seenSet(state, KIND_OF[resource]).has(id)) work.push({ resource, id, mapped: undefined });
    }
    for (const kind of ['category', 'tag', 'venue', 'organizer', 'event'] as const) {
      for (const row of state.writer.unseen(kind)) {
        if (this.seenSet(state, kind).has(row.sourceRecordId)) continue;
        if (!work.some((item) => item.resource === RESOURCE_OF[kind] && item.id === row.sourceRecordId)) {
          work.push({ resource: RESOURCE_OF[kind], id: row.sourceRecordId, mapped: row });
        }
      }
    }
    const total = work.length;
    state.observer.progress?.('other records', 0, total);
    const results = work.map((item) => {
      const result = readSingle(state.client, state.site, item.resource, item.id);
      result.catch(() => undefined); // taken in turn below
      return { item, result };
    });
    let done = 0;
    for (const { item, result } of results) {
      const single = await result;
      const kind = KIND_OF[item.resource];
      if (single.kind === 'found') {
        if (item.resource === 'events' && state.client.authenticated && !state.protection.ids.get('event')?.has(item.id)) {
          // hidden from every list, so the anonymous scan did not see it: ask as a visitor
          const anonymous = await readSingle(state.client, state.site, 'events', item.id, true);
          if (anonymous.kind === 'gone' && anonymous.reason.includes('event-password-protected')) {
            const ids = state.protection.ids.get('event') ?? new Set<number>();
            ids.add(item.id);
            state.protection.ids.set('event', ids);
          }
        }
        await this.importRaw(state, item.resource, single.body);
      } else if (single.kind === 'gone') {
        const row = item.mapped ?? state.writer.mapping(kind, item.id);
        if (row) state.gone.push(row);
        else if (item.resource === 'events' && /event-no-longer-available|event-password-protected|rest_forbidden/.test(single.reason)) {
          unreadable(state.tally, { kind, sourceId: item.id, reason: single.reason });
        }
      } else {
        skip(state.tally, item.resource, { kind, sourceId: item.id, reason: single.reason });
      }
      state.observer.progress?.('other records', ++done, total);
      state.tally.progress['other records'] = { done, total };
    }
    if (state.writer.wrote) {
      await this.version.bump();
      state.writer.wrote = false;
    }
    await this.save(state, {});
  }

  private async discoverUnlisted(state: RunState): Promise<void> {
    const { events, warnings } = await unlistedEventIds(state.client, state.site, state.knownItemIds, this.seenSet(state, 'event'));
    state.discovered.set('events', events);
    for (const line of warnings) warn(state.tally, line);
  }

  /** Records gone at the source (for the statuses this run could see): trashed here (terms deleted). */
  private async vanishedPhase(state: RunState): Promise<void> {
    let done = 0;
    const total = state.gone.length;
    for (const row of state.gone) {
      const resource = RESOURCE_OF[row.kind as 'event'];
      const visible = row.kind === 'category' || row.kind === 'tag' || this.visibleStatuses(state, resource).has(row.sourceStatus);
      if (!visible) continue;
      try {
        this.count(state, await state.writer.removeVanished(row));
      } catch (error) {
        skip(state.tally, resource, { kind: row.kind, sourceId: row.sourceRecordId, reason: writeFailure(error) });
      }
      state.observer.progress?.('vanished', ++done, total);
    }
    if (state.writer.wrote) {
      await this.version.bump();
      state.writer.wrote = false;
    }
  }
}

/** A run opened by {@link TecImporter.open}, ready to {@link TecImporter.execute}. */
export interface OpenedRun {
  options: ImportOptions;
  prepared: { since: string | null; authorId: number; policy: ConflictPolicy };
  client: SourceClient;
  site: SourceSite;
  run: ImportRunEntity;
  resumed: boolean;
  started: number;
}

/** The report of a run: the exit code is 1 with a reason when the run did not import everything it read. */
function buildReport(options: ImportOptions, started: number, partial: Partial<ImportReport> & Pick<ImportReport, 'status'>): ImportReport {
  const tally = partial.tally ?? emptyTally();
  const skipped = skippedCount(tally);
  const reason =
    partial.reason ??
    (partial.status === 'interrupted'
      ? 'interrupted before the end: run the same command again to resume'
      : skipped > 0
        ? `${skipped} record(s) could be read but were not imported (see "Skipped" above)`
        : null);
  return {
    runId: null,
    source: null,
    dryRun: options.dryRun === true,
    since: options.since !== undefined,
    tally,
    durationMs: Date.now() - started,
    requests: 0,
    ...partial,
    reason,
    exitCode: reason === null ? 0 : 1,
  };
}

/** Parents before children; a parent that is not in the list does not hold its children back. */
export function parentsFirst(terms: TermRecord[]): TermRecord[] {
  const byId = new Map(terms.map((term) => [term.sourceId, term]));
  const ordered: TermRecord[] = [];
  const placed = new Set<number>();
  const place = (term: TermRecord, path: Set<number>) => {
    if (placed.has(term.sourceId) || path.has(term.sourceId)) return;
    path.add(term.sourceId);
    const parent = byId.get(term.parentSourceId);
    if (parent) place(parent, path);
    placed.add(term.sourceId);
    ordered.push(term);
  };
  for (const term of terms) place(term, new Set());
  return ordered;
}

function writeFailure(error: unknown): string {
  if (error instanceof UnusableRecord || error instanceof SourceError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `could not be written: ${message.split('\n')[0]}`;
}
