import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import type { ListsConfig, OutboundConfig } from '../config/app-config.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { ApiError, ParamProblems } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { AuthUser, RequestContext } from '../common/http/request-context.js';
import { literalAddress } from '../common/net/outbound-target.js';
import type { PageQueryDto } from '../common/paging/page-query.dto.js';
import { listLinks, resolvePaging, totalPages } from '../common/paging/paging.js';
import { CategoryEntity } from '../categories/category.entity.js';
import { Editions } from '../editions/editions.js';
import { OrganizerEntity } from '../organizers/organizer.entity.js';
import { TagEntity } from '../tags/tag.entity.js';
import { VenueEntity } from '../venues/venue.entity.js';
import { targetProblem } from '../webhooks/webhook-targets.js';
import { CalendarSourceEventEntity } from './calendar-source-event.entity.js';
import { CalendarSourceRunEntity } from './calendar-source-run.entity.js';
import { CalendarSourceEntity } from './calendar-source.entity.js';
import type { SourceFieldsDto } from './dto/source-fields.dto.js';
import { runView, sourceView } from './source-views.js';
import type { SourceResponse, SourceRunResponse } from './source.response.js';
import { isRowId } from '../common/sql/row-id.js';

const FIELD_ORDER = [
  'url',
  'refresh_minutes',
  'default_categories',
  'default_tags',
  'default_organizer',
  'default_venue',
  'default_status',
  'update_authority',
  'trash_missing',
  'paused',
];

