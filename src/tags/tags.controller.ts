import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { created, sendList } from '../common/http/list-response.js';
import { LastModifiedInterceptor } from '../common/http/last-modified.interceptor.js';
import { Ctx, PathId } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { ApiRoutes } from '../common/http/api-routes.js';
import { RouteDoc } from '../common/openapi/route-doc.js';
import { TermResponse } from '../terms/term.response.js';
import { TagsService } from './tags.service.js';
import { CreateTagDto } from './dto/create-tag.dto.js';
import { ListTagsQueryDto } from './dto/list-tags.query.js';
import { UpdateTagDto } from './dto/update-tag.dto.js';

@ApiTags('tags')
@ApiRoutes()
@UseInterceptors(LastModifiedInterceptor)
@Controller('tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @RouteDoc('tags', 'list', TermResponse)
  @Get()
  async list(@Query() query: ListTagsQueryDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    return sendList(res, await this.tags.list(query, ListTagsQueryDto, ctx));
  }

  @RouteDoc('tags', 'create', TermResponse)
  @Post()
  async create(@Body() input: CreateTagDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    const { id, body } = await this.tags.create(input, ctx);
    return created(res, `${ctx.api}/tags/${id}`, body);
  }

  @RouteDoc('tags', 'read', TermResponse)
  @Get(':id')
  findOne(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.tags.findOne(id, ctx);
  }

  @RouteDoc('tags', 'update', TermResponse)
  @Post(':id')
  @HttpCode(200)
  updateByPost(@PathId() id: number, @Body() input: UpdateTagDto, @Ctx() ctx: RequestContext) {
    return this.tags.update(id, input, ctx);
  }

  @RouteDoc('tags', 'update', TermResponse)
  @Put(':id')
  updateByPut(@PathId() id: number, @Body() input: UpdateTagDto, @Ctx() ctx: RequestContext) {
    return this.tags.update(id, input, ctx);
  }

  @RouteDoc('tags', 'update', TermResponse)
  @Patch(':id')
  updateByPatch(@PathId() id: number, @Body() input: UpdateTagDto, @Ctx() ctx: RequestContext) {
    return this.tags.update(id, input, ctx);
  }

  @RouteDoc('tags', 'delete', TermResponse)
  @Delete(':id')
  remove(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.tags.remove(id, ctx);
  }
}
