import { Injectable } from '@nestjs/common';
import { findBySlug } from '../common/sql/find-by-slug.js';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { canReadItem } from '../common/auth/permissions.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode, ItemErrorCode } from '../common/errors/error-codes.js';
import type { RequestContext } from '../common/http/request-context.js';
import { isRowId } from '../common/sql/row-id.js';
import { ItemsService } from '../items/items.service.js';
import type { ItemRef } from '../items/linked-items.service.js';
import { EventPayloadsService } from './event-payloads.service.js';
import { rowById } from '../common/sql/rows-by-id.js';
import { EventEntity } from './event.entity.js';

/** Single events by id or slug (spec §10.1), and the lookups the writes share. */
@Injectable()
export class EventReadsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly items: ItemsService,
    private readonly payloads: EventPayloadsService,
  ) {}

  async findOne(ref: ItemRef, ctx: RequestContext, password: string | undefined) {
    await this.items.publishDueItems();
    const event = await this.requireEvent(ref);
    ctx.subject = event;
    if (event.status === 'trash') throw new ApiError(403, ErrorCode.EventNoLongerAvailable);
    if (!canReadItem(ctx.user, event)) throw new ApiError(403, ItemErrorCode.notAccessible('event'));
    if (this.payloads.isLocked(event, ctx.user, password)) throw new ApiError(403, ErrorCode.EventPasswordProtected);
    const [payload] = await this.payloads.of([event], ctx, password, true);
    return payload;
  }

  /**
   * The event of a path id or slug. By slug: unknown → 400 (slug). By id: unknown → 404, another
   * kind of item → 400 `rest-invalid-event-id` (spec §3.2, §10.1).
   */
  async requireEvent(ref: ItemRef): Promise<EventEntity> {
    const repository = this.dataSource.getRepository(EventEntity);
    if ('slug' in ref) {
      const event = await findBySlug(repository, ref.slug);
      if (!event) throw ApiError.invalidParam('slug', 'unknown_event_slug');
      return event;
    }
    // the event first: the kind of the id is asked only when it is not one (one read for the usual case)
    const event = await this.eventById(ref.id);
    if (event) return event;
    const kind = await this.items.kindOf(ref.id);
    if (kind !== null && kind !== 'event') throw new ApiError(400, ErrorCode.InvalidEventId, { id: ref.id });
    throw new ApiError(404, ErrorCode.EventNotFound, { id: ref.id });
  }

  /** The event with this id, in any status; null for an id that is no event's (or no id at all). */
  async eventById(id: number): Promise<EventEntity | null> {
    if (!isRowId(id)) return null;
    return rowById(this.dataSource.manager, EventEntity, id);
  }

  /** Whether `id` is an event that is not in the trash. */
  async isLiveEvent(id: number): Promise<boolean> {
    const event = await this.eventById(id);
    return event !== null && event.status !== 'trash';
  }
}
