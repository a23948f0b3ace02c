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
import { CategoriesService } from './categories.service.js';
import { CreateCategoryDto } from './dto/create-category.dto.js';
import { ListCategoriesQueryDto } from './dto/list-categories.query.js';
import { UpdateCategoryDto } from './dto/update-category.dto.js';

@ApiTags('categories')
@ApiRoutes()
@UseInterceptors(LastModifiedInterceptor)
@Controller('categories')
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @RouteDoc('categories', 'list', TermResponse)
  @Get()
  async list(@Query() query: ListCategoriesQueryDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    return sendList(res, await this.categories.list(query, ListCategoriesQueryDto, ctx));
  }

  @RouteDoc('categories', 'create', TermResponse)
  @Post()
  async create(@Body() input: CreateCategoryDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    const { id, body } = await this.categories.create(input, ctx);
    return created(res, `${ctx.api}/categories/${id}`, body);
  }

  @RouteDoc('categories', 'read', TermResponse)
  @Get(':id')
  findOne(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.categories.findOne(id, ctx);
  }

  @RouteDoc('categories', 'update', TermResponse)
  @Post(':id')
  @HttpCode(200)
  updateByPost(@PathId() id: number, @Body() input: UpdateCategoryDto, @Ctx() ctx: RequestContext) {
    return this.categories.update(id, input, ctx);
  }

  @RouteDoc('categories', 'update', TermResponse)
  @Put(':id')
  updateByPut(@PathId() id: number, @Body() input: UpdateCategoryDto, @Ctx() ctx: RequestContext) {
    return this.categories.update(id, input, ctx);
  }

  @RouteDoc('categories', 'update', TermResponse)
  @Patch(':id')
  updateByPatch(@PathId() id: number, @Body() input: UpdateCategoryDto, @Ctx() ctx: RequestContext) {
    return this.categories.update(id, input, ctx);
  }

  @RouteDoc('categories', 'delete', TermResponse)
  @Delete(':id')
  remove(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.categories.remove(id, ctx);
  }
}
