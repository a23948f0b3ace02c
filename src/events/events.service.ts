import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { CostConfig, EventsConfig, ListsConfig } from '../config/app-config.js';
import { canCreate, canReadItem, canWriteItem, mayFilterByStatus } from '../common/auth/permissions.js';
import { defaultListWindow, wholeDayEnd, wholeDayStart } from '../common/dates/list-window.js';
import { parseDateInput } from '../common/dates/parse-date.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { ApiError, ParamProblems } from '../common/errors/api-error.js';
import { isDatabaseUnavailable, retryOnConflict } from '../common/errors/db-errors.js';
import type { AuthUser, RequestContext } from '../common/http/request-context.js';
import { listLinks, resolvePaging, totalPages, type LinkValue } from '../common/paging/paging.js';
import { sanitizeRichText, stripTags } from '../common/text/html.js';
import { eventSearchTerms } from '../common/text/search-terms.js';
import { containsPattern, LIKE_ESCAPE } from '../common/sql/like.js';
import { freeSlug } from '../common/sql/free-slug.js';
import { sanitizeSlug } from '../common/text/slug.js';
import { CategoriesService } from '../categories/categories.service.js';
import { ImagesService } from '../images/images.service.js';
import type { ItemStatus } from '../common/auth/item-status.js';
import { ItemsService } from '../items/items.service.js';
import type { ItemRef } from '../items/linked-items.service.js';
import { passwordUnlocks, redact } from '../items/protection.js';
import { defaultCreateStatus, expandStatusFilter, isPublicationStatus, storedStatus } from '../items/status-rules.js';
import { mayWriteCondition, visibleCondition } from '../items/visibility.js';
import { CreateOrganizerDto } from '../organizers/dto/create-organizer.dto.js';
import { OrganizerEntity } from '../organizers/organizer.entity.js';
import { OrganizersService } from '../organizers/organizers.service.js';
import { TagsService } from '../tags/tags.service.js';
import { CreateVenueDto } from '../venues/dto/create-venue.dto.js';
import { VenueEntity } from '../venues/venue.entity.js';
import { hasCoordinates } from '../venues/venue.mapper.js';
import { VenuesService } from '../venues/venues.service.js';
import type { LinkInput } from './dto/relation-inputs.js';
import type { ListEventsQueryDto } from './dto/list-events.query.js';
import type { UpdateEventDto } from './dto/update-event.dto.js';
import { detectCurrency } from './event-cost.js';
import { resolveEventDates } from './event-dates.js';
import { EventOrganizerEntity } from './event-organizer.entity.js';
import { EventEntity } from './event.entity.js';
import { keepingTermCounts, moveTermCounts, NO_CONTRIBUTION, termContribution } from '../terms/term-counts.js';
import { EVENT_REDACTIONS, toEventPayload, type EventMapperSettings, type EventRelations } from './event.mapper.js';
import type { EventResponse } from './event.response.js';
import { wallToDate } from '../common/sql/columns.js';
import { ErrorCode, ItemErrorCode } from '../common/errors/error-codes.js';

const WRITE_ORDER = [
  'title',
  'description',
  'excerpt',
  'slug',
  'status',
  'author',
  'date',
  'date_utc',
  'timezone',
  'all_day',
  'start_date',
  'end_date',
  'image',
  'cost',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'categories',
  'tags',
  'venue',
  'organizer',
  'post_parent',
  'post_password',
  'custom_fields',
];
const LIST_ORDER = [
  'page',
  'per_page',
  'start_date',
  'end_date',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
  'strict_dates',
  'search',
  'categories',
  'tags',
  'venue',
  'organizer',
  'featured',
  'status',
  'geoloc',
  'geoloc_lat',
  'geoloc_lng',
  'include',
  'post_parent',
  'ticketed',
];
const EARTH_RADIUS_KM = 6371;

type DateFilterName = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after';
const DATE_FILTERS: Array<[DateFilterName, string, string]> = [
  ['start_date', 'start_local', '>='],
  ['end_date', 'end_local', '<='],
  ['starts_before', 'start_local', '<'],
  ['starts_after', 'start_local', '>'],
  ['ends_before', 'end_local', '<'],
  ['ends_after', 'end_local', '>'],
];

/** How much later than its end wall time an event's start wall time can be (a zone's offset change). */
const START_CEILING_MARGIN_MS = 2 * 86_400_000;

