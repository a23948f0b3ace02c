import { MISSING_TRANSLATION_DOC, MissingTranslationParam } from '../../translations/translations-input.js';
import { PageQueryDto } from '../../common/paging/page-query.dto.js';
import { Invalid, Param } from '../../common/validation/param.js';
import { boolean, idList, idOrSlugList, integer, lastValue, nullableNumber, oneOf } from '../../common/validation/parsers.js';
import { parseStrictDates } from '../../common/dates/list-window.js';
import { PasswordParam, SearchText, StatusFilter } from '../../items/dto/list-items.query.js';
import { dateText } from '../../common/validation/parsers.js';
import { Doc } from '../../common/validation/doc.js';
import { CollectsProblems } from '../../common/validation/api-validation.pipe.js';
import { ModifiedParam, OrderByParam, OrderParam, type SortDirection } from '../../common/paging/list-order.query.js';

export const EVENT_ORDERBY = ['event_date', 'date', 'modified', 'title', 'id'] as const;
export type EventOrderBy = (typeof EVENT_ORDERBY)[number];

const DateFilter = (schema: Record<string, unknown> = {}) => Param(dateText, { schema: { type: 'string', ...schema } });

/** Parameters of `GET /events` (spec §9.4), in the order of its table. */
@CollectsProblems()
export class ListEventsQueryDto extends PageQueryDto {
  @Doc('Only events that start on or after this date.')
  @DateFilter()
  start_date?: string;

  @Doc('Only events that end on or before this date.')
  @DateFilter()
  end_date?: string;

  @Doc('Only events that start before this date.')
  @DateFilter()
  starts_before?: string;

  @Doc('Only events that start after this date.')
  @DateFilter()
  starts_after?: string;

  @Doc('Only events that end before this date.')
  @DateFilter()
  ends_before?: string;

  @Doc('Only events that end after this date.')
  @DateFilter()
  ends_after?: string;

  @Doc('When true, the dates above are used at the exact time given; otherwise they cover whole days.')
  @Param((raw) => parseStrictDates(lastValue(raw)) ?? new Invalid({ key: 'one_of', args: { values: 'true, false' } }), {
    schema: { type: 'string', default: 'false' },
  })
  strict_dates?: boolean;

  @Doc('Only events whose title, description or excerpt contain the words.')
  @SearchText()
  search?: string;

  @Doc(MISSING_TRANSLATION_DOC, { example: 'de' })
  @MissingTranslationParam()
  missing_translation?: string;

  @Doc('Only events in at least one of these categories (IDs or slugs).')
  @Param(idOrSlugList, { schema: { type: 'array', items: { type: 'integer' } } })
  categories?: string[];

  @Doc('Only events with at least one of these tags (IDs or slugs).')
  @Param(idOrSlugList, { schema: { type: 'array', items: { type: 'integer' } } })
  tags?: string[];

  @Doc('Only events at one of these venues.')
  @Param(idList, { schema: { type: 'array', items: { type: 'integer' } } })
  venue?: number[];

  @Doc('Only events run by at least one of these organizers.')
  @Param(idList, { schema: { type: 'array', items: { type: 'integer' } } })
  organizer?: number[];

  @Doc('Only featured (true) or only non-featured (false) events.')
  @Param(boolean, { schema: { type: 'boolean' } })
  featured?: boolean;

  @Doc('Statuses to include.')
  @StatusFilter()
  status?: string[];

  @Doc('Only events whose venue has (true) or lacks (false) coordinates.')
  @Param(boolean, { schema: { type: 'boolean' } })
  geoloc?: boolean;

  @Doc('Latitude of the centre of a geographic search; needs geoloc_lng.')
  @Param(nullableNumber({ min: -90, max: 90 }), { schema: { type: 'number', format: 'double' } })
  geoloc_lat?: number | null;

  @Doc('Longitude of the centre of a geographic search; needs geoloc_lat.')
  @Param(nullableNumber({ min: -180, max: 180 }), { schema: { type: 'number', format: 'double' } })
  geoloc_lng?: number | null;

  @Doc('Only these event IDs; date filters are then ignored.')
  @Param(idList, { schema: { type: 'array', items: { type: 'integer' } } })
  include?: number[];

  @Doc('Only events whose parent is this event.')
  @Param(integer({ min: 1 }), { schema: { type: 'integer' } })
  post_parent?: number;

  @Doc('Events with (true) or without (false) tickets.')
  @Param(
    (raw, param) => {
      const value = boolean(raw, param);
      return value === true ? new Invalid({ key: 'tickets_inactive', detailsCode: 'event-tickets-not-active' }) : value;
    },
    { schema: { type: 'boolean' } },
  )
  ticketed?: boolean;

  @Doc('Sort key: event_date (the start, the default), date (publication), modified, title or id.')
  @OrderByParam(EVENT_ORDERBY)
  orderby?: EventOrderBy;

  @Doc('Sort direction, asc or desc; descending by default for date and modified, ascending otherwise.')
  @OrderParam()
  order?: SortDirection;

  @Doc('Only records last modified after this date.')
  @ModifiedParam()
  modified_after?: string;

  @Doc('Only records last modified before this date.')
  @ModifiedParam()
  modified_before?: string;

  @Doc('Password that unlocks protected events in the page.')
  @PasswordParam()
  password?: string;

  @Doc('Extension: series to list one item per recurring event, its first occurrence among the matches; total counts that way.')
  @Param(oneOf(['series'] as const), { schema: { type: 'string', enum: ['series'] } })
  collapse?: 'series';
}
