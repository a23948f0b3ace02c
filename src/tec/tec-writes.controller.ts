import { Body, Controller, Delete, HttpCode, Patch, Post, Put, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiRoutes } from '../common/http/api-routes.js';
import { Ctx, PathId } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { TecDeleteQueryDto, TecEventWriteDto, TecOrganizerWriteDto, TecVenueWriteDto } from './dto/tec-write.dto.js';
import { TecAcknowledgement } from './tec-acknowledgement.js';
import { TEC_NAMESPACE } from './tec-docs.service.js';
import { inTecNames } from './tec-error-names.js';
import { TecEventReadsService } from './tec-event-reads.service.js';
import { TecLinkedReadsService } from './tec-linked-reads.service.js';
import { TecWritesService } from './tec-writes.service.js';

type Kind = 'events' | 'venues' | 'organizers';

/**
 * The writes of `tec/v1`: the body checked (the validation pipe), the requester's right to the
 * record, then the acknowledgement, as the reference orders them; the work is the v1 write of the
 * resource (`TecWritesService`), the answer the record read again in the `tec/v1` shape, or `[]`
 * for a delete (to the trash, or with `force=true` for good).
 */
@ApiExcludeController()
@ApiRoutes(TEC_NAMESPACE)
@UseGuards(TecAcknowledgement)
@Controller(TEC_NAMESPACE)
export class TecWritesController {
  constructor(
    private readonly ack: TecAcknowledgement,
    private readonly writes: TecWritesService,
    private readonly events: TecEventReadsService,
    private readonly linked: TecLinkedReadsService,
  ) {}

  @Post('events')
  @HttpCode(201)
  createEvent(@Body() input: TecEventWriteDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.create('events', input, ctx, req);
  }

  @Put('events/:id')
  putEvent(@PathId() id: number, @Body() input: TecEventWriteDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.update('events', id, input, ctx, req);
  }

  @Patch('events/:id')
  patchEvent(@PathId() id: number, @Body() input: TecEventWriteDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.update('events', id, input, ctx, req);
  }

  @Delete('events/:id')
  deleteEvent(@PathId() id: number, @Query() query: TecDeleteQueryDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.remove('events', id, query, ctx, req);
  }

  @Post('organizers')
  @HttpCode(201)
  createOrganizer(@Body() input: TecOrganizerWriteDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.create('organizers', input, ctx, req);
  }

  @Put('organizers/:id')
  putOrganizer(@PathId() id: number, @Body() input: TecOrganizerWriteDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.update('organizers', id, input, ctx, req);
  }

  @Patch('organizers/:id')
  patchOrganizer(@PathId() id: number, @Body() input: TecOrganizerWriteDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.update('organizers', id, input, ctx, req);
  }

  @Delete('organizers/:id')
  deleteOrganizer(@PathId() id: number, @Query() query: TecDeleteQueryDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.remove('organizers', id, query, ctx, req);
  }

  @Post('venues')
  @HttpCode(201)
  createVenue(@Body() input: TecVenueWriteDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.create('venues', input, ctx, req);
  }

  @Put('venues/:id')
  putVenue(@PathId() id: number, @Body() input: TecVenueWriteDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.update('venues', id, input, ctx, req);
  }

  @Patch('venues/:id')
  patchVenue(@PathId() id: number, @Body() input: TecVenueWriteDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.update('venues', id, input, ctx, req);
  }

  @Delete('venues/:id')
  deleteVenue(@PathId() id: number, @Query() query: TecDeleteQueryDto, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.remove('venues', id, query, ctx, req);
  }

  private async create(kind: Kind, input: object, ctx: RequestContext, req: Request) {
    this.writes.assertMayCreate(kind, ctx);
    this.ack.check(req);
    const id = await this.writes.create(kind, input, ctx).catch((error: unknown) => {
      throw inTecNames(kind, error);
    });
    return this.answer(kind, id, ctx);
  }

  private async update(kind: Kind, id: number, input: object, ctx: RequestContext, req: Request) {
    await this.writes.assertMayWrite(kind, id, ctx, true);
    this.ack.check(req);
    await this.writes.update(kind, id, input, ctx).catch((error: unknown) => {
      throw inTecNames(kind, error);
    });
    return this.answer(kind, id, ctx);
  }

  private async remove(kind: Kind, id: number, query: TecDeleteQueryDto, ctx: RequestContext, req: Request) {
    await this.writes.assertMayWrite(kind, id, ctx, false);
    this.ack.check(req);
    if (query.force) await this.writes.deleteForGood(kind, id, ctx);
    else await this.writes.trash(kind, id, ctx);
    return [];
  }

  /** The record as its writer reads it through `tec/v1`. */
  private answer(kind: Kind, id: number, ctx: RequestContext) {
    if (kind === 'events') return this.events.findOne(id, ctx, undefined);
    return kind === 'venues' ? this.linked.venue(id, ctx) : this.linked.organizer(id, ctx);
  }
}
