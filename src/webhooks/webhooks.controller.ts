import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiRoutes } from '../common/http/api-routes.js';
import { created, sendList } from '../common/http/list-response.js';
import { Ctx, PathId } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook-fields.dto.js';
import { WebhookRouteDoc } from './webhooks.docs.js';
import { WebhooksService } from './webhooks.service.js';

/** `{api}/webhooks…`: subscriptions, their deliveries, pings and retries (administrators only). */
@ApiTags('webhooks')
@ApiRoutes()
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @WebhookRouteDoc('list')
  @Get()
  async list(@Query() query: PageQueryDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    return sendList(res, await this.webhooks.list(query, ctx));
  }

  @WebhookRouteDoc('create')
  @Post()
  async create(@Body() input: CreateWebhookDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    const body = await this.webhooks.create(input, ctx);
    return created(res, `${ctx.api}/webhooks/${body.id}`, body);
  }

  @WebhookRouteDoc('read', ['id'])
  @Get(':id')
  findOne(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.webhooks.findOne(id, ctx);
  }

  @WebhookRouteDoc('update', ['id'])
  @Post(':id')
  @HttpCode(200)
  updateByPost(@PathId() id: number, @Body() input: UpdateWebhookDto, @Ctx() ctx: RequestContext) {
    return this.webhooks.update(id, input, ctx);
  }

  @WebhookRouteDoc('update', ['id'])
  @Put(':id')
  updateByPut(@PathId() id: number, @Body() input: UpdateWebhookDto, @Ctx() ctx: RequestContext) {
    return this.webhooks.update(id, input, ctx);
  }

  @WebhookRouteDoc('update', ['id'])
  @Patch(':id')
  updateByPatch(@PathId() id: number, @Body() input: UpdateWebhookDto, @Ctx() ctx: RequestContext) {
    return this.webhooks.update(id, input, ctx);
  }

  @WebhookRouteDoc('delete', ['id'])
  @Delete(':id')
  remove(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.webhooks.remove(id, ctx);
  }

  @WebhookRouteDoc('deliveries', ['id'])
  @Get(':id/deliveries')
  async deliveries(
    @PathId() id: number,
    @Query() query: PageQueryDto,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return sendList(res, await this.webhooks.deliveryPage(id, query, ctx));
  }

  @WebhookRouteDoc('ping', ['id'])
  @Post(':id/ping')
  @HttpCode(202)
  ping(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.webhooks.ping(id, ctx);
  }

  @WebhookRouteDoc('retry', ['id', 'delivery_id'])
  @Post(':id/deliveries/:delivery_id/retry')
  @HttpCode(202)
  retry(@PathId() id: number, @PathId('delivery_id') deliveryId: number, @Ctx() ctx: RequestContext) {
    return this.webhooks.retry(id, deliveryId, ctx);
  }
}
