import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type SelectQueryBuilder } from 'typeorm';
import type { EventsConfig, ListsConfig } from '../config/app-config.js';
import { canReadItem, mayFilterByStatus } from '../common/auth/permissions.js';
import type { ItemStatus } from '../common/auth/item-status.js';
import { ApiError, ParamProblems } from '../common/errors/api-error.js';
import { ItemErrorCode } from '../common/errors/error-codes.js';
import type { RequestContext } from '../common/http/request-context.js';
import { listLinks, resolvePaging, totalPages, type LinkValue, type Paging } from '../common/paging/paging.js';
import { CategoriesService } from '../categories/categories.service.js';
import { ItemsService } from '../items/items.service.js';
import {
  applyListOrder,
  listOrder,
  modifiedWindow,
  type ListOrder,
  orderAndModifiedEcho,
  whereModified,
} from '../common/paging/list-order.js';
import { expandStatusFilter } from '../items/status-rules.js';
import { visibleCondition } from '../items/visibility.js';
import { OrganizerEntity } from '../organizers/organizer.entity.js';
import { TagsService } from '../tags/tags.service.js';
import { VenueEntity } from '../venues/venue.entity.js';
import { hasCoordinates } from '../venues/venue.mapper.js';
import type { ListEventsQueryDto } from './dto/list-events.query.js';
import { ContentTranslationsService } from '../translations/content-translations.service.js';
import { EventPayloadsService } from './event-payloads.service.js';
import { EventReadsService } from './event-reads.service.js';
import { collapsedSeriesPage } from './collapsed-series-list.js';
import { isWithinRadius, whereLocated, whereSearch, whereTerms } from './event-list-conditions.js';
import { listDates, whereListDates } from './event-list-dates.js';
import { EventEntity } from './event.entity.js';

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
  'missing_translation',
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
  'orderby',
  'order',
  'modified_after',
  'modified_before',
  'collapse',
];

/**
 * `GET /events` (spec §9.4): the filters checked, one query built from them, the page read in index
 * order, the links echoing the filters.
 */
