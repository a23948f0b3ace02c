import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type SelectQueryBuilder } from 'typeorm';
import type { ListsConfig } from '../../config/app-config.js';
import { canReadItem, mayFilterByStatus } from '../../common/auth/permissions.js';
import type { ItemStatus } from '../../common/auth/item-status.js';
import { occurrenceTimes } from '../../common/dates/recurrence-expansion.js';
import { nowUtcWall } from '../../common/dates/wall-time.js';
import { ApiError } from '../../common/errors/api-error.js';
import { ErrorCode, ItemErrorCode } from '../../common/errors/error-codes.js';
import type { RequestContext } from '../../common/http/request-context.js';
import type { PageQueryDto } from '../../common/paging/page-query.dto.js';
import { listLinks, resolvePaging, totalPages } from '../../common/paging/paging.js';
import { wallToDate } from '../../common/sql/columns.js';
import { ItemsService } from '../../items/items.service.js';
import { expandStatusFilter } from '../../items/status-rules.js';
import { visibleCondition } from '../../items/visibility.js';
import { EventPayloadsService } from '../event-payloads.service.js';
import { EventReadsService } from '../event-reads.service.js';
import { EventEntity } from '../event.entity.js';
import { EventSeriesEntity } from './event-series.entity.js';
import { seriesStartOf } from './series-generation.service.js';
import type { SeriesResponse } from './series.response.js';
import type { CalendarSeries } from './series-calendar.js';
import type { EventResponse } from '../event.response.js';

