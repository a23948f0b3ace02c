import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type SelectQueryBuilder } from 'typeorm';
import { mayFilterByStatus } from '../common/auth/permissions.js';
import type { ItemStatus } from '../common/auth/item-status.js';
import { ApiError } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { wallToDate } from '../common/sql/columns.js';
import { CategoriesService } from '../categories/categories.service.js';
import { whereSearch, whereTerms } from '../events/event-list-conditions.js';
import { EventEntity } from '../events/event.entity.js';
import { ItemsService } from '../items/items.service.js';
import { visibleCondition } from '../items/visibility.js';
import { OrganizerEntity } from '../organizers/organizer.entity.js';
import { ContentTranslationsService } from '../translations/content-translations.service.js';
import { VenueEntity } from '../venues/venue.entity.js';
import type { TecListEventsQueryDto } from './dto/tec-list.query.js';
import { TecEventReadsService } from './tec-event-reads.service.js';
import { tecPage, type TecPage } from './tec-paging.js';
import type { TecEvent } from './tec.response.js';

/** Filter, column, operator: the date filters, compared on the UTC start and end. */
const DATE_FILTERS = [
  ['start_date', 'start_utc', '>='],
  ['end_date', 'end_utc', '<='],
  ['starts_before', 'start_utc', '<'],
  ['starts_after', 'start_utc', '>'],
  ['ends_before', 'end_utc', '<'],
  ['ends_after', 'end_utc', '>'],
] as const;

const SORT_COLUMNS: Record<string, string> = {
  event_date: 'start_utc',
  date: 'date_utc',
  modified: 'modified_utc',
  title: 'title',
  menu_order: 'id',
};

/**
 * `GET /tec/v1/events`: every event the reader may see (past ones, those hidden from listings and
 * protected ones included), no date window, ordered by start; the visibility, search and term
 * conditions are the ones `GET /events` of v1 uses.
 */
@Injectable()
export class TecEventListService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly items: ItemsService,
    private readonly categories: CategoriesService,
    private readonly translations: ContentTranslationsService,
    private readonly reads: TecEventReadsService,
  ) {}

  async list(query: TecListEventsQueryDto, ctx: RequestContext): Promise<TecPage<TecEvent>> {
    await this.items.publishDueItems();
    const { user } = ctx;
    if (query.venue && !(await this.allExist(VenueEntity, query.venue))) throw ApiError.invalidParam('venue', 'unknown_venue');
    if (query.organizer && !(await this.allExist(OrganizerEntity, query.organizer))) {
      throw ApiError.invalidParam('organizer', 'unknown_organizer');
    }
    // an anonymous reader's status is not refused: it lists what is published, as the reference does
    const statuses = (mayFilterByStatus(user) && query.status ? query.status : ['publish']) as ItemStatus[];

    const builder = this.dataSource.getRepository(EventEntity).createQueryBuilder('e');
    builder.where(visibleCondition('e', user, statuses).sql);
    for (const [name, column, operator] of DATE_FILTERS) {
      const value = query[name];
      if (value !== undefined) builder.andWhere(`e.${column} ${operator} :${name}`, { [name]: wallToDate(value) });
    }
    if (query.search !== undefined && query.search !== '') {
      const columns = ['title', 'description', 'excerpt'].map((field) => this.translations.answeredText(ctx, 'event', 'e', field));
      whereSearch(builder, query.search, user, columns);
    }
    if (query.categories)
      whereTerms(builder, 'event_categories', 'category_id', await this.categories.withDescendants(query.categories), 'cat');
    if (query.tags) whereTerms(builder, 'event_tags', 'tag_id', query.tags, 'tag');
    if (query.venue) builder.andWhere('e.venue_id IN (:...venues)', { venues: query.venue });
    if (query.organizer) {
      builder.andWhere('EXISTS (SELECT 1 FROM event_organizers eo WHERE eo.event_id = e.id AND eo.organizer_id IN (:...organizers))', {
        organizers: query.organizer,
      });
    }
    if (query.featured !== undefined) builder.andWhere('e.featured = :featured', { featured: query.featured });
    // no event here has tickets
    if (query.ticketed === true) builder.andWhere('1 = 0');
    if (query.post_parent !== undefined) builder.andWhere('e.parent_id = :parent', { parent: query.post_parent });
    const direction = query.order ?? 'ASC';
    const column = SORT_COLUMNS[query.orderby ?? 'event_date'];
    return tecPage(query, await this.items.listTotal(builder), async (offset, limit) => {
      const ids = await this.pageIds(builder, column, direction, offset, limit);
      return this.reads.payloads(await this.rowsOf(ids), ctx, query.password);
    });
  }

  private async pageIds(
    builder: SelectQueryBuilder<EventEntity>,
    column: string,
    direction: 'ASC' | 'DESC',
    offset: number,
    limit: number,
  ) {
    builder.select('e.id', 'id').orderBy(`e.${column}`, direction).addOrderBy('e.id', direction);
    const rows = await builder.offset(offset).limit(limit).getRawMany<{ id: number | string }>();
    return rows.map((row) => Number(row.id));
  }

  private async rowsOf(ids: number[]): Promise<EventEntity[]> {
    if (ids.length === 0) return [];
    const byId = new Map((await this.dataSource.getRepository(EventEntity).findBy({ id: In(ids) })).map((event) => [event.id, event]));
    return ids.map((id) => byId.get(id)).filter((event): event is EventEntity => event !== undefined);
  }

  /** Every id is a record of the kind, in the trash or not (the reference refuses other ids). */
  private async allExist(entity: typeof VenueEntity | typeof OrganizerEntity, ids: number[]): Promise<boolean> {
    return (await this.dataSource.getRepository(entity).countBy({ id: In(ids) })) === ids.length;
  }
}
