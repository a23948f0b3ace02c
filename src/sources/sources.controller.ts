import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiRoutes } from '../common/http/api-routes.js';
import { created, sendList } from '../common/http/list-response.js';
import { Ctx, PathId } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { CreateSourceDto, UpdateSourceDto } from './dto/source-fields.dto.js';
import { SourceActivityService } from './source-activity.service.js';
import { SourceRunner } from './source-runner.js';
import { SourceRouteDoc } from './sources.docs.js';
import { SourcesService } from './sources.service.js';

/** `{api}/sources…`: iCalendar feeds subscribed to, their runs and imported events, run now (administrators only). */
@ApiTags('sources')
@ApiRoutes()
@Controller('sources')
export class SourcesController {
  constructor(
    private readonly sources: SourcesService,
    private readonly activity: SourceActivityService,
    private readonly runner: SourceRunner,
  ) {}

  @SourceRouteDoc('list', false)
  @Get()
  async list(@Query() query: PageQueryDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    return sendList(res, await this.sources.list(query, ctx));
  }

  @SourceRouteDoc('create', false)
  @Post()
  async create(@Body() input: CreateSourceDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    const body = await this.sources.create(input, ctx);
    this.runner.wake();
    return created(res, `${ctx.api}/sources/${body.id}`, body);
  }

  @SourceRouteDoc('read')
  @Get(':id')
  findOne(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.sources.findOne(id, ctx);
  }

  @SourceRouteDoc('update')
  @Post(':id')
  @HttpCode(200)
  updateByPost(@PathId() id: number, @Body() input: UpdateSourceDto, @Ctx() ctx: RequestContext) {
    return this.sources.update(id, input, ctx);
  }

  @SourceRouteDoc('update')
  @Put(':id')
  updateByPut(@PathId() id: number, @Body() input: UpdateSourceDto, @Ctx() ctx: RequestContext) {
    return this.sources.update(id, input, ctx);
  }

  @SourceRouteDoc('update')
  @Patch(':id')
  updateByPatch(@PathId() id: number, @Body() input: UpdateSourceDto, @Ctx() ctx: RequestContext) {
    return this.sources.update(id, input, ctx);
  }

  @SourceRouteDoc('delete')
  @Delete(':id')
  remove(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.sources.remove(id, ctx);
  }

  @SourceRouteDoc('run')
  @Post(':id/run')
  @HttpCode(202)
  async run(@PathId() id: number, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    this.sources.assertAdministrator(ctx);
    const run = await this.runner.start(await this.sources.require(id), 'manual');
    res.setHeader('Location', `${ctx.api}/sources/${id}/runs`);
    return run;
  }

  @SourceRouteDoc('runs')
  @Get(':id/runs')
  async runs(@PathId() id: number, @Query() query: PageQueryDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    return sendList(res, await this.activity.runPage(id, query, ctx));
  }

  @SourceRouteDoc('events')
  @Get(':id/events')
  async events(@PathId() id: number, @Query() query: PageQueryDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    return sendList(res, await this.activity.eventPage(id, query, ctx));
  }
}
