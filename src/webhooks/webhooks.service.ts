import { Inject, Injectable, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isEventPattern } from '../changes/domain-event.js';
import type { ListsConfig, OutboundConfig } from '../config/app-config.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { ApiError, ParamProblems } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { RequestContext } from '../common/http/request-context.js';
import type { PageQueryDto } from '../common/paging/page-query.dto.js';
import { listLinks, resolvePaging, totalPages } from '../common/paging/paging.js';
import { Editions } from '../editions/editions.js';
import type { WebhookFieldsDto, UpdateWebhookDto } from './dto/webhook-fields.dto.js';
import { WebhookAttemptEntity } from './webhook-attempt.entity.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import type { WebhookAttemptResponse, WebhookDeliveryResponse, WebhookResponse } from './webhook.response.js';
import { newSecret } from './webhook-signature.js';
import { deactivate, pendingDelivery } from './webhook-store.js';
import { WebhookSubscriptionEntity } from './webhook-subscription.entity.js';
import { literalAddress, parseTargetUrl, targetProblem } from './webhook-targets.js';
import { isRowId } from '../common/sql/row-id.js';

const FIELD_ORDER = ['url', 'events', 'description', 'active', 'edition', 'rotate_secret'];

/**
 * Subscriptions, their deliveries, pings and retries: administrators only (other roles 403,
 * anonymous 401). The same operations serve the routes and the command-line tool.
 */