/** Planned links of an event write, resolved inside its transaction. */
interface LinkPlan {
  venue?: (manager: EntityManager, user: AuthUser) => Promise<number | null>;
  organizers?: Array<(manager: EntityManager, user: AuthUser) => Promise<number>>;
}

/** Events: the list and its filters (spec §9.4), single reads (§10.1) and writes (§11.2-11.6). */
@Injectable()
export class EventsService {
  private readonly lists: ListsConfig;
  private readonly settings: Omit<EventMapperSettings, 'api'>;
  private readonly events: EventsConfig;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly items: ItemsService,
    private readonly images: ImagesService,
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
    private readonly categories: CategoriesService,
    private readonly tags: TagsService,
    config: ConfigService,
  ) {
    this.lists = config.getOrThrow<ListsConfig>('lists');
    this.events = config.getOrThrow<EventsConfig>('events');
    this.settings = { site: items.site, cost: config.getOrThrow<CostConfig>('cost'), customFields: this.events.customFields };
  }

  // ---------------------------------------------------------------- list

  async list(query: ListEventsQueryDto, ctx: RequestContext) {
    await this.items.publishDueItems();
    const { user } = ctx;
    const now = new Date();
    const problems = ParamProblems.from(query);
    const siteZone = this.items.site.siteTimezone;

    const statusWords = query.status ?? [mayFilterByStatus(user) ? 'any' : 'publish'];
    const statuses = expandStatusFilter(statusWords);
    if (!statuses || (!mayFilterByStatus(user) && (statusWords.length !== 1 || statusWords[0] !== 'publish')))
      problems.add('status', 'status');

    const strict = query.strict_dates ?? false;
    const dates: Partial<Record<DateFilterName, string>> = {};
    for (const [name] of DATE_FILTERS) {
      const raw = query[name];
      if (raw === undefined) continue;
      const parsed = parseDateInput(raw, siteZone, now);
      if (!parsed) problems.add(name, 'date');
      else dates[name] = strict ? parsed.wall : name === 'start_date' ? wholeDayStart(parsed.wall) : wholeDayEnd(parsed.wall);
    }
    const usesInclude = query.include !== undefined;
    const anyRelative = ['starts_before', 'starts_after', 'ends_before', 'ends_after'].some(
      (name) => query[name as DateFilterName] !== undefined,
    );
    if (!usesInclude && !anyRelative) {
      const window = defaultListWindow(siteZone, now);
      dates.start_date ??= window.start;
      dates.end_date ??= window.end;
    }

    const allCategories = query.categories ? await this.dataSource.getRepository(this.categories.definition.entity).find() : [];
    const allTags = query.tags ? await this.dataSource.getRepository(this.tags.definition.entity).find() : [];
    const categoryIds = query.categories ? this.categories.resolveRefs(query.categories, allCategories, 'categories', problems) : undefined;
    const tagIds = query.tags ? this.tags.resolveRefs(query.tags, allTags, 'tags', problems) : undefined;
    if (query.venue && !(await this.allLinkable(VenueEntity, query.venue))) problems.add('venue', 'unknown_venue');
    if (query.organizer && !(await this.allLinkable(OrganizerEntity, query.organizer))) problems.add('organizer', 'unknown_organizer');
    const hasLat = query.geoloc_lat !== undefined && query.geoloc_lat !== null;
    const hasLng = query.geoloc_lng !== undefined && query.geoloc_lng !== null;
    if (hasLat !== hasLng) problems.add(hasLat ? 'geoloc_lng' : 'geoloc_lat', 'geoloc_pair');
    if (query.post_parent !== undefined && !(await this.isLiveEvent(query.post_parent))) problems.add('post_parent', 'unknown_event');
    problems.throwIfAny(LIST_ORDER);

    const builder = this.dataSource.getRepository(EventEntity).createQueryBuilder('e');
    builder.where('e.hide_from_listings = :hidden', { hidden: false });
    builder.andWhere(visibleCondition('e', user, statuses as ItemStatus[]).sql);
    if (!usesInclude) {
      DATE_FILTERS.forEach(([name, column, operator]) => {
        const value = dates[name];
        if (value !== undefined) builder.andWhere(`e.${column} ${operator} :${name}`, { [name]: wallToDate(value) });
      });
      // Redundant for the result, but it bounds the index range the count and the page scan: an event
      // ends after it starts, so its start wall time is at most a zone-offset change (well under two
      // days) later than its end wall time.
      const endCeiling = [dates.end_date, dates.ends_before].filter((value): value is string => value !== undefined).sort()[0];
      if (endCeiling !== undefined)
        builder.andWhere('e.start_local < :start_ceiling', {
          start_ceiling: new Date(wallToDate(endCeiling).getTime() + START_CEILING_MARGIN_MS),
        });
    } else {
      builder.andWhere('e.id IN (:...include)', { include: query.include });
    }
    if (query.search !== undefined) this.whereSearch(builder, query.search, user);
    if (categoryIds) this.whereTerms(builder, 'event_categories', 'category_id', await this.categories.withDescendants(categoryIds), 'cat');
    if (tagIds) this.whereTerms(builder, 'event_tags', 'tag_id', tagIds, 'tag');
    if (query.venue) builder.andWhere('e.venue_id IN (:...venues)', { venues: query.venue });
    if (query.organizer) {
      builder.andWhere('EXISTS (SELECT 1 FROM event_organizers eo WHERE eo.event_id = e.id AND eo.organizer_id IN (:...organizers))', {
        organizers: query.organizer,
      });
    }
    if (query.featured !== undefined) builder.andWhere('e.featured = :featured', { featured: query.featured });
    if (query.geoloc !== undefined) {
      const located =
        'EXISTS (SELECT 1 FROM venues gv WHERE gv.id = e.venue_id AND gv.geo_lat IS NOT NULL AND gv.geo_lng IS NOT NULL AND NOT (gv.geo_lat = 0 AND gv.geo_lng = 0))';
      builder.andWhere(query.geoloc ? located : `NOT ${located}`);
    }
    if (hasLat && hasLng) {
      const nearby = await this.venuesNear(query.geoloc_lat as number, query.geoloc_lng as number);
      builder.andWhere(nearby.length > 0 ? 'e.venue_id IN (:...nearby)' : '1 = 0', { nearby });
    }
    if (query.post_parent !== undefined) builder.andWhere('e.parent_id = :parent', { parent: query.post_parent });

    const paging = resolvePaging(query, this.lists);
    const total = await builder.getCount();
    // The page is found as ids first: a query the listing index covers, read in index order from the
    // window's start (MariaDB would otherwise walk the index from the calendar's first event when it
    // must fetch whole rows), then those rows by primary key.
    const pageIds = await builder
      .select('e.id', 'id')
      .orderBy(usesInclude ? 'e.date_utc' : 'e.start_local', 'ASC')
      .addOrderBy('e.id', 'ASC')
      .offset(paging.offset)
      .limit(paging.perPage)
      .getRawMany<{ id: number | string }>()
      .then((found) => found.map((row) => Number(row.id)));
    const byId = new Map(
      (pageIds.length > 0 ? await this.dataSource.getRepository(EventEntity).findBy({ id: In(pageIds) }) : []).map((event) => [
        event.id,
        event,
      ]),
    );
    const rows = pageIds.map((id) => byId.get(id)).filter((event): event is EventEntity => event !== undefined);
    if (paging.page > 1 && rows.length === 0) throw new ApiError(404, ItemErrorCode.archivePageNotFound('event'));
    const pages = totalPages(total, paging.perPage);
    const payloads = await this.payloads(rows, ctx, query.password, false);
    const echo: Array<[string, LinkValue]> = [
      ['start_date', usesInclude ? undefined : dates.start_date],
      ['end_date', usesInclude ? undefined : dates.end_date],
      ['search', query.search],
      ['status', statusWords],
      ['post_parent', query.post_parent],
      ['include', query.include],
      ['starts_before', usesInclude ? undefined : dates.starts_before],
      ['starts_after', usesInclude ? undefined : dates.starts_after],
      ['ends_before', usesInclude ? undefined : dates.ends_before],
      ['ends_after', usesInclude ? undefined : dates.ends_after],
      ['ticketed', query.ticketed],
      ['venue', query.venue],
      ['organizer', query.organizer],
      ['featured', query.featured],
      ['categories', query.categories],
      ['tags', query.tags],
      ['strict_dates', query.strict_dates],
      ['geoloc', query.geoloc],
      ['geoloc_lat', query.geoloc_lat],
      ['geoloc_lng', query.geoloc_lng],
    ];
    const links = listLinks(`${ctx.api}/events`, paging, pages, echo);
    return { headers: { total, totalPages: pages }, body: { events: payloads, ...links, total, total_pages: pages } };
  }

  // ---------------------------------------------------------------- reads

  async findOne(ref: ItemRef, ctx: RequestContext, password: string | undefined) {
    await this.items.publishDueItems();
    const event = await this.requireEvent(ref);
    ctx.subject = event;
    if (event.status === 'trash') throw new ApiError(403, ErrorCode.EventNoLongerAvailable);
    if (!canReadItem(ctx.user, event)) throw new ApiError(403, ItemErrorCode.notAccessible('event'));
    if (this.isLocked(event, ctx.user, password)) throw new ApiError(403, ErrorCode.EventPasswordProtected);
    const [payload] = await this.payloads([event], ctx, password, true);
    return payload;
  }

  /**
   * The event of a path id or slug. By slug: unknown → 400 (slug). By id: unknown → 404, another
   * kind of item → 400 `rest-invalid-event-id` (spec §3.2, §10.1).
   */
  private async requireEvent(ref: ItemRef): Promise<EventEntity> {
    const repository = this.dataSource.getRepository(EventEntity);
    if ('slug' in ref) {
      const event = await repository.findOneBy({ slug: ref.slug });
      if (!event) throw ApiError.invalidParam('slug', 'unknown_event_slug');
      return event;
    }
    const kind = await this.items.kindOf(ref.id);
    if (kind === null) throw new ApiError(404, ErrorCode.EventNotFound, { id: ref.id });
    if (kind !== 'event') throw new ApiError(400, ErrorCode.InvalidEventId, { id: ref.id });
    const event = await repository.findOneBy({ id: ref.id });
    if (!event) throw new ApiError(404, ErrorCode.EventNotFound, { id: ref.id });
    return event;
  }

  private isLocked(event: EventEntity, user: AuthUser | null, password: string | undefined): boolean {
    return event.password !== null && event.password !== '' && !canWriteItem(user, event) && !passwordUnlocks(event.password, password);
  }

  /** Payloads of events with everything they embed, loaded in a fixed number of queries. */
  async payloads(
    events: EventEntity[],
    ctx: RequestContext,
    password: string | undefined,
    single: boolean,
    manager?: EntityManager,
  ): Promise<EventResponse[]> {
    if (events.length === 0) return [];
    const runner = manager ?? this.dataSource.manager;
    const ids = events.map((event) => event.id);
    const venueIds = [...new Set(events.map((event) => event.venueId).filter((id): id is number => id !== null))];
    const links = await runner.find(EventOrganizerEntity, { where: { eventId: In(ids) }, order: { position: 'ASC' } });
    const organizerIds = [...new Set(links.map((link) => link.organizerId))];
    const [venues, organizers, categories, tags] = await Promise.all([
      venueIds.length ? runner.findBy(VenueEntity, { id: In(venueIds) }) : [],
      organizerIds.length ? runner.findBy(OrganizerEntity, { id: In(organizerIds) }) : [],
      this.categories.embeddedTermsOfEvents(ids, ctx.api, manager),
      this.tags.embeddedTermsOfEvents(ids, ctx.api, manager),
    ]);
    const images = await this.images.payloads(
      [
        ...events.map((event) => event.imageId),
        ...venues.map((venue) => venue.imageId),
        ...organizers.map((organizer) => organizer.imageId),
      ],
      runner,
    );
    const venueById = new Map(venues.map((venue) => [venue.id, venue]));
    const organizerById = new Map(organizers.map((organizer) => [organizer.id, organizer]));
    const settings = { ...this.settings, api: ctx.api };
    return events.map((event) => {
      const locked = this.isLocked(event, ctx.user, password);
      const venue = event.venueId !== null ? venueById.get(event.venueId) : undefined;
      const venuePayload = venue ? this.venues.view(venue, images.get(venue.imageId ?? -1), ctx.user, password, single) : null;
      const organizerPayloads = links
        .filter((link) => link.eventId === event.id)
        .map((link) => organizerById.get(link.organizerId))
        .filter((organizer): organizer is OrganizerEntity => organizer !== undefined)
        .map((organizer) => this.organizers.view(organizer, images.get(organizer.imageId ?? -1), ctx.user, password, single));
      const relations: EventRelations = {
        image: event.imageId !== null ? images.get(event.imageId) : undefined,
        venue: venuePayload,
        venueJsonLd: venuePayload?.json_ld ?? null,
        organizers: organizerPayloads,
        firstOrganizerJsonLd: organizerPayloads[0]?.json_ld ?? null,
        categories: categories.get(event.id) ?? [],
        tags: tags.get(event.id) ?? [],
      };
      const payload = toEventPayload(event, relations, settings, single && !locked);
      return locked ? redact(payload, EVENT_REDACTIONS) : payload;
    });
  }

  // ---------------------------------------------------------------- writes

  async create(input: UpdateEventDto, ctx: RequestContext): Promise<{ id: number; body: EventResponse }> {
    const now = new Date();
    const problems = ParamProblems.from(input);
    const { dateUtc, dates, plan } = await this.validateWrite(input, null, ctx.user, now, problems);
    problems.throwIfAny(WRITE_ORDER);
    if (!canCreate('events', ctx.user)) throw ApiError.forbidden(ctx.user !== null);
    const user = ctx.user as AuthUser;
    const id = await this.writing('create', () =>
      this.dataSource.transaction(async (manager) => {
        const id = await this.items.allocateId(manager, 'event');
        const event = manager.create(EventEntity, {
          id,
          authorId: input.author ?? user.id,
          description: '',
          excerpt: '',
          password: null,
          imageId: null,
          preTrashStatus: null,
          cost: null,
          costSymbol: '',
          costPosition: '',
          website: null,
          showMap: false,
          showMapLink: false,
          hideFromListings: false,
          sticky: false,
          featured: false,
          venueId: null,
          parentId: null,
          customFields: null,
        });
        await this.fill(event, input, user, manager, { now, dateUtc, dates, plan, isCreate: true });
        await manager.insert(EventEntity, event);
        await this.link(event.id, input, plan, user, manager, true);
        await moveTermCounts(manager, NO_CONTRIBUTION, await termContribution(manager, [id]));
        return id;
      }),
    );
    await this.items.dataChanged();
    const created = await this.dataSource.getRepository(EventEntity).findOneByOrFail({ id });
    ctx.subject = created;
    const [body] = await this.payloads([created], ctx, undefined, false);
    return { id, body };
  }

  async update(ref: ItemRef, input: UpdateEventDto, ctx: RequestContext): Promise<EventResponse> {
    const now = new Date();
    const target = await this.itemForPermission(ref);
    if (target && target.kind === 'event') ctx.subject = target.event;
    const problems = ParamProblems.from(input);
    const { dateUtc, dates, plan } = await this.validateWrite(
      input,
      target?.kind === 'event' ? target.event : null,
      ctx.user,
      now,
      problems,
    );
    problems.throwIfAny(WRITE_ORDER);
    this.assertMayWrite(target, ctx.user);
    const event = await this.requireEvent(ref);
    const user = ctx.user as AuthUser;
    await this.writing('update', () =>
      this.dataSource.transaction((manager) =>
        keepingTermCounts(manager, [event.id], async () => {
          const entity = manager.create(EventEntity, { ...event });
          await this.fill(entity, input, user, manager, { now, dateUtc, dates, plan, isCreate: false, previous: event });
          await manager.save(EventEntity, entity);
          await this.link(entity.id, input, plan, user, manager, false);
        }),
      ),
    );
    await this.items.dataChanged();
    const updated = await this.dataSource.getRepository(EventEntity).findOneByOrFail({ id: event.id });
    ctx.subject = updated;
    const [body] = await this.payloads([updated], ctx, undefined, false);
    return body;
  }

  async remove(ref: ItemRef, ctx: RequestContext): Promise<EventResponse> {
    const target = await this.itemForPermission(ref);
    if (target && target.kind === 'event') ctx.subject = target.event;
    this.assertMayWrite(target, ctx.user);
    const event = await this.requireEvent(ref);
    if (event.status === 'trash') throw new ApiError(410, ItemErrorCode.inTrash('event'));
    await this.writing('delete', () =>
      this.dataSource.transaction((manager) =>
        keepingTermCounts(manager, [event.id], async () => {
          const slug = await this.items.trashedSlug(manager, 'events', event.slug, event.id);
          await manager.update(
            EventEntity,
            { id: event.id },
            { status: 'trash', preTrashStatus: event.status, slug, modifiedUtc: nowUtcWall() },
          );
        }),
      ),
    );
    await this.items.dataChanged();
    const trashed = await this.dataSource.getRepository(EventEntity).findOneByOrFail({ id: event.id });
    ctx.subject = trashed;
    const [body] = await this.payloads([trashed], ctx, undefined, false);
    return body;
  }

  /**
   * The record the permission check of an update or delete looks at (spec §4.6 step 7): the event,
   * another kind of item, or nothing (then the general "may create events" check applies).
   */
  private async itemForPermission(
    ref: ItemRef,
  ): Promise<
    | { kind: 'event'; event: EventEntity }
    | { kind: 'other'; item: { authorId: number; status: ItemStatus; preTrashStatus: ItemStatus | null } }
    | null
  > {
    if ('slug' in ref) {
      const event = await this.dataSource.getRepository(EventEntity).findOneBy({ slug: ref.slug });
      if (!event) throw ApiError.invalidParam('slug', 'unknown_event_slug');
      return { kind: 'event', event };
    }
    const kind = await this.items.kindOf(ref.id);
    if (kind === 'event') {
      const event = await this.dataSource.getRepository(EventEntity).findOneBy({ id: ref.id });
      return event ? { kind: 'event', event } : null;
    }
    if (kind === 'venue' || kind === 'organizer') {
      const entity = kind === 'venue' ? VenueEntity : OrganizerEntity;
      const item = await this.dataSource.getRepository(entity).findOneBy({ id: ref.id });
      return item ? { kind: 'other', item } : null;
    }
    if (kind === 'image') return { kind: 'other', item: { authorId: 0, status: 'publish', preTrashStatus: null } };
    return null;
  }

  private assertMayWrite(target: Awaited<ReturnType<EventsService['itemForPermission']>>, user: AuthUser | null): void {
    const allowed = target === null ? canCreate('events', user) : canWriteItem(user, target.kind === 'event' ? target.event : target.item);
    if (!allowed) throw ApiError.forbidden(user !== null);
  }

  /** Every check of an event write that needs no permission: dates, author, image, links, terms, fields. */
  private async validateWrite(
    input: UpdateEventDto,
    current: EventEntity | null,
    user: AuthUser | null,
    now: Date,
    problems: ParamProblems,
  ) {
    if (input.slug !== undefined && sanitizeSlug(input.slug) === '') problems.add('slug', 'not_empty');
    if (input.author !== undefined && !(await this.items.userExists(input.author))) problems.add('author', 'author');
    const dateUtc = this.items.publicationDate(input, problems, now);
    const touchesDates = [input.timezone, input.all_day, input.start_date, input.end_date].some((value) => value !== undefined);
    const dates =
      current === null || touchesDates ? resolveEventDates(input, current, this.items.site.siteTimezone, now, problems) : undefined;
    if (input.image !== undefined && !(await this.images.acceptable(input.image, user))) problems.add('image', 'image');
    if (input.categories) await this.categories.checkEventRefs(input.categories, 'categories', problems);
    if (input.tags) await this.tags.checkEventRefs(input.tags, 'tags', problems);
    const plan: LinkPlan = {};
    if (input.venue !== undefined) {
      const link = input.venue === null ? null : await this.planLink(input.venue, 'venue', user, now);
      if (link === undefined) problems.add('venue', 'unknown_venue');
      else plan.venue = link === null ? async () => null : link;
    }
    if (input.organizer !== undefined) {
      const planned = await Promise.all(input.organizer.map((element) => this.planLink(element, 'organizer', user, now)));
      if (planned.some((link) => link === undefined || link === null)) problems.add('organizer', 'unknown_organizer');
      else plan.organizers = planned as Array<(manager: EntityManager, author: AuthUser) => Promise<number>>;
    }
    if (input.post_parent !== undefined && input.post_parent !== null) {
      if ((current && input.post_parent === current.id) || !(await this.isLiveEvent(input.post_parent)))
        problems.add('post_parent', 'unknown_event');
    }
    if (input.custom_fields) {
      const defined = new Set(this.events.customFields.map((field) => field.key));
      const unknown = Object.keys(input.custom_fields).find((key) => !defined.has(key));
      if (unknown !== undefined) problems.add('custom_fields', 'custom_field', { value: unknown });
    }
    return { dateUtc, dates, plan };
  }

  /** An id link to check now, or an inline venue/organizer to reuse or create in the transaction. */
  private async planLink(link: LinkInput, kind: 'venue' | 'organizer', user: AuthUser | null, now: Date) {
    const service = kind === 'venue' ? this.venues : this.organizers;
    if (link.kind === 'id') return (await service.isLinkable(link.id)) ? async () => link.id : undefined;
    const inline = kind === 'venue' ? { ...link.data, stateprovince: link.data.stateprovince ?? link.data.stateProvince } : link.data;
    const create =
      kind === 'venue'
        ? await this.venues.prepareInline(inline, CreateVenueDto, user, now)
        : await this.organizers.prepareInline(inline, CreateOrganizerDto, user, now);
    return create ?? undefined;
  }

  private async fill(
    event: EventEntity,
    input: UpdateEventDto,
    user: AuthUser,
    manager: EntityManager,
    context: {
      now: Date;
      dateUtc: string | undefined;
      dates: ReturnType<typeof resolveEventDates>;
      plan: LinkPlan;
      isCreate: boolean;
      previous?: EventEntity;
    },
  ): Promise<void> {
    const nowUtc = nowUtcWall(context.now);
    if (input.title !== undefined) event.title = stripTags(input.title);
    if (input.author !== undefined) event.authorId = input.author;
    if (input.description !== undefined) event.description = sanitizeRichText(input.description);
    if (input.excerpt !== undefined) event.excerpt = sanitizeRichText(input.excerpt);
    if (input.post_password !== undefined) event.password = input.post_password === '' ? null : input.post_password;
    if (input.image !== undefined) event.imageId = (await this.images.resolve(input.image, user, manager)) ?? null;
    if (context.dates) Object.assign(event, context.dates);
    if (input.cost !== undefined) {
      event.cost = input.cost.length > 0 ? input.cost : null;
      const currency = detectCurrency(input.cost, this.settings.cost.decimalSeparator);
      event.costSymbol = currency.symbol;
      event.costPosition = currency.position;
    }
    if (input.website !== undefined) event.website = input.website === '' ? null : input.website;
    for (const [field, property] of [
      ['show_map', 'showMap'],
      ['show_map_link', 'showMapLink'],
      ['hide_from_listings', 'hideFromListings'],
      ['sticky', 'sticky'],
      ['featured', 'featured'],
    ] as const) {
      if (input[field] !== undefined) event[property] = input[field] as boolean;
    }
    if (input.post_parent !== undefined) event.parentId = input.post_parent;
    if (input.custom_fields !== undefined) {
      const values = { ...(event.customFields ?? {}) };
      for (const [key, value] of Object.entries(input.custom_fields)) {
        if (value === null) delete values[key];
        else values[key] = value;
      }
      event.customFields = Object.keys(values).length > 0 ? values : null;
    }
    if (context.plan.venue) event.venueId = await context.plan.venue(manager, user);

    const requested = input.status ?? (context.isCreate ? defaultCreateStatus(user) : undefined);
    const explicitDate = context.dateUtc !== undefined;
    if (explicitDate) {
      event.dateUtc = context.dateUtc as string;
      event.dateFloating = false;
    } else if (context.isCreate) {
      event.dateUtc = nowUtc;
      event.dateFloating = true;
    }
    if (requested !== undefined) {
      if (!explicitDate && event.dateFloating && isPublicationStatus(requested)) event.dateUtc = nowUtc;
      event.status = storedStatus(requested, user, event.dateUtc, nowUtc);
      if (context.previous?.status === 'trash') {
        event.preTrashStatus = null;
        event.slug = await this.items.restoredSlug(manager, 'events', event.slug, event.id);
      }
    }
    if (!explicitDate && event.dateFloating && event.status !== 'draft' && event.status !== 'pending') event.dateFloating = false;
    if (context.isCreate) {
      event.slug = await this.items.slugFor(manager, 'events', input.slug, event.title, event.id);
    } else if (input.slug !== undefined) {
      const slug = await freeSlug(manager, 'events', sanitizeSlug(input.slug), event.id);
      event.slug = event.status === 'trash' ? await this.items.trashedSlug(manager, 'events', slug, event.id) : slug;
    }
    event.modifiedUtc = nowUtc;
  }

  /** Organizers and terms of the event; a list sent replaces the previous one. */
  private async link(
    eventId: number,
    input: UpdateEventDto,
    plan: LinkPlan,
    user: AuthUser,
    manager: EntityManager,
    isCreate: boolean,
  ): Promise<void> {
    if (plan.organizers) {
      const ids: number[] = [];
      for (const resolve of plan.organizers) {
        const id = await resolve(manager, user);
        if (!ids.includes(id)) ids.push(id);
      }
      if (!isCreate) await manager.delete(EventOrganizerEntity, { eventId });
      if (ids.length > 0)
        await manager.insert(
          EventOrganizerEntity,
          ids.map((organizerId, position) => ({ eventId, organizerId, position })),
        );
    }
    for (const [refs, service] of [
      [input.categories, this.categories],
      [input.tags, this.tags],
    ] as const) {
      if (refs === undefined) continue;
      const ids = await service.resolveEventRefs(manager, refs);
      await service.lockForLinking(manager, ids);
      const { joinTable, joinColumn } = service.definition;
      if (!isCreate) await manager.createQueryBuilder().delete().from(joinTable).where('event_id = :eventId', { eventId }).execute();
      if (ids.length > 0) {
        await manager
          .createQueryBuilder()
          .insert()
          .into(joinTable)
          .values(ids.map((termId) => ({ event_id: eventId, [joinColumn]: termId })))
          .execute();
      }
    }
  }

  /** Storage failures of writes are 500 with the operation's own code (spec §12.2); lost races are retried. */
  private async writing<T>(operation: 'create' | 'update' | 'delete', work: () => Promise<T>): Promise<T> {
    try {
      return await retryOnConflict(work);
    } catch (error) {
      if (error instanceof ApiError || isDatabaseUnavailable(error)) throw error;
      throw Object.assign(new ApiError(500, ItemErrorCode.couldNot(operation, 'event')), { cause: error });
    }
  }

  // ---------------------------------------------------------------- helpers

  private whereSearch(builder: SelectQueryBuilder<EventEntity>, search: string, user: AuthUser | null): void {
    const { include, exclude } = eventSearchTerms(search);
    if (include.length === 0 && exclude.length === 0) return;
    const contains = (name: string) =>
      `(${['e.title', 'e.description', 'e.excerpt'].map((column) => `LOWER(${column}) LIKE :${name} ${LIKE_ESCAPE}`).join(' OR ')})`;
    const pattern = containsPattern;
    include.forEach((term, index) => builder.andWhere(contains(`inc${index}`), { [`inc${index}`]: pattern(term) }));
    exclude.forEach((term, index) => builder.andWhere(`NOT ${contains(`exc${index}`)}`, { [`exc${index}`]: pattern(term) }));
    builder.andWhere(`(e.password IS NULL OR e.password = '' OR ${mayWriteCondition('e', user).sql})`);
  }

  private whereTerms(builder: SelectQueryBuilder<EventEntity>, table: string, column: string, ids: number[], name: string): void {
    builder.andWhere(
      new Brackets((inner) => {
        inner.where(
          ids.length > 0
            ? `EXISTS (SELECT 1 FROM ${table} ${name} WHERE ${name}.event_id = e.id AND ${name}.${column} IN (:...${name}Ids))`
            : '1 = 0',
          {
            [`${name}Ids`]: ids,
          },
        );
      }),
    );
  }

  /** Venues within `GEOFENCE_RADIUS_KM` of a point (great-circle distance). */
  private async venuesNear(lat: number, lng: number): Promise<number[]> {
    const venues = await this.dataSource
      .getRepository(VenueEntity)
      .createQueryBuilder('v')
      .select(['v.id', 'v.geoLat', 'v.geoLng'])
      .where("v.status <> 'trash' AND v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL")
      .getMany();
    const radians = (degrees: number) => (degrees * Math.PI) / 180;
    return venues
      .filter((venue) => hasCoordinates(venue))
      .filter((venue) => {
        const dLat = radians((venue.geoLat as number) - lat);
        const dLng = radians((venue.geoLng as number) - lng);
        const a = Math.sin(dLat / 2) ** 2 + Math.cos(radians(lat)) * Math.cos(radians(venue.geoLat as number)) * Math.sin(dLng / 2) ** 2;
        return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a))) <= this.events.geofenceRadiusKm;
      })
      .map((venue) => venue.id);
  }

  private async allLinkable(entity: typeof VenueEntity | typeof OrganizerEntity, ids: number[]): Promise<boolean> {
    const found = await this.dataSource
      .getRepository(entity)
      .createQueryBuilder('i')
      .where('i.id IN (:...ids)', { ids })
      .andWhere("i.status <> 'trash'")
      .getCount();
    return found === ids.length;
  }

  private async isLiveEvent(id: number): Promise<boolean> {
    const event = Number.isSafeInteger(id) && id > 0 ? await this.dataSource.getRepository(EventEntity).findOneBy({ id }) : null;
    return event !== null && event.status !== 'trash';
  }
}
