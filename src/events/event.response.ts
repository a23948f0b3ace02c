import { CONTENT_LANGUAGE_DOC, ContentLanguageResponse } from '../translations/content-language.response.js';
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { ItemStatus } from '../common/auth/item-status.js';
import { DateDetailsResponse } from '../common/dates/date-details.response.js';
import { EMPTY_ARRAY_SCHEMA, ResponseSchema } from '../common/openapi/response-schema.js';
import type { JsonLd } from '../common/text/json-ld.js';
import { Doc } from '../common/validation/doc.js';
import { ImageResponse, imageOrFalse } from '../images/image.response.js';
import { ITEM_HEAD_PROPERTIES } from '../items/item.response.js';
import { OrganizerResponse } from '../organizers/organizer.response.js';
import { EventTermResponse } from '../terms/term.response.js';
import { VenueResponse } from '../venues/venue.response.js';

/** Where the currency symbol of a cost stands; `''` when the cost has none. */
export const CURRENCY_POSITIONS = ['prefix', 'postfix', ''] as const;

/** The `cost_details` object (spec §8.8). */
@ResponseSchema('CostDetails')
export class CostDetailsResponse {
  @Doc('Currency symbol found in the cost, or empty.')
  @ApiProperty({ type: 'string' })
  currency_symbol: string;

  @Doc('Currency code; always empty.')
  @ApiProperty({ type: 'string' })
  currency_code: '';

  @Doc('Where the symbol stands.')
  @ApiProperty({ type: 'string', enum: [...CURRENCY_POSITIONS] })
  currency_position: (typeof CURRENCY_POSITIONS)[number];

  @Doc('Every number of the cost, ascending, then the non-numeric costs.')
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  values: string[];
}

/** The `recurrence` object of an occurrence of a recurring event (extension). */
@ResponseSchema('EventRecurrence')
export class EventRecurrenceResponse {
  @Doc('ID of the series: the ID of its main event.')
  @ApiProperty({ type: 'integer' })
  series_id: number;

  @Doc('The recurrence lines of the series (RRULE, RDATE, EXDATE), read in its time zone.')
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  rules: string[];

  @Doc('Whether this event is the main event of the series.')
  @ApiProperty({ type: 'boolean' })
  is_main: boolean;

  @Doc('The start the rule gave this occurrence, in the time zone of the series; it stays when the occurrence is moved.')
  @ApiProperty({ type: 'string' })
  original_start: string;
}

/** One additional field of an event with a value (spec §8.11). */
export interface CustomFieldValue {
  label: string;
  value: string;
}

const dateDetails = { type: () => DateDetailsResponse };

/**
 * The event object of spec §8.2, keys in contract order; `json_ld` only on single reads. A
 * password-protected event shown locked has its texts blanked, its relations and `image` emptied and
 * its flags null (spec §5.6, §8.12).
 */
@ResponseSchema('Event', ImageResponse, EventTermResponse, VenueResponse, OrganizerResponse, EventRecurrenceResponse)
export class EventResponse {
  @Doc('Event ID.')
  @ApiProperty({ type: 'integer' })
  id: number;

  @Doc('Global identifier of the event.')
  @ApiProperty({ type: 'string' })
  global_id: string;

  @Doc("Global identifiers of the event's lineage.")
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  global_id_lineage: string[];

  @ApiProperty(ITEM_HEAD_PROPERTIES.author) author: string;
  @ApiProperty(ITEM_HEAD_PROPERTIES.status) status: ItemStatus;
  @ApiProperty(ITEM_HEAD_PROPERTIES.date) date: string;
  @ApiProperty(ITEM_HEAD_PROPERTIES.date_utc) date_utc: string;
  @ApiProperty(ITEM_HEAD_PROPERTIES.modified) modified: string;
  @ApiProperty(ITEM_HEAD_PROPERTIES.modified_utc) modified_utc: string;
  @ApiProperty(ITEM_HEAD_PROPERTIES.url) url: string;

  @Doc('This event in the API.')
  @ApiProperty({ type: 'string', format: 'uri' })
  rest_url: string;

  @Doc('Title of the event.')
  @ApiProperty({ type: 'string' })
  title: string;

