import { Injectable } from '@nestjs/common';
import { canCreate, canWriteItem } from '../common/auth/permissions.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode, ItemErrorCode } from '../common/errors/error-codes.js';
import type { RequestContext } from '../common/http/request-context.js';
import { ApiValidationPipe } from '../common/validation/api-validation.pipe.js';
import { CreateEventDto } from '../events/dto/create-event.dto.js';
import { UpdateEventDto } from '../events/dto/update-event.dto.js';
import { EventReadsService } from '../events/event-reads.service.js';
import { EventEntity } from '../events/event.entity.js';
import { EventsService } from '../events/events.service.js';
import { ItemDeletionService } from '../items/item-deletion.service.js';
import { ItemsService } from '../items/items.service.js';
import { OrganizerEntity } from '../organizers/organizer.entity.js';
import { CreateOrganizerDto } from '../organizers/dto/create-organizer.dto.js';
import { UpdateOrganizerDto } from '../organizers/dto/update-organizer.dto.js';
import { OrganizersService } from '../organizers/organizers.service.js';
import { CreateVenueDto } from '../venues/dto/create-venue.dto.js';
import { UpdateVenueDto } from '../venues/dto/update-venue.dto.js';
import { VenueEntity } from '../venues/venue.entity.js';
import { VenuesService } from '../venues/venues.service.js';
import type { TecEventWriteDto, TecOrganizerWriteDto, TecPostWriteDto, TecVenueWriteDto } from './dto/tec-write.dto.js';
import { tecEventDates } from './tec-event-dates.js';
import { type TecKind, V1_NAMES } from './tec-names.js';

type Body = Record<string, unknown>;
const KIND_OF = { events: 'event', venues: 'venue', organizers: 'organizer' } as const;

/** Copies the fields `names` maps (`tec/v1` name → v1 name) that the body sends. */
function renamed(input: object, names: Record<string, string>): Body {
  const body: Body = {};
  for (const [from, to] of Object.entries(names)) {
    const value = (input as Body)[from];
    if (value !== undefined) body[to] = value;
  }
  return body;
}

/** The names `renamed` copies as they are sent; the rest of `V1_NAMES` is converted by the writer. */
const CONVERTED = new Set(['tags', 'tribe_events_cat', 'organizers', 'venues']);
const EVENT_NAMES = Object.fromEntries(Object.entries(V1_NAMES.events).filter(([name]) => !CONVERTED.has(name)));

/** A `tec/v1` event body as the v1 event write reads it; `dates`: its start and end in the event's zone (`tecEventDates`). */
export function v1EventBody(input: TecEventWriteDto, dates: { start_date?: string; end_date?: string }): Body {
  const body = renamed({ ...input, ...dates }, EVENT_NAMES);
  if (input.tags !== undefined) body.tags = input.tags.map(String);
  if (input.tribe_events_cat !== undefined) body.categories = input.tribe_events_cat.map(String);
  if (input.organizers !== undefined) body.organizer = input.organizers;
  // v1 events have one venue: the first named (none: no venue)
  if (input.venues !== undefined) body.venue = input.venues[0] ?? null;
  return body;
}

/** A `tec/v1` venue or organizer body as the v1 write of its kind reads it (the name in `venue` / `organizer`). */
export function v1LinkedBody(kind: 'venues' | 'organizers', input: TecVenueWriteDto | TecOrganizerWriteDto): Body {
  return renamed(input, V1_NAMES[kind]);
}

/**
 * The writes of `tec/v1` through the v1 writes of the resources: the body renamed, checked by the
 * API's validation pipe against the v1 DTO (so every v1 rule applies), then created, updated or
 * trashed by the resource's own service. The answers are read again in the `tec/v1` shape by the
 * caller.
 */
@Injectable()
export class TecWritesService {
  private readonly pipe = new ApiValidationPipe();

  constructor(
    private readonly events: EventsService,
    private readonly eventReads: EventReadsService,
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
    private readonly deletion: ItemDeletionService,
    private readonly items: ItemsService,
  ) {}

