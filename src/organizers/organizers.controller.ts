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
import { CreateOrganizerDto } from './dto/create-organizer.dto.js';
import { UpdateOrganizerDto } from './dto/update-organizer.dto.js';
import { OrganizersService } from './organizers.service.js';
import { OrganizerResponse } from './organizer.response.js';

@ApiTags('organizers')
@ApiRoutes()
@UseInterceptors(LastModifiedInterceptor)
@Controller('organizers')
export class OrganizersController {
  constructor(private readonly organizers: OrganizersService) {}

  @RouteDoc('organizers', 'list', OrganizerResponse)
  @Get()
  async list(@Query() query: ListLinkedItemsQueryDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    return sendList(res, await this.organizers.list(query, ctx));
  }

  @RouteDoc('organizers', 'create', OrganizerResponse)
  @Post()
  async create(@Body() input: CreateOrganizerDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    const { id, body } = await this.organizers.create(input, ctx);
    return created(res, `${ctx.api}/organizers/${id}`, body);
  }

  @RouteDoc('organizers', 'read', OrganizerResponse)
  @Get(':id')
  findOne(@PathId() id: number, @Query() query: ReadItemQueryDto, @Ctx() ctx: RequestContext) {
    return this.organizers.findOne({ id }, ctx, query.password);
  }

  @RouteDoc('organizers', 'delete', OrganizerResponse)
  @Delete(':id')
  remove(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.organizers.remove({ id }, ctx);
  }

  @RouteDoc('organizers', 'update', OrganizerResponse)
  @Post(':id')
  @HttpCode(200)
  updateByPost(@PathId() id: number, @Body() input: UpdateOrganizerDto, @Ctx() ctx: RequestContext) {
    return this.organizers.update({ id }, input, ctx);
  }

  @RouteDoc('organizers', 'update', OrganizerResponse)
  @Put(':id')
  updateByPut(@PathId() id: number, @Body() input: UpdateOrganizerDto, @Ctx() ctx: RequestContext) {
    return this.organizers.update({ id }, input, ctx);
  }

  @RouteDoc('organizers', 'update', OrganizerResponse)
  @Patch(':id')
  updateByPatch(@PathId() id: number, @Body() input: UpdateOrganizerDto, @Ctx() ctx: RequestContext) {
    return this.organizers.update({ id }, input, ctx);
  }

  @RouteDoc('organizers', 'readBySlug', OrganizerResponse)
  @Get('by-slug/:slug')
  findBySlug(@PathSlug() slug: string, @Query() query: ReadItemQueryDto, @Ctx() ctx: RequestContext) {
    return this.organizers.findOne({ slug }, ctx, query.password);
  }

  @RouteDoc('organizers', 'deleteBySlug', OrganizerResponse)
  @Delete('by-slug/:slug')
  removeBySlug(@PathSlug() slug: string, @Ctx() ctx: RequestContext) {
    return this.organizers.remove({ slug }, ctx);
  }

  @RouteDoc('organizers', 'updateBySlug', OrganizerResponse)
  @Post('by-slug/:slug')
  @HttpCode(200)
  updateBySlugPost(@PathSlug() slug: string, @Body() input: UpdateOrganizerDto, @Ctx() ctx: RequestContext) {
    return this.organizers.update({ slug }, input, ctx);
  }

  @RouteDoc('organizers', 'updateBySlug', OrganizerResponse)
  @Put('by-slug/:slug')
  updateBySlugPut(@PathSlug() slug: string, @Body() input: UpdateOrganizerDto, @Ctx() ctx: RequestContext) {
    return this.organizers.update({ slug }, input, ctx);
  }

  @RouteDoc('organizers', 'updateBySlug', OrganizerResponse)
  @Patch('by-slug/:slug')
  updateBySlugPatch(@PathSlug() slug: string, @Body() input: UpdateOrganizerDto, @Ctx() ctx: RequestContext) {
    return this.organizers.update({ slug }, input, ctx);
  }
}