  @Doc('Description, as HTML.')
  @ApiProperty({ type: 'string' })
  description: string;

  @Doc('Short summary, as HTML.')
  @ApiProperty({ type: 'string' })
  excerpt: string;

  @Doc('Slug of the event.')
  @ApiProperty({ type: 'string' })
  slug: string;

  @Doc('Featured image, or false.')
  @ApiProperty(imageOrFalse())
  image: ImageResponse | false;

  @Doc('Whether the event lasts all day.')
  @ApiProperty({ type: 'boolean' })
  all_day: boolean | null;

  @Doc('Start, local time of the event.')
  @ApiProperty({ type: 'string' })
  start_date: string;

  @Doc('Parts of the local start.')
  @ApiProperty(dateDetails)
  start_date_details: DateDetailsResponse;

  @Doc('End, local time of the event.')
  @ApiProperty({ type: 'string' })
  end_date: string;

  @Doc('Parts of the local end.')
  @ApiProperty(dateDetails)
  end_date_details: DateDetailsResponse;

  @Doc('Start in UTC.')
  @ApiProperty({ type: 'string' })
  utc_start_date: string;

  @Doc('Parts of the start in UTC.')
  @ApiProperty(dateDetails)
  utc_start_date_details: DateDetailsResponse;

  @Doc('End in UTC.')
  @ApiProperty({ type: 'string' })
  utc_end_date: string;

  @Doc('Parts of the end in UTC.')
  @ApiProperty(dateDetails)
  utc_end_date_details: DateDetailsResponse;

  @Doc('Time zone of the event.')
  @ApiProperty({ type: 'string' })
  timezone: string;

  @Doc('Abbreviation of the time zone at the start.')
  @ApiProperty({ type: 'string' })
  timezone_abbr: string;

  @Doc('Cost as displayed.')
  @ApiProperty({ type: 'string' })
  cost: string;

  @Doc('Currency and values of the cost.')
  @ApiProperty({ type: () => CostDetailsResponse })
  cost_details: CostDetailsResponse;

  @Doc('Website of the event, or its public page.')
  @ApiProperty({ type: 'string', format: 'uri' })
  website: string;

  @Doc('Whether the event shows a map.')
  @ApiProperty({ type: 'boolean' })
  show_map: boolean | null;

  @Doc('Whether the event shows a map link.')
  @ApiProperty({ type: 'boolean' })
  show_map_link: boolean | null;

  @Doc('Whether the event is left out of event lists.')
  @ApiProperty({ type: 'boolean' })
  hide_from_listings: boolean | null;

  @Doc('Whether the event is pinned in calendar views.')
  @ApiProperty({ type: 'boolean' })
  sticky: boolean | null;

  @Doc('Whether the event is featured.')
  @ApiProperty({ type: 'boolean' })
  featured: boolean | null;

  @Doc('Categories of the event.')
  @ApiProperty({ type: 'array', items: { $ref: getSchemaPath(EventTermResponse) } })
  categories: EventTermResponse[];

  @Doc('Tags of the event.')
  @ApiProperty({ type: 'array', items: { $ref: getSchemaPath(EventTermResponse) } })
  tags: EventTermResponse[];

  @Doc('The venue, or an empty array.')
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(VenueResponse) }, EMPTY_ARRAY_SCHEMA] })
  venue: VenueResponse | [];

  @Doc('The organizers.')
  @ApiProperty({ type: 'array', items: { $ref: getSchemaPath(OrganizerResponse) } })
  organizer: OrganizerResponse[];

  @Doc('Additional fields with a value, or an empty array.')
  @ApiProperty({ oneOf: [{ type: 'object', additionalProperties: true }, EMPTY_ARRAY_SCHEMA] })
  custom_fields: Record<string, CustomFieldValue> | [];

  @Doc('Extension: the series this event is an occurrence of, or null for a single event.')
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(EventRecurrenceResponse) }], nullable: true })
  recurrence: EventRecurrenceResponse | null;

  @Doc('schema.org data of the event (single reads only).')
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  json_ld?: JsonLd;

  @Doc(CONTENT_LANGUAGE_DOC)
  @ApiPropertyOptional({ type: ContentLanguageResponse })
  language?: ContentLanguageResponse;
}