  /** The reference checks the right to create before its acknowledgement: so do we (401 anonymous, 403 others). */
  assertMayCreate(kind: TecKind, ctx: RequestContext): void {
    if (!canCreate(kind, ctx.user)) throw ApiError.forbidden(ctx.user !== null);
  }

  /**
   * The record of an update or delete: 404 when there is none of the kind, a refusal when the
   * requester may not write it; an update of a record in the trash is 410, as its delete is.
   */
  async assertMayWrite(kind: TecKind, id: number, ctx: RequestContext, update: boolean): Promise<void> {
    const item =
      kind === 'events'
        ? await this.eventReads.eventById(id)
        : await (kind === 'venues' ? this.venues : this.organizers).requireItem({ id }).catch((error: unknown) => {
            if (error instanceof ApiError && error.status === 400) return null;
            throw error;
          });
    if (!item) throw new ApiError(404, ErrorCode.PostInvalidId);
    ctx.subject = item;
    if (!canWriteItem(ctx.user, item)) throw ApiError.forbidden(ctx.user !== null);
    if (update && item.status === 'trash') throw new ApiError(410, ItemErrorCode.inTrash(KIND_OF[kind]));
  }

  async create(kind: TecKind, input: TecPostWriteDto, ctx: RequestContext): Promise<number> {
    if (kind === 'events') {
      const dates = tecEventDates(input as TecEventWriteDto, null, this.items.site.siteTimezone);
      const body = (await this.pipe.transform(v1EventBody(input, dates), { type: 'body', metatype: CreateEventDto })) as CreateEventDto;
      return (await this.events.create(body, ctx)).id;
    }
    const raw = v1LinkedBody(kind, input);
    if (kind === 'venues')
      return (await this.venues.create((await this.pipe.transform(raw, { type: 'body', metatype: CreateVenueDto })) as CreateVenueDto, ctx))
        .id;
    return (
      await this.organizers.create(
        (await this.pipe.transform(raw, { type: 'body', metatype: CreateOrganizerDto })) as CreateOrganizerDto,
        ctx,
      )
    ).id;
  }

  async update(kind: TecKind, id: number, input: TecPostWriteDto, ctx: RequestContext): Promise<void> {
    if (kind === 'events') {
      const dates = tecEventDates(input as TecEventWriteDto, await this.eventReads.eventById(id), this.items.site.siteTimezone);
      const body = (await this.pipe.transform(v1EventBody(input, dates), { type: 'body', metatype: UpdateEventDto })) as UpdateEventDto;
      await this.events.update({ id }, body, ctx);
      return;
    }
    const raw = v1LinkedBody(kind, input);
    if (kind === 'venues')
      await this.venues.update({ id }, (await this.pipe.transform(raw, { type: 'body', metatype: UpdateVenueDto })) as UpdateVenueDto, ctx);
    else
      await this.organizers.update(
        { id },
        (await this.pipe.transform(raw, { type: 'body', metatype: UpdateOrganizerDto })) as UpdateOrganizerDto,
        ctx,
      );
  }

  /** Moves the record to the trash (410 when it is there already). */
  async trash(kind: TecKind, id: number, ctx: RequestContext): Promise<void> {
    if (kind === 'events') await this.events.remove({ id }, ctx);
    else await (kind === 'venues' ? this.venues : this.organizers).remove({ id }, ctx);
  }

  /**
   * Deletes the record for good: first the trash of its kind when it is not there yet (which unlinks
   * it and moves the term counts, and records the change), then the deletion of a trashed item.
   * Events of a series are not deleted for good (their series would lose an occurrence it still
   * names): 501, as before.
   */
  async deleteForGood(kind: TecKind, id: number, ctx: RequestContext): Promise<void> {
    const entity = kind === 'events' ? EventEntity : kind === 'venues' ? VenueEntity : OrganizerEntity;
    const item = ctx.subject;
    if (kind === 'events' && (item as EventEntity | null)?.seriesId != null) throw new ApiError(501, ErrorCode.TecForceDeleteUnsupported);
    if (item?.status !== 'trash') await this.trash(kind, id, ctx);
    await this.deletion.deleteTrashed(KIND_OF[kind], entity, id);
  }
}
