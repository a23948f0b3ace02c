import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import pLimit, { type LimitFunction } from 'p-limit';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { EventsConfig } from '../config/app-config.js';
import type { RequestContext } from '../common/http/request-context.js';
import { Translator } from '../i18n/translator.js';
import type { ListEventsQueryDto } from './dto/list-events.query.js';
import { toCalendar } from './event-calendar.js';
import { EventListService } from './event-list.service.js';
import { EventReadsService } from './event-reads.service.js';
import type { CalendarSeries } from './series/series-calendar.js';
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
   * One feed is read and written at a time in a process: its events stay in memory until it is
   * written (about 20 KB each at the peak), and writing is CPU work that more at once would not
   * finish sooner. Up to `waitingMax` more wait their turn; beyond that a request is answered 503.
   */
  private readonly builds: LimitFunction = pLimit(1);

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
    const window = { page: 1, perPage: this.maxEvents, offset: 0 };
    const { headers, body } = await this.lists.list(query, ctx, window);
    // a series is written once, with its rule, when any of its occurrences is in the list
    const seriesIds = [...new Set(body.events.flatMap((event) => (event.recurrence ? [event.recurrence.series_id] : [])))];
    const series = await this.series.forCalendar(seriesIds, ctx);
    return { body: this.write(body.events, ctx, series), total: headers.total, truncated: headers.total > body.events.length };
  }

  async one(id: number, ctx: RequestContext, password: string | undefined): Promise<string> {
    return this.write([await this.reads.findOne({ id }, ctx, password)], ctx);
  }

  private write(events: Parameters<typeof toCalendar>[0], ctx: RequestContext, series?: Map<number, CalendarSeries>): string {
    return toCalendar(events, { name: this.translator.t(ctx.edition, 'calendar:name'), language: ctx.edition }, series);
  }
}
