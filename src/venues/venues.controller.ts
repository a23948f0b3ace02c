import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { created, sendList } from '../common/http/list-response.js';
import { Ctx, PathId, PathSlug } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { ApiRoutes } from '../common/http/api-routes.js';
import { RouteDoc } from '../docs/route-docs.js';
import { ListLinkedItemsQueryDto } from '../items/dto/list-linked-items.query.js';
import { ReadItemQueryDto } from '../items/dto/read-item.query.js';
import { CreateVenueDto } from './dto/create-venue.dto.js';
import { UpdateVenueDto } from './dto/update-venue.dto.js';
import { VenuesService } from './venues.service.js';

@ApiTags('venues')
@ApiRoutes()
@Controller('venues')
export class VenuesController {
  constructor(private readonly venues: VenuesService) {}

  @RouteDoc('venues', 'list')
  @Get()
  async list(@Query() query: ListLinkedItemsQueryDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    return sendList(res, await this.venues.list(query, ctx));
  }

  @RouteDoc('venues', 'create')
  @Post()
  async create(@Body() input: CreateVenueDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    const { id, body } = await this.venues.create(input, ctx);
    return created(res, `${ctx.api}/venues/${id}`, body);
  }

  @RouteDoc('venues', 'read')
  @Get(':id')
  findOne(@PathId() id: number, @Query() query: ReadItemQueryDto, @Ctx() ctx: RequestContext) {
    return this.venues.findOne({ id }, ctx, query.password);
  }

  @RouteDoc('venues', 'delete')
  @Delete(':id')
  remove(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.venues.remove({ id }, ctx);
  }

  @RouteDoc('venues', 'update')
  @Post(':id')
  @HttpCode(200)
  updateByPost(@PathId() id: number, @Body() input: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.update({ id }, input, ctx);
  }

  @RouteDoc('venues', 'update')
  @Put(':id')
  updateByPut(@PathId() id: number, @Body() input: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.update({ id }, input, ctx);
  }

  @RouteDoc('venues', 'update')
  @Patch(':id')
  updateByPatch(@PathId() id: number, @Body() input: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.update({ id }, input, ctx);
  }

  @RouteDoc('venues', 'readBySlug')
  @Get('by-slug/:slug')
  findBySlug(@PathSlug() slug: string, @Query() query: ReadItemQueryDto, @Ctx() ctx: RequestContext) {
    return this.venues.findOne({ slug }, ctx, query.password);
  }

  @RouteDoc('venues', 'deleteBySlug')
  @Delete('by-slug/:slug')
  removeBySlug(@PathSlug() slug: string, @Ctx() ctx: RequestContext) {
    return this.venues.remove({ slug }, ctx);
  }

  @RouteDoc('venues', 'updateBySlug')
  @Post('by-slug/:slug')
  @HttpCode(200)
  updateBySlugPost(@PathSlug() slug: string, @Body() input: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.update({ slug }, input, ctx);
  }

  @RouteDoc('venues', 'updateBySlug')
  @Put('by-slug/:slug')
  updateBySlugPut(@PathSlug() slug: string, @Body() input: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.update({ slug }, input, ctx);
  }

  @RouteDoc('venues', 'updateBySlug')
  @Patch('by-slug/:slug')
  updateBySlugPatch(@PathSlug() slug: string, @Body() input: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.update({ slug }, input, ctx);
  }
}
