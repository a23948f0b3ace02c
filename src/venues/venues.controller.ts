import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { created, sendList } from '../common/http/list-response.js';
import { LastModifiedInterceptor } from '../common/http/last-modified.interceptor.js';
import { Ctx, PathId, PathSlug } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { ApiRoutes } from '../common/http/api-routes.js';
import { RouteDoc } from '../common/openapi/route-doc.js';
import { ListLinkedItemsQueryDto } from '../items/dto/list-linked-items.query.js';
import { ReadItemQueryDto } from '../items/dto/read-item.query.js';
import { CreateVenueDto } from './dto/create-venue.dto.js';
import { UpdateVenueDto } from './dto/update-venue.dto.js';
import { VenuesService } from './venues.service.js';
import { VenueResponse } from './venue.response.js';

@ApiTags('venues')
@ApiRoutes()
@UseInterceptors(LastModifiedInterceptor)
@Controller('venues')
export class VenuesController {
  constructor(private readonly venues: VenuesService) {}

  @RouteDoc('venues', 'list', VenueResponse)
  @Get()
  async list(@Query() query: ListLinkedItemsQueryDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    return sendList(res, await this.venues.list(query, ctx));
  }

  @RouteDoc('venues', 'create', VenueResponse)
  @Post()
  async create(@Body() input: CreateVenueDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    const { id, body } = await this.venues.create(input, ctx);
    return created(res, `${ctx.api}/venues/${id}`, body);
  }

  @RouteDoc('venues', 'read', VenueResponse)
  @Get(':id')
  findOne(@PathId() id: number, @Query() query: ReadItemQueryDto, @Ctx() ctx: RequestContext) {
    return this.venues.findOne({ id }, ctx, query.password);
  }

  @RouteDoc('venues', 'delete', VenueResponse)
  @Delete(':id')
  remove(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.venues.remove({ id }, ctx);
  }

  @RouteDoc('venues', 'update', VenueResponse)
  @Post(':id')
  @HttpCode(200)
  updateByPost(@PathId() id: number, @Body() input: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.update({ id }, input, ctx);
  }

  @RouteDoc('venues', 'update', VenueResponse)
  @Put(':id')
  updateByPut(@PathId() id: number, @Body() input: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.update({ id }, input, ctx);
  }

  @RouteDoc('venues', 'update', VenueResponse)
  @Patch(':id')
  updateByPatch(@PathId() id: number, @Body() input: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.update({ id }, input, ctx);
  }

  @RouteDoc('venues', 'readBySlug', VenueResponse)
  @Get('by-slug/:slug')
  findBySlug(@PathSlug() slug: string, @Query() query: ReadItemQueryDto, @Ctx() ctx: RequestContext) {
    return this.venues.findOne({ slug }, ctx, query.password);
  }

  @RouteDoc('venues', 'deleteBySlug', VenueResponse)
  @Delete('by-slug/:slug')
  removeBySlug(@PathSlug() slug: string, @Ctx() ctx: RequestContext) {
    return this.venues.remove({ slug }, ctx);
  }

  @RouteDoc('venues', 'updateBySlug', VenueResponse)
  @Post('by-slug/:slug')
  @HttpCode(200)
  updateBySlugPost(@PathSlug() slug: string, @Body() input: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.update({ slug }, input, ctx);
  }

  @RouteDoc('venues', 'updateBySlug', VenueResponse)
  @Put('by-slug/:slug')
  updateBySlugPut(@PathSlug() slug: string, @Body() input: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.update({ slug }, input, ctx);
  }

  @RouteDoc('venues', 'updateBySlug', VenueResponse)
  @Patch('by-slug/:slug')
  updateBySlugPatch(@PathSlug() slug: string, @Body() input: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.update({ slug }, input, ctx);
  }
}
