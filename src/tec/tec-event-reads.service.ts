import { Injectable } from '@nestjs/common';
import { canReadItem, canWriteItem } from '../common/auth/permissions.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { RequestContext } from '../common/http/request-context.js';
import { EventPayloadsService } from '../events/event-payloads.service.js';
import { EventReadsService } from '../events/event-reads.service.js';
import type { EventEntity } from '../events/event.entity.js';
import { ItemsService } from '../items/items.service.js';
import { passwordUnlocks } from '../items/protection.js';
import { toTecEvent, type TecProtection } from './tec-event.mapper.js';
import type { TecEvent } from './tec.response.js';

/** The reader's access to one record of `tec/v1`: the v1 rules, answered with the reference's codes. */
export function requireReadable(item: Parameters<typeof canReadItem>[1] | null, ctx: RequestContext): void {
  if (!item) throw new ApiError(404, ErrorCode.PostInvalidId);
  if (item.status === 'trash') {
    // the reference: 404 for those who may see the trash, a refusal for the others
    if (canWriteItem(ctx.user, item)) throw new ApiError(404, ErrorCode.PostInvalidId);
    throw ApiError.forbidden(ctx.user !== null);
  }
  if (!canReadItem(ctx.user, item)) throw ApiError.forbidden(ctx.user !== null);
}

/** Single events of `tec/v1` and the objects of its lists, made from the v1 objects of the same reader. */
@Injectable()
export class TecEventReadsService {
  constructor(
    private readonly reads: EventReadsService,
    private readonly v1Payloads: EventPayloadsService,
    private readonly items: ItemsService,
  ) {}

  async findOne(id: number, ctx: RequestContext, password: string | undefined): Promise<TecEvent> {
    await this.items.publishDueItems();
    const event = await this.reads.eventById(id);
    if (event) ctx.subject = event;
    requireReadable(event, ctx);
    const [payload] = await this.payloads([event as EventEntity], ctx, password);
    return payload;
  }

  /** The `tec/v1` objects of events the reader may read, in the order given. */
  async payloads(events: EventEntity[], ctx: RequestContext, password: string | undefined): Promise<TecEvent[]> {
    // the v1 objects as this reader gets them: statuses, translations, costs and embedded records by the v1 rules
    const v1 = await this.v1Payloads.of(events, ctx, password, false);
    const now = new Date();
    const siteZone = this.items.site.siteTimezone;
    const tec: TecEvent[] = [];
    for (const [index, event] of events.entries()) {
      const protection = protectionOf(event, password);
      // a hidden event still names its terms in `class_list`: the mapper takes them from the unlocked object and shows nothing else of it
      const source = protection === 'locked' ? (await this.v1Payloads.of([event], ctx, event.password ?? undefined, false))[0] : v1[index];
      tec.push(toTecEvent(source, { siteZone, now, protection }));
    }
    return tec;
  }
}

/** A password hides an event from every reader who did not give it, its writers included (as the reference does). */
function protectionOf(event: EventEntity, password: string | undefined): TecProtection {
  if (!event.password) return 'none';
  return passwordUnlocks(event.password, password) ? 'unlocked' : 'locked';
}
