import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiRoutes } from '../common/http/api-routes.js';
import { Ctx, PathId } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { TecListEventsQueryDto, TecListLinkedQueryDto, TecReadQueryDto } from './dto/tec-list.query.js';
import { TecAcknowledgement } from './tec-acknowledgement.js';
import { TEC_NAMESPACE } from './tec-docs.service.js';
import { TecEventListService } from './tec-event-list.service.js';
import { TecEventReadsService } from './tec-event-reads.service.js';
import { TecLinkedReadsService } from './tec-linked-reads.service.js';
import { sendTecPage } from './tec-paging.js';

/**
 * The reads of `tec/v1`. Each checks the acknowledgement where the reference does: after the
 * arguments (the validation pipe) and after the reader's right to the record (the service).
 */
@ApiExcludeController()
@ApiRoutes(TEC_NAMESPACE)
@UseGuards(TecAcknowledgement)
@Controller(TEC_NAMESPACE)
export class TecReadsController {
  constructor(
    private readonly ack: TecAcknowledgement,
    private readonly eventList: TecEventListService,
    private readonly events: TecEventReadsService,
    private readonly linked: TecLinkedReadsService,
  ) {}

  @Get('events')
  async listEvents(
    @Query() query: TecListEventsQueryDto,
    @Ctx() ctx: RequestContext,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const page = await this.eventList.list(query, ctx);
    this.ack.check(req);
    return sendTecPage(res, ctx, `${ctx.base}/${TEC_NAMESPACE}/events`, page);
  }

  @Get('events/:id')
  async event(@PathId() id: number, @Query() query: TecReadQueryDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    const event = await this.events.findOne(id, ctx, query.password);
    this.ack.check(req);
    return event;
  }

  @Get('venues')
  async listVenues(
    @Query() query: TecListLinkedQueryDto,
    @Ctx() ctx: RequestContext,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const page = await this.linked.listVenues(query, ctx);
    this.ack.check(req);
    return sendTecPage(res, ctx, `${ctx.base}/${TEC_NAMESPACE}/venues`, page);
  }

  @Get('venues/:id')
  async venue(@PathId() id: number, @Ctx() ctx: RequestContext, @Req() req: Request) {
    const venue = await this.linked.venue(id, ctx);
    this.ack.check(req);
    return venue;
  }

  @Get('organizers')
  async listOrganizers(
    @Query() query: TecListLinkedQueryDto,
    @Ctx() ctx: RequestContext,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const page = await this.linked.listOrganizers(query, ctx);
    this.ack.check(req);
    return sendTecPage(res, ctx, `${ctx.base}/${TEC_NAMESPACE}/organizers`, page);
  }

  @Get('organizers/:id')
  async organizer(@PathId() id: number, @Ctx() ctx: RequestContext, @Req() req: Request) {
    const organizer = await this.linked.organizer(id, ctx);
    this.ack.check(req);
    return organizer;
  }
}
