import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { created, sendList } from '../common/http/list-response.js';
import { LastModifiedInterceptor } from '../common/http/last-modified.interceptor.js';
import { Ctx, PathId, PathSlug } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { ApiRoutes } from '../common/http/api-routes.js';
import { RouteDoc } from '../common/openapi/route-doc.js';
import { CreateEventDto } from './dto/create-event.dto.js';
import { EventPasswordQueryDto } from './dto/event-password.query.js';
import { EventDeleteQueryDto, EventUpdateQueryDto } from './dto/recurrence-scope.js';
import { ListEventsQueryDto } from './dto/list-events.query.js';
import { UpdateEventDto } from './dto/update-event.dto.js';
import { EventListService } from './event-list.service.js';
import { EventReadsService } from './event-reads.service.js';
import { EventsService } from './events.service.js';
import { EventResponse } from './event.response.js';

@ApiTags('events')
@ApiRoutes()
@UseInterceptors(LastModifiedInterceptor)
@Controller('events')
export class EventsController {
  constructor(
    private readonly lists: EventListService,
    private readonly reads: EventReadsService,
    private readonly events: EventsService,
  ) {}

  @RouteDoc('events', 'list', EventResponse)
  @Get()
  async list(@Query() query: ListEventsQueryDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    return sendList(res, await this.lists.list(query, ctx));
  }

  @RouteDoc('events', 'create', EventResponse)
  @Post()
  async create(@Body() input: CreateEventDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    const { id, body } = await this.events.create(input, ctx);
    return created(res, `${ctx.api}/events/${id}`, body);
  }

  @RouteDoc('events', 'read', EventResponse)
  @Get(':id')
  findOne(@PathId() id: number, @Query() query: EventPasswordQueryDto, @Ctx() ctx: RequestContext) {
    return this.reads.findOne({ id }, ctx, query.password);
  }

  @RouteDoc('events', 'delete', EventResponse)
  @Delete(':id')
  remove(@PathId() id: number, @Query() query: EventDeleteQueryDto, @Ctx() ctx: RequestContext) {
    return this.events.remove({ id }, ctx, query.recurrence_scope);
  }

  @RouteDoc('events', 'update', EventResponse)
  @Post(':id')
  @HttpCode(200)
  updateByPost(@PathId() id: number, @Body() input: UpdateEventDto, @Query() query: EventUpdateQueryDto, @Ctx() ctx: RequestContext) {
    return this.events.update({ id }, input, ctx, query.recurrence_scope);
  }

  @RouteDoc('events', 'update', EventResponse)
  @Put(':id')
  updateByPut(@PathId() id: number, @Body() input: UpdateEventDto, @Query() query: EventUpdateQueryDto, @Ctx() ctx: RequestContext) {
    return this.events.update({ id }, input, ctx, query.recurrence_scope);
  }

  @RouteDoc('events', 'update', EventResponse)
  @Patch(':id')
  updateByPatch(@PathId() id: number, @Body() input: UpdateEventDto, @Query() query: EventUpdateQueryDto, @Ctx() ctx: RequestContext) {
    return this.events.update({ id }, input, ctx, query.recurrence_scope);
  }

  @RouteDoc('events', 'readBySlug', EventResponse)
  @Get('by-slug/:slug')
  findBySlug(@PathSlug() slug: string, @Query() query: EventPasswordQueryDto, @Ctx() ctx: RequestContext) {
    return this.reads.findOne({ slug }, ctx, query.password);
  }

  @RouteDoc('events', 'deleteBySlug', EventResponse)
  @Delete('by-slug/:slug')
  removeBySlug(@PathSlug() slug: string, @Query() query: EventDeleteQueryDto, @Ctx() ctx: RequestContext) {
    return this.events.remove({ slug }, ctx, query.recurrence_scope);
  }

  @RouteDoc('events', 'updateBySlug', EventResponse)
  @Post('by-slug/:slug')
  @HttpCode(200)
  updateBySlugPost(
    @PathSlug() slug: string,
    @Body() input: UpdateEventDto,
    @Query() query: EventUpdateQueryDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.update({ slug }, input, ctx, query.recurrence_scope);
  }

  @RouteDoc('events', 'updateBySlug', EventResponse)
  @Put('by-slug/:slug')
  updateBySlugPut(
    @PathSlug() slug: string,
    @Body() input: UpdateEventDto,
    @Query() query: EventUpdateQueryDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.update({ slug }, input, ctx, query.recurrence_scope);
  }

  @RouteDoc('events', 'updateBySlug', EventResponse)
  @Patch('by-slug/:slug')
  updateBySlugPatch(
    @PathSlug() slug: string,
    @Body() input: UpdateEventDto,
    @Query() query: EventUpdateQueryDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.update({ slug }, input, ctx, query.recurrence_scope);
  }
}