/** A feed URL as stored: `webcal://` read as `https://`; null when it is not an http(s) or webcal URL without credentials. */
export function feedUrl(raw: string): URL | null {
  if (/\s/.test(raw)) return null;
  try {
    const url = new URL(raw.replace(/^webcals?:\/\//i, 'https://'));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.username || url.password || !url.hostname ? null : url;
  } catch {
    return null;
  }
}

/**
 * Calendar sources for administrators (other roles 403, anonymous 401): the routes and the
 * command-line tool (`ctx` null) share these operations. Runs are the runner's.
 */
@Injectable()
export class SourcesService {
  private readonly outbound: OutboundConfig;
  private readonly lists: ListsConfig;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly editions: Editions,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.outbound = config.getOrThrow<OutboundConfig>('outbound');
    this.lists = config.getOrThrow<ListsConfig>('lists');
  }

  private get sources() {
    return this.dataSource.getRepository(CalendarSourceEntity);
  }

  /** 401 for anonymous requests, 403 for every role but administrator; the CLI (null) may. */
  assertAdministrator(ctx: RequestContext | null): void {
    if (ctx && ctx.user?.role !== 'administrator') throw ApiError.forbidden(ctx.user !== null);
  }

  async list(query: PageQueryDto, ctx: RequestContext) {
    ParamProblems.from(query).throwIfAny(['page', 'per_page']);
    this.assertAdministrator(ctx);
    const paging = resolvePaging(query, this.lists);
    const [rows, total] = await this.sources.findAndCount({ order: { id: 'ASC' }, skip: paging.offset, take: paging.perPage });
    const pages = totalPages(total, paging.perPage);
    const links = listLinks(`${ctx.api}/sources`, paging, pages, []);
    return {
      headers: { total, totalPages: pages },
      body: { sources: await this.views(rows, ctx.api), ...links, total, total_pages: pages },
    };
  }

  /** Every source with its latest run, for the command-line tool. */
  async all(): Promise<SourceResponse[]> {
    return this.views(await this.sources.find({ order: { id: 'ASC' } }), this.api(null));
  }

  async findOne(id: number, ctx: RequestContext | null): Promise<SourceResponse> {
    this.assertAdministrator(ctx);
    return (await this.views([await this.require(id)], this.api(ctx)))[0];
  }

  async create(input: SourceFieldsDto, ctx: RequestContext | null, author?: AuthUser): Promise<SourceResponse> {
    const url = await this.checkInput(input, ctx);
    const owner = ctx?.user ?? author;
    if (!owner) throw new Error('A source needs the user its events are written as.');
    const now = nowUtcWall();
    const saved = await this.sources.save(
      this.sources.create({
        url: url ?? '',
        refreshMinutes: input.refresh_minutes ?? 60,
        defaultCategories: input.default_categories ?? [],
        defaultTags: input.default_tags ?? [],
        defaultOrganizerId: input.default_organizer ?? null,
        defaultVenueId: input.default_venue ?? null,
        defaultStatus: input.default_status ?? 'publish',
        updateAuthority: input.update_authority ?? 'keep-local-edits',
        trashMissing: input.trash_missing ?? true,
        paused: input.paused ?? false,
        authorId: owner.id,
        etag: null,
        lastModified: null,
        // a new source is due at once: the scheduler of any process picks it up
        nextRunUtc: now,
        leaseUntilUtc: null,
        leaseToken: null,
        createdUtc: now,
        modifiedUtc: now,
      }),
    );
    return (await this.views([saved], this.api(ctx)))[0];
  }

  async update(id: number, input: SourceFieldsDto, ctx: RequestContext | null): Promise<SourceResponse> {
    const url = await this.checkInput(input, ctx);
    await this.require(id);
    // the next run reads the whole feed again (no conditional request), so that new settings reach every event
    const changes: Partial<CalendarSourceEntity> = { modifiedUtc: nowUtcWall(), etag: null, lastModified: null };
    if (url !== undefined) changes.url = url;
    if (input.refresh_minutes !== undefined) changes.refreshMinutes = input.refresh_minutes;
    if (input.default_categories !== undefined) changes.defaultCategories = input.default_categories;
    if (input.default_tags !== undefined) changes.defaultTags = input.default_tags;
    if (input.default_organizer !== undefined) changes.defaultOrganizerId = input.default_organizer;
    if (input.default_venue !== undefined) changes.defaultVenueId = input.default_venue;
    if (input.default_status !== undefined) changes.defaultStatus = input.default_status;
    if (input.update_authority !== undefined) changes.updateAuthority = input.update_authority;
    if (input.trash_missing !== undefined) changes.trashMissing = input.trash_missing;
    if (input.paused !== undefined) changes.paused = input.paused;
    await this.sources.update({ id }, changes);
    return this.findOne(id, ctx);
  }

  /** Removes the source with its runs and its record of which event each VEVENT became; the events stay. */
  async remove(id: number, ctx: RequestContext | null): Promise<SourceResponse> {
    this.assertAdministrator(ctx);
    const [view] = await this.views([await this.require(id)], this.api(ctx));
    await this.dataSource.transaction(async (manager) => {
      await manager.delete(CalendarSourceEventEntity, { sourceId: id });
      await manager.delete(CalendarSourceRunEntity, { sourceId: id });
      await manager.delete(CalendarSourceEntity, { id });
    });
    return view;
  }

  /** The newest runs of a source, for the command-line tool. */
  async recentRuns(id: number, count: number): Promise<SourceRunResponse[]> {
    await this.require(id);
    const rows = await this.dataSource
      .getRepository(CalendarSourceRunEntity)
      .find({ where: { sourceId: id }, order: { id: 'DESC' }, take: count });
    return rows.map(runView);
  }

  /** Makes a source due now (the command line's run): the scheduler of a running server runs it at its next look. */
  async markDue(id: number): Promise<SourceResponse> {
    await this.require(id);
    await this.sources.update({ id }, { nextRunUtc: nowUtcWall() });
    return this.findOne(id, null);
  }

  async require(id: number): Promise<CalendarSourceEntity> {
    const found = isRowId(id) ? await this.sources.findOneBy({ id }) : null;
    if (!found) throw new ApiError(404, ErrorCode.SourceNotFound, { id });
    return found;
  }

  /**
   * Checks every field (400 naming each bad one: the URL, ids that name nothing), then the requester
   * (401/403), then resolves the feed's host name (only administrators make the server look names
   * up). Returns the URL to store.
   */
  private async checkInput(input: SourceFieldsDto, ctx: RequestContext | null): Promise<string | undefined> {
    const problems = ParamProblems.from(input);
    let url: URL | null = null;
    if (input.url !== undefined && !problems.has('url')) {
      url = feedUrl(input.url);
      if (!url) problems.add('url', 'source_url');
      else if (literalAddress(url) !== null) {
        // the feed's host checked as a webhook target is: the same guard, the same problems named
        const problem = await targetProblem(url, this.outbound);
        if (problem) problems.add('url', problem);
      }
    }
    await this.checkExisting(input, problems);
    problems.throwIfAny(FIELD_ORDER);
    this.assertAdministrator(ctx);
    if (url && literalAddress(url) === null) {
      const problem = await targetProblem(url, this.outbound);
      if (problem) throw ApiError.invalidParam('url', problem);
    }
    return url ? url.toString() : undefined;
  }

  /** Default categories, tags, organizer and venue must exist (and not be in the trash). */
  private async checkExisting(input: SourceFieldsDto, problems: ParamProblems): Promise<void> {
    const manager = this.dataSource.manager;
    for (const [param, entity, key] of [
      ['default_categories', CategoryEntity, 'unknown_category_id'],
      ['default_tags', TagEntity, 'unknown_tag_id'],
    ] as const) {
      const ids = input[param];
      if (!ids || ids.length === 0 || problems.has(param)) continue;
      const found = await manager.countBy(entity, { id: In(ids) });
      if (found !== ids.length) problems.add(param, key);
    }
    for (const [param, entity, key] of [
      ['default_organizer', OrganizerEntity, 'unknown_organizer'],
      ['default_venue', VenueEntity, 'unknown_venue'],
    ] as const) {
      const id = input[param];
      if (id === undefined || id === null || problems.has(param)) continue;
      const item = await manager.findOneBy(entity, { id });
      if (!item || item.status === 'trash') problems.add(param, key);
    }
  }

  private api(ctx: RequestContext | null): string {
    return ctx?.api ?? this.editions.api(this.editions.defaultEdition);
  }

  private async views(rows: CalendarSourceEntity[], api: string): Promise<SourceResponse[]> {
    if (rows.length === 0) return [];
    const runs = this.dataSource.getRepository(CalendarSourceRunEntity);
    const latest = await Promise.all(rows.map((row) => runs.findOne({ where: { sourceId: row.id }, order: { id: 'DESC' } })));
    return rows.map((row, index) => sourceView(row, latest[index], api));
  }
}
