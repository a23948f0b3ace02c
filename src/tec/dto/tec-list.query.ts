import {
  TecFlag,
  TecIds,
  TecInteger,
  TecMoment,
  TecOneOf,
  TecOrder,
  TecPassword,
  TecPositive,
  TecSearch,
  TecStatuses,
} from './tec-params.js';

export const TEC_EVENT_ORDERBY = ['date', 'event_date', 'title', 'menu_order', 'modified'] as const;
export type TecEventOrderBy = (typeof TEC_EVENT_ORDERBY)[number];

/** `page`, `per_page`, `search` and `status`: what the three lists of `tec/v1` share. */
export class TecListQueryDto {
  /** Page of the list. */
  @TecPositive()
  page?: number;

  /** Records on one page. */
  @TecPositive()
  per_page?: number;

  /** Words the records contain. */
  @TecSearch()
  search?: string;

  /** Statuses to list (users who may edit). */
  @TecStatuses()
  status?: string[];
}

/** `GET /tec/v1/events`. Dates are UTC wall times once parsed. */
export class TecListEventsQueryDto extends TecListQueryDto {
  @TecMoment()
  start_date?: string;

  @TecMoment()
  end_date?: string;

  @TecIds()
  categories?: number[];

  @TecIds()
  tags?: number[];

  @TecIds()
  venue?: number[];

  @TecIds()
  organizer?: number[];

  @TecFlag()
  featured?: boolean;

  @TecPositive()
  post_parent?: number;

  @TecMoment()
  starts_before?: string;

  @TecMoment()
  starts_after?: string;

  @TecMoment()
  ends_before?: string;

  @TecMoment()
  ends_after?: string;

  @TecFlag()
  ticketed?: boolean;

  @TecOneOf(TEC_EVENT_ORDERBY)
  orderby?: TecEventOrderBy;

  @TecOrder()
  order?: 'ASC' | 'DESC';

  /** Unlocks password-protected events of the page. */
  @TecPassword()
  password?: string;
}

/** `GET /tec/v1/venues` and `GET /tec/v1/organizers`. */
export class TecListLinkedQueryDto extends TecListQueryDto {
  @TecInteger()
  event?: number;

  @TecFlag()
  has_events?: boolean;

  @TecFlag()
  only_with_upcoming?: boolean;
}

/** `?password=` of a single event. */
export class TecReadQueryDto {
  @TecPassword()
  password?: string;
}
