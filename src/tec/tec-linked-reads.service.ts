import { Injectable } from '@nestjs/common';
import { mayFilterByStatus } from '../common/auth/permissions.js';
import { ApiError } from '../common/errors/api-error.js';
import { ItemErrorCode } from '../common/errors/error-codes.js';
import type { RequestContext } from '../common/http/request-context.js';
import { ListLinkedItemsQueryDto } from '../items/dto/list-linked-items.query.js';
import type { LinkedItemsService } from '../items/linked-items.service.js';
import type { LinkedItem } from '../items/linked-item-kind.js';
import { OrganizersService } from '../organizers/organizers.service.js';
import type { OrganizerResponse } from '../organizers/organizer.response.js';
import { VenuesService } from '../venues/venues.service.js';
import type { VenueResponse } from '../venues/venue.response.js';
import type { TecListLinkedQueryDto } from './dto/tec-list.query.js';
import { requireReadable } from './tec-event-reads.service.js';
import { toTecOrganizer, toTecVenue } from './tec-item.mapper.js';
import { pageNotFound, tecPaging, type TecPage } from './tec-paging.js';
import type { TecOrganizer, TecVenue } from './tec.response.js';

type AnyLinkedService = LinkedItemsService<LinkedItem, never, object>;

/**
 * Venues and organizers of `tec/v1`: the v1 list and single reads of the same reader (filters,
 * visibility, translations), newest first, in the `tec/v1` shape.
 */
@Injectable()
export class TecLinkedReadsService {
  constructor(
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
  ) {}

  listVenues(query: TecListLinkedQueryDto, ctx: RequestContext): Promise<TecPage<TecVenue>> {
    return this.list(this.venues as unknown as AnyLinkedService, 'venues', query, ctx, (item) => toTecVenue(item as VenueResponse));
  }

  listOrganizers(query: TecListLinkedQueryDto, ctx: RequestContext): Promise<TecPage<TecOrganizer>> {
    return this.list(this.organizers as unknown as AnyLinkedService, 'organizers', query, ctx, (item) =>
      toTecOrganizer(item as OrganizerResponse),
    );
  }

  async venue(id: number, ctx: RequestContext): Promise<TecVenue> {
    return toTecVenue((await this.findOne(this.venues as unknown as AnyLinkedService, id, ctx)) as VenueResponse);
  }

  async organizer(id: number, ctx: RequestContext): Promise<TecOrganizer> {
    return toTecOrganizer((await this.findOne(this.organizers as unknown as AnyLinkedService, id, ctx)) as OrganizerResponse);
  }

  private async findOne(service: AnyLinkedService, id: number, ctx: RequestContext): Promise<object> {
    const item = await service.requireItem({ id }).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 400) return null;
      throw error;
    });
    if (item) ctx.subject = item;
    requireReadable(item, ctx);
    return service.findOne({ id }, ctx, undefined);
  }

  private async list<T>(
    service: AnyLinkedService,
    resource: 'venues' | 'organizers',
    query: TecListLinkedQueryDto,
    ctx: RequestContext,
    map: (item: object) => T,
  ): Promise<TecPage<T>> {
    const { page, perPage } = tecPaging(query);
    const v1 = Object.assign(new ListLinkedItemsQueryDto(), {
      page,
      per_page: perPage,
      search: query.search || undefined,
      event: query.event,
      has_events: query.has_events,
      only_with_upcoming: query.only_with_upcoming,
      // an anonymous reader's status is not refused: it lists what is published, as the reference does
      status: mayFilterByStatus(ctx.user) && query.status ? query.status : ['publish'],
      orderby: 'date' as const,
      order: 'desc' as const,
    });
    const answer = await service.list(v1, ctx).catch((error: unknown) => {
      const kind = resource === 'venues' ? 'venue' : 'organizer';
      throw error instanceof ApiError && error.code === ItemErrorCode.archivePageNotFound(kind) ? pageNotFound() : error;
    });
    const items = (answer.body as unknown as Record<string, object[]>)[resource];
    return { items: items.map(map), page, total: answer.headers.total, totalPages: answer.headers.totalPages };
  }
}