@Injectable()
export class EventListService {
  private readonly lists: ListsConfig;
  private readonly events: EventsConfig;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly items: ItemsService,
    private readonly categories: CategoriesService,
    private readonly tags: TagsService,
    private readonly reads: EventReadsService,
    private readonly payloads: EventPayloadsService,
    private readonly translations: ContentTranslationsService,
    config: ConfigService,
  ) {
    this.lists = config.getOrThrow<ListsConfig>('lists');
    this.events = config.getOrThrow<EventsConfig>('events');
  }

  /** One page of the list, with its links and totals. */
  async list(query: ListEventsQueryDto, ctx: RequestContext) {
    const { total, ids: pageIds, paging, echo } = await this.select(query, ctx);
    const rows = await this.rowsOf(pageIds);
    if (paging.page > 1 && rows.length === 0) throw new ApiError(404, ItemErrorCode.archivePageNotFound('event'));
    const pages = totalPages(total, paging.perPage);
    const payloads = await this.payloads.of(rows, ctx, query.password, false);
    const links = listLinks(`${ctx.api}/events`, paging, pages, echo);
    return { headers: { total, totalPages: pages }, body: { events: payloads, ...links, total, total_pages: pages } };
  }

  /**
   * The ids of one window of the list, in its order, and the list's total: the calendar feed reads
   * its events this way, then their payloads a slice at a time ({@link payloadsOf}).
   */
  async ids(query: ListEventsQueryDto, ctx: RequestContext, window: Paging): Promise<{ total: number; ids: number[] }> {
    const { total, ids } = await this.select(query, ctx, window);
    return { total, ids };
  }

  /**
   * The payloads of events by id, in the order given. An id no longer found, or an event the reader
   * may no longer read (made a draft or private, or trashed, since its id was read), is left out.
   */
  async payloadsOf(ids: number[], ctx: RequestContext, password: string | undefined) {
    const readable = (await this.rowsOf(ids)).filter((event) => canReadItem(ctx.user, event));
    return this.payloads.of(readable, ctx, password, false);
  }

  private async rowsOf(ids: number[]): Promise<EventEntity[]> {
    if (ids.length === 0) return [];
    const byId = new Map((await this.dataSource.getRepository(EventEntity).findBy({ id: In(ids) })).map((event) => [event.id, event]));
    return ids.map((id) => byId.get(id)).filter((event): event is EventEntity => event !== undefined);
  }

  /**
   * The filters checked, the query built from them, and one page of ids with the total; `window`
   * replaces the page the query asks for. Also the values the page's links echo.
   */
  private async select(query: ListEventsQueryDto, ctx: RequestContext, window?: Paging) {
    await this.items.publishDueItems();
    const { user } = ctx;
    const now = new Date();
    const problems = ParamProblems.from(query);
    const siteZone = this.items.site.siteTimezone;

    const statusWords = query.status ?? [mayFilterByStatus(user) ? 'any' : 'publish'];
    const statuses = expandStatusFilter(statusWords);
    if (!statuses || (!mayFilterByStatus(user) && (statusWords.length !== 1 || statusWords[0] !== 'publish')))
      problems.add('status', 'status');

    const dates = listDates(query, siteZone, now, problems);
    const usesInclude = query.include !== undefined;

    const allCategories = query.categories ? await this.dataSource.getRepository(this.categories.definition.entity).find() : [];
    const allTags = query.tags ? await this.dataSource.getRepository(this.tags.definition.entity).find() : [];
    const categoryIds = query.categories ? this.categories.resolveRefs(query.categories, allCategories, 'categories', problems) : undefined;
    const tagIds = query.tags ? this.tags.resolveRefs(query.tags, allTags, 'tags', problems) : undefined;
    if (query.venue && !(await this.allLinkable(VenueEntity, query.venue))) problems.add('venue', 'unknown_venue');
    if (query.organizer && !(await this.allLinkable(OrganizerEntity, query.organizer))) problems.add('organizer', 'unknown_organizer');
    const hasLat = query.geoloc_lat !== undefined && query.geoloc_lat !== null;
    const hasLng = query.geoloc_lng !== undefined && query.geoloc_lng !== null;
    if (hasLat !== hasLng) problems.add(hasLat ? 'geoloc_lng' : 'geoloc_lat', 'geoloc_pair');
    if (query.post_parent !== undefined && !(await this.reads.isLiveEvent(query.post_parent))) problems.add('post_parent', 'unknown_event');
    const modified = modifiedWindow(query, siteZone, now, problems);
    this.translations.checkMissingLanguage(query.missing_translation, 'missing_translation', problems);
    problems.throwIfAny(LIST_ORDER);

    const builder = this.dataSource.getRepository(EventEntity).createQueryBuilder('e');
    builder.where('e.hide_from_listings = :hidden', { hidden: false });
    builder.andWhere(visibleCondition('e', user, statuses as ItemStatus[]).sql);
    if (!usesInclude) whereListDates(builder, dates);
    else builder.andWhere('e.id IN (:...include)', { include: query.include });
    if (query.search !== undefined) {
      const columns = ['title', 'description', 'excerpt'].map((field) => this.translations.answeredText(ctx, 'event', 'e', field));
      whereSearch(builder, query.search, user, columns);
    }
    if (query.missing_translation !== undefined)
      builder.andWhere(this.translations.missingCondition('event', 'e', query.missing_translation));
    if (categoryIds) whereTerms(builder, 'event_categories', 'category_id', await this.categories.withDescendants(categoryIds), 'cat');
    if (tagIds) whereTerms(builder, 'event_tags', 'tag_id', tagIds, 'tag');
    if (query.venue) builder.andWhere('e.venue_id IN (:...venues)', { venues: query.venue });
    if (query.organizer) {
      builder.andWhere('EXISTS (SELECT 1 FROM event_organizers eo WHERE eo.event_id = e.id AND eo.organizer_id IN (:...organizers))', {
        organizers: query.organizer,
      });
    }
    if (query.featured !== undefined) builder.andWhere('e.featured = :featured', { featured: query.featured });
    if (query.geoloc !== undefined) whereLocated(builder, query.geoloc);
    if (hasLat && hasLng) {
      const nearby = await this.venuesNear(query.geoloc_lat as number, query.geoloc_lng as number);
      builder.andWhere(nearby.length > 0 ? 'e.venue_id IN (:...nearby)' : '1 = 0', { nearby });
    }
    if (query.post_parent !== undefined) builder.andWhere('e.parent_id = :parent', { parent: query.post_parent });
    whereModified(builder, 'e', modified);
    const paging = window ?? resolvePaging(query, this.lists);
    // The page is found as ids first: a query the listing index covers, read in index order from the
    // window's start (MariaDB would otherwise walk the index from the calendar's first event when it
    // must fetch whole rows), then those rows by primary key.
    const order = listOrder(query.orderby ?? 'event_date', query.order, {
      event_date: usesInclude ? 'date_utc' : 'start_local',
      date: 'date_utc',
      modified: 'modified_utc',
      title: 'title',
      id: 'id',
    });
    const { total, ids: pageIds } =
      query.collapse === 'series' ? await collapsedSeriesPage(builder, order, paging) : await this.plainPage(builder, order, paging);
    const echo: Array<[string, LinkValue]> = [
      ['start_date', usesInclude ? undefined : dates.start_date],
      ['end_date', usesInclude ? undefined : dates.end_date],
      ['search', query.search],
      ['missing_translation', query.missing_translation],
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
      ...orderAndModifiedEcho(query, modified),
      ['collapse', query.collapse],
    ];
    return { total, ids: pageIds, paging, echo };
  }

  private async plainPage(builder: SelectQueryBuilder<EventEntity>, order: ListOrder, paging: Paging) {
    const total = await this.items.listTotal(builder);
    // a page past the last is empty: no scan to its offset (a page number in the millions would walk the whole index)
    if (paging.offset >= total) return { total, ids: [] };
    builder.select('e.id', 'id');
    applyListOrder(builder, 'e', order);
    const ids = await builder
      .offset(paging.offset)
      .limit(paging.perPage)
      .getRawMany<{ id: number | string }>()
      .then((found) => found.map((row) => Number(row.id)));
    return { total, ids };
  }

  /** Venues within `GEOFENCE_RADIUS_KM` of a point. */
  private async venuesNear(lat: number, lng: number): Promise<number[]> {
    const venues = await this.dataSource
      .getRepository(VenueEntity)
      .createQueryBuilder('v')
      .select(['v.id', 'v.geoLat', 'v.geoLng'])
      .where("v.status <> 'trash' AND v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL")
      .getMany();
    return venues
      .filter((venue) => hasCoordinates(venue))
      .filter((venue) =>
        isWithinRadius({ lat, lng }, { lat: venue.geoLat as number, lng: venue.geoLng as number }, this.events.geofenceRadiusKm),
      )
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
}
