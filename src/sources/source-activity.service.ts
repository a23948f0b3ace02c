import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import type { ListsConfig } from '../config/app-config.js';
import { ParamProblems } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import type { PageQueryDto } from '../common/paging/page-query.dto.js';
import { listLinks, resolvePaging, totalPages } from '../common/paging/paging.js';
import { EventEntity } from '../events/event.entity.js';
import { CalendarSourceEventEntity } from './calendar-source-event.entity.js';
import { CalendarSourceRunEntity } from './calendar-source-run.entity.js';
import { runView, sourceEventView } from './source-views.js';
import { SourcesService } from './sources.service.js';

/** What a source did, as administrators read it: its runs and the events it imported (paged lists). */
@Injectable()
export class SourceActivityService {
  private readonly lists: ListsConfig;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sources: SourcesService,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.lists = config.getOrThrow<ListsConfig>('lists');
  }

  async runPage(id: number, query: PageQueryDto, ctx: RequestContext) {
    ParamProblems.from(query).throwIfAny(['page', 'per_page']);
    this.sources.assertAdministrator(ctx);
    await this.sources.require(id);
    const paging = resolvePaging(query, this.lists);
    const [rows, total] = await this.dataSource.getRepository(CalendarSourceRunEntity).findAndCount({
      where: { sourceId: id },
      order: { id: 'DESC' },
      skip: paging.offset,
      take: paging.perPage,
    });
    const pages = totalPages(total, paging.perPage);
    const links = listLinks(`${ctx.api}/sources/${id}/runs`, paging, pages, []);
    return { headers: { total, totalPages: pages }, body: { runs: rows.map(runView), ...links, total, total_pages: pages } };
  }

  /**
   * The events the source imported, one per `VEVENT` it maps (a series once, an occurrence the feed
   * changes on its own once more), by event id; events deleted for good since are left out.
   */
  async eventPage(id: number, query: PageQueryDto, ctx: RequestContext) {
    ParamProblems.from(query).throwIfAny(['page', 'per_page']);
    this.sources.assertAdministrator(ctx);
    await this.sources.require(id);
    const paging = resolvePaging(query, this.lists);
    const [rows, total] = await this.dataSource
      .getRepository(CalendarSourceEventEntity)
      .createQueryBuilder('m')
      .select(['m.sourceId', 'm.componentKey', 'm.uid', 'm.recurrenceId', 'm.eventId'])
      .innerJoin(EventEntity, 'e', 'e.id = m.event_id')
      .where('m.source_id = :id', { id })
      .orderBy('m.eventId', 'ASC')
      .addOrderBy('m.componentKey', 'ASC')
      .offset(paging.offset)
      .limit(paging.perPage)
      .getManyAndCount();
    const events = rows.length
      ? await this.dataSource.getRepository(EventEntity).find({
          select: { id: true, title: true, status: true, startLocal: true },
          where: { id: In(rows.map((row) => row.eventId)) },
        })
      : [];
    const byId = new Map(events.map((event) => [event.id, event]));
    const items = rows.flatMap((row) => {
      const event = byId.get(row.eventId);
      return event ? [sourceEventView(row, event, ctx.api)] : [];
    });
    const pages = totalPages(total, paging.perPage);
    const links = listLinks(`${ctx.api}/sources/${id}/events`, paging, pages, []);
    return { headers: { total, totalPages: pages }, body: { events: items, ...links, total, total_pages: pages } };
  }
}
