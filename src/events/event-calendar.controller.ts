import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { ErrorResponse } from '../common/errors/error.response.js';
import { ApiRoutes } from '../common/http/api-routes.js';
import { AcceptsFeedToken } from '../common/http/feed-token.js';
import { Ctx, PathId } from '../common/http/path-params.js';
import { TextAnswer } from '../common/http/text-answer.js';
import type { RequestContext } from '../common/http/request-context.js';
import { ConditionalReadDoc, readAnswerHeaders, RESPONSE_TEXT } from '../common/openapi/route-doc.js';
import { EventPasswordQueryDto } from './dto/event-password.query.js';
import { ListEventsQueryDto } from './dto/list-events.query.js';
import { EventCalendarService } from './event-calendar.service.js';

const CALENDAR_TYPE = 'text/calendar; charset=utf-8';
const calendarAnswer = ApiResponse({
  status: 200,
  description: RESPONSE_TEXT[200],
  content: { 'text/calendar': { schema: { type: 'string' } } },
  headers: readAnswerHeaders(),
});
const BUSY_TEXT = 'Too many calendar feeds are being written at this moment; try again after the seconds given in Retry-After.';
const errorAnswer = (status: number, description = RESPONSE_TEXT[status]) =>
  ApiResponse({ status, description, schema: { $ref: getSchemaPath(ErrorResponse) } });

/**
 * The events as iCalendar (RFC 5545); calendar apps may authenticate with `?token=` (a feed token,
 * see `users/feed-token.middleware.ts`) instead of Basic credentials. Registered before
 * `EventsController` (see `EventsModule`), so the router tries `events/:id.ics` before `events/:id`.
 */
@ApiTags('events')
@ApiRoutes()
@Controller()
export class EventCalendarController {
  constructor(private readonly calendars: EventCalendarService) {}

  @ApiOperation({
    summary: 'Events as iCalendar',
    description:
      'Returns every event matching the filters of the event list as one iCalendar file, without pages; a result longer than the configured maximum is cut and marked with the X-ICS-Truncated header.',
  })
  @AcceptsFeedToken()
  @ApiProduces('text/calendar')
  @calendarAnswer
  @ConditionalReadDoc(false)
  @errorAnswer(400)
  @errorAnswer(401)
  @errorAnswer(503, BUSY_TEXT)
  @Get('events.ics')
  async list(@Query() query: ListEventsQueryDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    const answer = await this.calendars.list(query, ctx);
    res.setHeader('X-TEC-Total', String(answer.total));
    if (answer.truncated) res.setHeader('X-ICS-Truncated', 'true');
    return new TextAnswer(answer.body, CALENDAR_TYPE);
  }

  @ApiOperation({ summary: 'Read an event as iCalendar', description: 'Returns the event with this ID as an iCalendar file.' })
  @ApiParam({ name: 'id', type: 'integer', required: true, description: 'ID of the event.' })
  @AcceptsFeedToken()
  @ApiProduces('text/calendar')
  @calendarAnswer
  @ConditionalReadDoc(false)
  @errorAnswer(400)
  @errorAnswer(401)
  @errorAnswer(403)
  @errorAnswer(404)
  @Get('events/:id.ics')
  async one(@PathId() id: number, @Query() query: EventPasswordQueryDto, @Ctx() ctx: RequestContext) {
    return new TextAnswer(await this.calendars.one(id, ctx, query.password), CALENDAR_TYPE);
  }
}