/** `GET /series/<id>` and `GET /series/<id>/occurrences`: a series as the requester may see it. */
@Injectable()
export class SeriesReadsService {
  private readonly lists: ListsConfig;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly items: ItemsService,
    private readonly reads: EventReadsService,
    private readonly payloads: EventPayloadsService,
    config: ConfigService,
  ) {
    this.lists = config.getOrThrow<ListsConfig>('lists');
  }

  async findOne(id: number, ctx: RequestContext): Promise<SeriesResponse> {
    const series = await this.requireSeries(id);
    // the main event's own read rules (trash, permission, password) apply to its series
    const mainEvent = await this.reads.findOne({ id }, ctx, undefined);
    const occurrences = this.occurrencesQuery(id, ctx);
    const [total, exceptions, next] = await Promise.all([
      occurrences.clone().getCount(),
      occurrences.clone().andWhere('e.series_exception = :exception', { exception: true }).getCount(),
      occurrences
        .clone()
        .andWhere('e.start_utc >= :now', { now: wallToDate(nowUtcWall()) })
        .orderBy('e.start_utc', 'ASC')
        .addOrderBy('e.id', 'ASC')
        .getOne(),
    ]);
    const [nextPayload] = next ? await this.payloads.of([next], ctx, undefined, false) : [null];
    return {
      id,
      rules: series.rules,
      timezone: series.timezone,
      main_event: mainEvent,
      occurrences_total: total,
      exceptions_total: exceptions,
      next_occurrence: nextPayload ?? null,
    };
  }

  /** One page of the occurrences, main event and exceptions included, in start order: the envelope of `GET /events`. */
  async occurrences(id: number, query: PageQueryDto, ctx: RequestContext) {
    await this.requireSeries(id);
    await this.reads.findOne({ id }, ctx, undefined);
    const builder = this.occurrencesQuery(id, ctx);
    const paging = resolvePaging(query, this.lists);
    const total = await builder.getCount();
    const ids = await builder
      .select('e.id', 'id')
      .orderBy('e.start_local', 'ASC')
      .addOrderBy('e.id', 'ASC')
      .offset(paging.offset)
      .limit(paging.perPage)
      .getRawMany<{ id: number | string }>()
      .then((rows) => rows.map((row) => Number(row.id)));
    if (paging.page > 1 && ids.length === 0) throw new ApiError(404, ItemErrorCode.archivePageNotFound('event'));
    const byId = new Map(
      (ids.length > 0 ? await this.dataSource.getRepository(EventEntity).findBy({ id: In(ids) }) : []).map((e) => [e.id, e]),
    );
    const rows = ids.map((eventId) => byId.get(eventId)).filter((event): event is EventEntity => event !== undefined);
    const pages = totalPages(total, paging.perPage);
    const links = listLinks(`${ctx.api}/series/${id}/occurrences`, paging, pages, []);
    const events = await this.payloads.of(rows, ctx, undefined, false);
    return { headers: { total, totalPages: pages }, body: { events, ...links, total, total_pages: pages } };
  }

  /**
   * The series of some occurrences as the calendar feeds write them, for series whose main event
   * this requester may read (with `password`, when given): occurrences edited on their own that
   * they may read, and as deleted starts those trashed or hidden from them.
   */
  async forCalendar(seriesIds: number[], ctx: RequestContext, password?: string): Promise<Map<number, CalendarSeries>> {
    const result = new Map<number, CalendarSeries>();
    if (seriesIds.length === 0) return result;
    const readable = (event: EventEntity) =>
      event.status !== 'trash' && canReadItem(ctx.user, event) && !this.payloads.isLocked(event, ctx.user, password);
    const members = await this.dataSource.getRepository(EventEntity).findBy({ seriesId: In(seriesIds) });
    const mains = members.filter((event) => event.id === event.seriesId && readable(event));
    const exceptions = members.filter((event) => event.id !== event.seriesId && event.seriesException && readable(event));
    // a main event edited on its own: the rule's VEVENT takes the fields of an occurrence that follows the series
    const templates = new Map(
      mains
        .filter((main) => main.seriesException)
        .flatMap((main) => {
          const template = members.find(
            (event) => event.seriesId === main.id && event.id !== main.id && !event.seriesException && readable(event),
          );
          return template ? [[main.id, template] as const] : [];
        }),
    );
    const payloads = await this.payloads.of([...mains, ...exceptions, ...templates.values()], ctx, password, false);
    const byId = new Map(payloads.map((payload) => [payload.id, payload]));
    for (const main of mains) {
      const own = members.filter((event) => event.seriesId === main.id && event.id !== main.id);
      const mainPayload = byId.get(main.id) as EventResponse;
      const template = templates.get(main.id);
      result.set(main.id, {
        main: main.seriesException ? ruleEvent(main, mainPayload, template ? byId.get(template.id) : undefined) : mainPayload,
        exceptions: [
          ...(main.seriesException ? [mainPayload] : []),
          ...exceptions.filter((event) => event.seriesId === main.id).map((event) => byId.get(event.id) as EventResponse),
        ],
        deletedStarts: own.filter((event) => !readable(event)).map((event) => event.seriesOriginalStart ?? event.startLocal),
      });
    }
    return result;
  }

  private async requireSeries(id: number): Promise<EventSeriesEntity> {
    await this.items.publishDueItems();
    const series = await this.dataSource.getRepository(EventSeriesEntity).findOneBy({ id });
    if (!series) throw new ApiError(404, ErrorCode.SeriesNotFound, { id });
    return series;
  }

  /** The series' events this requester may see in a list (the statuses `GET /events` shows by default). */
  private occurrencesQuery(id: number, ctx: RequestContext): SelectQueryBuilder<EventEntity> {
    const statuses = expandStatusFilter([mayFilterByStatus(ctx.user) ? 'any' : 'publish']) as ItemStatus[];
    return this.dataSource
      .getRepository(EventEntity)
      .createQueryBuilder('e')
      .where('e.series_id = :id', { id })
      .andWhere(visibleCondition('e', ctx.user, statuses).sql);
  }
}

/**
 * The event a calendar writes with the rule of a series whose main event was edited on its own:
 * the fields of an occurrence that follows the series (else the main event's), the main event's
 * identity and rule, and the series' start with that occurrence's length.
 */
function ruleEvent(main: EventEntity, mainPayload: EventResponse, template: EventResponse | undefined): EventResponse {
  const fields = template ?? mainPayload;
  const start = seriesStartOf(main);
  const times = occurrenceTimes(start, { startLocal: fields.start_date, endLocal: fields.end_date, timezone: main.timezone });
  return {
    ...fields,
    id: mainPayload.id,
    global_id: mainPayload.global_id,
    global_id_lineage: mainPayload.global_id_lineage,
    url: mainPayload.url,
    recurrence: mainPayload.recurrence,
    start_date: times.startLocal,
    end_date: times.endLocal,
    utc_start_date: times.startUtc,
    utc_end_date: times.endUtc,
  };
}
