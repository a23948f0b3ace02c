import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import pLimit, { type LimitFunction } from 'p-limit';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { EventsConfig } from '../config/app-config.js';
import type { RequestContext } from '../common/http/request-context.js';
import { Translator } from '../i18n/translator.js';
import type { ListEventsQueryDto } from './dto/list-events.query.js';
import { CalendarWriter, toCalendar, type CalendarMeta } from './event-calendar.js';
import { EventListService } from './event-list.service.js';
import { EventReadsService } from './event-reads.service.js';
import { SeriesReadsService } from './series/series-reads.service.js';

export interface CalendarAnswer {
  body: string;
  total: number;
  truncated: boolean;
}

/**
 * `GET /events.ics` and `GET /events/<id>.ics`: the same events, filters and access rules as the JSON
 * routes (it reads through their services), written as iCalendar.
 */
@Injectable()
export class EventCalendarService {
  private readonly maxEvents: number;
  private readonly waitingMax: number;
  /**
   * One feed is read and written at a time in a process: its text stays in memory until it is
   * whole, with one slice of its events, and writing is CPU work that more at once would not
   * finish sooner. Up to `waitingMax` more wait their turn; beyond that a request is answered 503.
   */
  private readonly builds: LimitFunction = pLimit(1);
  /**
   * Events read and written as iCalendar at a time: only their text stays in memory until the feed
   * is whole, not their payloads (a change here changes no byte of a feed).
   */
  sliceSize = 500;

  constructor(
    private readonly lists: EventListService,
    private readonly reads: EventReadsService,
    private readonly translator: Translator,
    private readonly series: SeriesReadsService,
    config: ConfigService,
  ) {
    const events = config.getOrThrow<EventsConfig>('events');
    this.maxEvents = events.icsMaxEvents;
    this.waitingMax = events.icsWaitingMax;
  }

  list(query: ListEventsQueryDto, ctx: RequestContext): Promise<CalendarAnswer> {
    if (this.builds.activeCount + this.builds.pendingCount > this.waitingMax) {
      return Promise.reject(new ApiError(503, ErrorCode.CalendarBusy, {}, { retryAfterSeconds: 5 }));
    }
    return this.builds(() => this.build(query, ctx));
  }

  private async build(query: ListEventsQueryDto, ctx: RequestContext): Promise<CalendarAnswer> {
    const { total, ids } = await this.lists.ids(query, ctx, { page: 1, perPage: this.maxEvents, offset: 0 });
    const writer = new CalendarWriter(this.meta(ctx));
    const seriesRead = new Set<number>();
    for (let start = 0; start < ids.length; start += this.sliceSize) {
      const events = await this.lists.payloadsOf(ids.slice(start, start + this.sliceSize), ctx, query.password);
      // a series is written once, with its rule, where the first of its occurrences stands in the list
      const seriesIds = [...new Set(events.flatMap((event) => (event.recurrence ? [event.recurrence.series_id] : [])))].filter(
        (id) => !seriesRead.has(id),
      );
      seriesIds.forEach((id) => seriesRead.add(id));
      writer.add(events, await this.series.forCalendar(seriesIds, ctx, query.password));
    }
    return { body: writer.finish(), total, truncated: total > ids.length };
  }

  /**
   * One event as the feed writes it: the main event of a series stands for its whole series (rule,
   * exceptions, deleted starts); any other occurrence, for itself alone, as an event of its own.
   */
  async one(id: number, ctx: RequestContext, password: string | undefined): Promise<string> {
    const event = await this.reads.findOne({ id }, ctx, password);
    const series = event.recurrence?.is_main ? await this.series.forCalendar([event.recurrence.series_id], ctx, password) : undefined;
    return toCalendar([event], this.meta(ctx), series);
  }

  private meta(ctx: RequestContext): CalendarMeta {
    return { name: this.translator.t(ctx.edition, 'calendar:name'), language: ctx.edition };
  }
}