@Injectable()
export class WebhooksService {
  private readonly outbound: OutboundConfig;
  private readonly lists: ListsConfig;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly editions: Editions,
    @Inject(ConfigService) config: ConfigService,
    /** Absent in the command-line tool: a running server picks the work up at its next poll. */
    @Optional() private readonly dispatcher?: WebhookDispatcher,
  ) {
    this.outbound = config.getOrThrow<OutboundConfig>('outbound');
    this.lists = config.getOrThrow<ListsConfig>('lists');
  }

  private get subscriptions() {
    return this.dataSource.getRepository(WebhookSubscriptionEntity);
  }

  private get deliveries() {
    return this.dataSource.getRepository(WebhookDeliveryEntity);
  }

  /** 401 for anonymous requests, 403 for every role but administrator; the CLI (null) may. */
  private assertAdministrator(ctx: RequestContext | null): void {
    if (ctx && ctx.user?.role !== 'administrator') throw ApiError.forbidden(ctx.user !== null);
  }

  async list(query: PageQueryDto, ctx: RequestContext) {
    this.assertAdministrator(ctx);
    ParamProblems.from(query).throwIfAny(['page', 'per_page']);
    const paging = resolvePaging(query, this.lists);
    const [rows, total] = await this.subscriptions.findAndCount({ order: { id: 'ASC' }, skip: paging.offset, take: paging.perPage });
    const pages = totalPages(total, paging.perPage);
    const links = listLinks(`${ctx.api}/webhooks`, paging, pages, []);
    return {
      headers: { total, totalPages: pages },
      body: { webhooks: rows.map((row) => this.view(row, ctx.api)), ...links, total, total_pages: pages },
    };
  }

  /** Every subscription, for the command-line tool. */
  all(): Promise<WebhookSubscriptionEntity[]> {
    return this.subscriptions.find({ order: { id: 'ASC' } });
  }

  async findOne(id: number, ctx: RequestContext | null): Promise<WebhookResponse> {
    this.assertAdministrator(ctx);
    return this.view(await this.require(id), this.api(ctx));
  }

  async create(input: WebhookFieldsDto, ctx: RequestContext | null): Promise<WebhookResponse> {
    const url = await this.checkInput(input, ctx);
    const now = nowUtcWall();
    const entity = this.subscriptions.create({
      url: url ?? '',
      events: [...new Set(input.events ?? [])],
      description: input.description ?? '',
      active: input.active ?? true,
      edition: input.edition ?? this.editions.defaultEdition,
      secret: newSecret(),
      deactivatedReason: null,
      deactivatedUtc: input.active === false ? now : null,
      createdUtc: now,
      modifiedUtc: now,
    });
    const saved = await this.subscriptions.save(entity);
    return { ...this.view(saved, this.api(ctx)), secret: saved.secret };
  }

  async update(id: number, input: UpdateWebhookDto, ctx: RequestContext | null): Promise<WebhookResponse> {
    const url = await this.checkInput(input, ctx);
    const current = await this.require(id);
    const now = nowUtcWall();
    const changes: Partial<WebhookSubscriptionEntity> = { modifiedUtc: now };
    if (url !== undefined) changes.url = url;
    if (input.events !== undefined) changes.events = [...new Set(input.events)];
    if (input.description !== undefined) changes.description = input.description;
    if (input.edition !== undefined) changes.edition = input.edition;
    if (input.rotate_secret) changes.secret = newSecret();
    if (input.active === true && !current.active) Object.assign(changes, { active: true, deactivatedReason: null, deactivatedUtc: null });
    await this.dataSource.transaction(async (manager) => {
      await manager.update(WebhookSubscriptionEntity, { id }, changes);
      // deactivated by hand: no reason to show, and what waited is not sent later
      if (input.active === false && current.active) await deactivate(manager, id, null);
    });
    const saved = await this.require(id);
    const body = this.view(saved, this.api(ctx));
    return input.rotate_secret ? { ...body, secret: saved.secret } : body;
  }

  /** Removes the subscription with its deliveries and their attempts; answers it as it was. */
  async remove(id: number, ctx: RequestContext | null): Promise<WebhookResponse> {
    this.assertAdministrator(ctx);
    const current = await this.require(id);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        'DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE subscription_id = ?)',
        [id],
      );
      await manager.delete(WebhookDeliveryEntity, { subscriptionId: id });
      await manager.delete(WebhookSubscriptionEntity, { id });
    });
    return this.view(current, this.api(ctx));
  }

  async deliveryPage(id: number, query: PageQueryDto, ctx: RequestContext) {
    this.assertAdministrator(ctx);
    ParamProblems.from(query).throwIfAny(['page', 'per_page']);
    await this.require(id);
    const paging = resolvePaging(query, this.lists);
    const [rows, total] = await this.deliveries.findAndCount({
      where: { subscriptionId: id },
      order: { id: 'DESC' },
      skip: paging.offset,
      take: paging.perPage,
    });
    const pages = totalPages(total, paging.perPage);
    const links = listLinks(`${ctx.api}/webhooks/${id}/deliveries`, paging, pages, []);
    return {
      headers: { total, totalPages: pages },
      body: { deliveries: await this.deliveryViews(rows), ...links, total, total_pages: pages },
    };
  }

  /** The newest deliveries of a subscription, for the command-line tool. */
  async recentDeliveries(id: number, count: number): Promise<WebhookDeliveryResponse[]> {
    await this.require(id);
    return this.deliveryViews(await this.deliveries.find({ where: { subscriptionId: id }, order: { id: 'DESC' }, take: count }));
  }

  /** Queues a `webhook.ping` delivery and wakes the dispatcher; answers the delivery. */
  async ping(id: number, ctx: RequestContext | null): Promise<WebhookDeliveryResponse> {
    this.assertAdministrator(ctx);
    const subscription = await this.require(id);
    const now = nowUtcWall();
    const body = JSON.stringify({
      type: 'webhook.ping',
      timestamp: `${now.replace(' ', 'T')}Z`,
      data: { webhook_id: subscription.id, url: subscription.url },
    });
    const saved = await this.deliveries.save(
      this.deliveries.create(pendingDelivery({ subscriptionId: id, type: 'webhook.ping', changeSeq: null, recordKey: null, body }, now)),
    );
    this.dispatcher?.wake();
    return (await this.deliveryViews([saved]))[0];
  }

  /** Sends a delivery again from the first step of the schedule, under its own `webhook-id`. */
  async retry(id: number, deliveryId: number, ctx: RequestContext | null): Promise<WebhookDeliveryResponse> {
    this.assertAdministrator(ctx);
    await this.require(id);
    const delivery = Number.isSafeInteger(deliveryId)
      ? await this.deliveries.findOneBy({ id: String(deliveryId), subscriptionId: id })
      : null;
    if (!delivery) throw new ApiError(404, ErrorCode.WebhookDeliveryNotFound, { id: deliveryId });
    if (delivery.status !== 'sending') {
      await this.deliveries.update(
        { id: delivery.id },
        { status: 'pending', attempts: 0, nextAttemptUtc: nowUtcWall(), finishedUtc: null, claimedUntilUtc: null },
      );
    }
    this.dispatcher?.wake();
    return (await this.deliveryViews([(await this.deliveries.findOneBy({ id: delivery.id })) as WebhookDeliveryEntity]))[0];
  }

  private async require(id: number): Promise<WebhookSubscriptionEntity> {
    const found = isRowId(id) ? await this.subscriptions.findOneBy({ id }) : null;
    if (!found) throw new ApiError(404, ErrorCode.WebhookNotFound, { id });
    return found;
  }

  /**
   * Checks every field (400 naming each bad one), then the requester (401/403), then resolves the
   * target's name (only administrators make the server look names up). Returns the URL to store.
   */
  private async checkInput(input: WebhookFieldsDto, ctx: RequestContext | null): Promise<string | undefined> {
    const problems = ParamProblems.from(input);
    let url: URL | null = null;
    if (input.url !== undefined && !problems.has('url')) {
      url = parseTargetUrl(input.url);
      if (!url) problems.add('url', 'webhook_url');
      else if (literalAddress(url) !== null) {
        const problem = await targetProblem(url, this.outbound);
        if (problem) problems.add('url', problem);
      }
    }
    if (input.events !== undefined && !problems.has('events')) {
      if (input.events.length === 0 || !input.events.every(isEventPattern)) problems.add('events', 'webhook_events');
    }
    if (input.edition !== undefined && !problems.has('edition') && !this.editions.codes.includes(input.edition.toLowerCase())) {
      problems.add('edition', 'one_of', { values: this.editions.codes.join(', ') });
    }
    problems.throwIfAny(FIELD_ORDER);
    this.assertAdministrator(ctx);
    if (url && literalAddress(url) === null) {
      const problem = await targetProblem(url, this.outbound);
      if (problem) throw ApiError.invalidParam('url', problem);
    }
    if (input.edition !== undefined) input.edition = input.edition.toLowerCase();
    return url ? input.url : undefined;
  }

  private api(ctx: RequestContext | null): string {
    return ctx?.api ?? this.editions.api(this.editions.defaultEdition);
  }

  private view(row: WebhookSubscriptionEntity, api: string): WebhookResponse {
    return {
      id: row.id,
      url: row.url,
      events: row.events,
      description: row.description,
      active: row.active,
      edition: row.edition,
      deactivated_reason: row.deactivatedReason,
      deactivated_utc: row.deactivatedUtc,
      created_utc: row.createdUtc,
      modified_utc: row.modifiedUtc,
      deliveries_url: `${api}/webhooks/${row.id}/deliveries`,
    };
  }

  private async deliveryViews(rows: WebhookDeliveryEntity[]): Promise<WebhookDeliveryResponse[]> {
    if (rows.length === 0) return [];
    const attempts = await this.dataSource
      .getRepository(WebhookAttemptEntity)
      .createQueryBuilder('a')
      .where('a.delivery_id IN (:...ids)', { ids: rows.map((row) => row.id) })
      .orderBy('a.id', 'ASC')
      .getMany();
    const byDelivery = new Map<string, WebhookAttemptResponse[]>();
    for (const attempt of attempts) {
      const list = byDelivery.get(String(attempt.deliveryId)) ?? [];
      list.push({
        attempted_utc: attempt.attemptedUtc,
        status_code: attempt.statusCode,
        duration_ms: attempt.durationMs,
        response: attempt.responseBody,
        error: attempt.error,
      });
      byDelivery.set(String(attempt.deliveryId), list);
    }
    return rows.map((row) => ({
      id: Number(row.id),
      webhook_id: row.messageId,
      type: row.type,
      status: row.status,
      attempts: row.attempts,
      next_attempt_utc: row.status === 'pending' ? row.nextAttemptUtc : null,
      created_utc: row.createdUtc,
      finished_utc: row.finishedUtc,
      payload: JSON.parse(row.body) as unknown,
      attempt_log: byDelivery.get(String(row.id)) ?? [],
    }));
  }
}
