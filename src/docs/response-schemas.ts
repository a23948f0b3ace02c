import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { Doc } from '../common/validation/doc.js';

/**
 * Response shapes of the OpenAPI document (spec §13.2): they describe the bytes the mappers send.
 * Documentation only; no code builds these classes.
 */

const EMPTY_ARRAY = { type: 'array', maxItems: 0, items: {} } as const;

@ApiSchema({ name: 'ImageSize' })
export class ImageSizeSchema {
  @Doc('Width in pixels.')
  @ApiProperty({ type: 'integer' })
  width: number;
  @Doc('Height in pixels.')
  @ApiProperty({ type: 'integer' })
  height: number;
  @Doc('Media type of the image.')
  @ApiProperty({ name: 'mime-type', type: 'string' })
  mimeType: string;
  @Doc('URL of the image in this size.')
  @ApiProperty({ type: 'string', format: 'uri' })
  url: string;
}

@ApiSchema({ name: 'CostDetails' })
export class CostDetailsSchema {
  @Doc('Currency symbol found in the cost, or empty.')
  @ApiProperty({ type: 'string' })
  currency_symbol: string;
  @Doc('Currency code; always empty.')
  @ApiProperty({ type: 'string' })
  currency_code: string;
  @Doc('Where the symbol stands.')
  @ApiProperty({ type: 'string', enum: ['prefix', 'postfix', ''] })
  currency_position: string;
  @Doc('Every number of the cost, ascending, then the non-numeric costs.')
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  values: string[];
}

class TermUrlsSchema {
  @Doc('This term in the API.')
  @ApiProperty({ type: 'string', format: 'uri' })
  self: string;
  @Doc('The list of terms of this taxonomy.')
  @ApiProperty({ type: 'string', format: 'uri' })
  collection: string;
  @Doc('The parent category, for categories that have one.')
  @ApiPropertyOptional({ type: 'string', format: 'uri' })
  up?: string;
}

@ApiSchema({ name: 'Term' })
export class TermSchema {
  @Doc('Term ID.')
  @ApiProperty({ type: 'integer' })
  id: number;
  @Doc('Number of published events carrying the term.')
  @ApiProperty({ type: 'integer' })
  count: number;
  @Doc('Description of the term.')
  @ApiProperty({ type: 'string' })
  description: string;
  @Doc('Name of the term.')
  @ApiProperty({ type: 'string' })
  name: string;
  @Doc('Slug of the term.')
  @ApiProperty({ type: 'string' })
  slug: string;
  @Doc('Taxonomy: tribe_events_cat or post_tag.')
  @ApiProperty({ type: 'string' })
  taxonomy: string;
  @Doc('Parent category ID (categories only; 0 at the top level).')
  @ApiPropertyOptional({ type: 'integer' })
  parent?: number;
  @Doc('Always empty.')
  @ApiProperty({ type: 'array', items: {} })
  meta: unknown[];
  @Doc('Public page of the term.')
  @ApiProperty({ type: 'string', format: 'uri' })
  url: string;
  @Doc('Links of the term in the API.')
  @ApiProperty({ type: TermUrlsSchema })
  urls: TermUrlsSchema;
  @Doc('Links of the term in the API, in link-object form.')
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  _links?: Record<string, unknown>;
}

@ApiSchema({ name: 'EventTerm' })
export class EventTermSchema {
  @Doc('Name of the term.')
  @ApiProperty({ type: 'string' })
  name: string;
  @Doc('Slug of the term.')
  @ApiProperty({ type: 'string' })
  slug: string;
  @Doc('Always 0.')
  @ApiProperty({ type: 'integer' })
  term_group: number;
  @Doc('Equal to the term ID.')
  @ApiProperty({ type: 'integer' })
  term_taxonomy_id: number;
  @Doc('Taxonomy: tribe_events_cat or post_tag.')
  @ApiProperty({ type: 'string' })
  taxonomy: string;
  @Doc('Description of the term.')
  @ApiProperty({ type: 'string' })
  description: string;
  @Doc('Parent category ID; 0 for top-level categories and tags.')
  @ApiProperty({ type: 'integer' })
  parent: number;
  @Doc('Number of published events carrying the term.')
  @ApiProperty({ type: 'integer' })
  count: number;
  @Doc('Always raw.')
  @ApiProperty({ type: 'string' })
  filter: string;
  @Doc('Term ID.')
  @ApiProperty({ type: 'integer' })
  id: number;
  @Doc('Links of the term in the API.')
  @ApiProperty({ type: TermUrlsSchema })
  urls: TermUrlsSchema;
}

@ApiSchema({ name: 'Image' })
export class ImageSchema {
  @Doc('URL of the image.')
  @ApiProperty({ type: 'string', format: 'uri' })
  url: string;
  @Doc('Image ID.')
  @ApiProperty({ type: 'integer' })
  id: number;
  @Doc('File extension taken from the URL.')
  @ApiProperty({ type: 'string' })
  extension: string;
}

@ApiSchema({ name: 'DateDetails' })
export class DateDetailsSchema {
  @Doc('Year, four digits.')
  @ApiProperty({ type: 'string' })
  year: string;
  @Doc('Month, two digits.')
  @ApiProperty({ type: 'string' })
  month: string;
  @Doc('Day, two digits.')
  @ApiProperty({ type: 'string' })
  day: string;
  @Doc('Hour, two digits.')
  @ApiProperty({ type: 'string' })
  hour: string;
  @Doc('Minutes, two digits.')
  @ApiProperty({ type: 'string' })
  minutes: string;
  @Doc('Seconds, two digits.')
  @ApiProperty({ type: 'string' })
  seconds: string;
}

/** Properties shared by venues and organizers. */
const itemHead = {
  id: { type: 'integer', description: 'Item ID.' },
  author: { type: 'string', description: 'ID of the author, as a string.' },
  status: { type: 'string', description: 'Publication status.' },
  date: { type: 'string', description: 'Publication date in the site time zone.' },
  date_utc: { type: 'string', description: 'Publication date in UTC.' },
  modified: { type: 'string', description: 'Last modification in the site time zone.' },
  modified_utc: { type: 'string', description: 'Last modification in UTC.' },
  url: { type: 'string', format: 'uri', description: 'Public page of the item.' },
} as const;

/** The first keys of venues and organizers (spec §8.3, §8.4). */
class ItemHeadSchema {
  @ApiProperty(itemHead.id) id: number;
  @ApiProperty(itemHead.author) author: string;
  @ApiProperty(itemHead.status) status: string;
  @ApiProperty(itemHead.date) date: string;
  @ApiProperty(itemHead.date_utc) date_utc: string;
  @ApiProperty(itemHead.modified) modified: string;
  @ApiProperty(itemHead.modified_utc) modified_utc: string;
  @ApiProperty(itemHead.url) url: string;
}

@ApiSchema({ name: 'Venue' })
export class VenueSchema extends ItemHeadSchema {
  @Doc('Name of the venue.')
  @ApiProperty({ type: 'string' })
  venue: string;
  @Doc('Description, as HTML.')
  @ApiPropertyOptional({ type: 'string' })
  description?: string;
  @Doc('Short summary, as HTML.')
  @ApiPropertyOptional({ type: 'string' })
  excerpt?: string;
  @Doc('Slug of the venue.')
  @ApiProperty({ type: 'string' })
  slug: string;
  @Doc('Featured image.')
  @ApiPropertyOptional({ oneOf: [{ $ref: getSchemaPath(ImageSchema) }, { type: 'boolean', enum: [false] }] })
  image?: unknown;
  @Doc('Street address.')
  @ApiPropertyOptional({ type: 'string' })
  address?: string;
  @Doc('City.')
  @ApiPropertyOptional({ type: 'string' })
  city?: string;
  @Doc('Country.')
  @ApiPropertyOptional({ type: 'string' })
  country?: string;
  @Doc('Province.')
  @ApiPropertyOptional({ type: 'string' })
  province?: string;
  @Doc('State.')
  @ApiPropertyOptional({ type: 'string' })
  state?: string;
  @Doc('Postal code.')
  @ApiPropertyOptional({ type: 'string' })
  zip?: string;
  @Doc('Telephone number.')
  @ApiPropertyOptional({ type: 'string' })
  phone?: string;
  @Doc('Website of the venue.')
  @ApiPropertyOptional({ type: 'string', format: 'uri' })
  website?: string;
  @Doc('State or province.')
  @ApiPropertyOptional({ type: 'string' })
  stateprovince?: string;
  @Doc('Latitude in decimal degrees.')
  @ApiPropertyOptional({ type: 'number', format: 'double' })
  geo_lat?: number;
  @Doc('Longitude in decimal degrees.')
  @ApiPropertyOptional({ type: 'number', format: 'double' })
  geo_lng?: number;
  @Doc('schema.org data of the venue (single reads only).')
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  json_ld?: Record<string, unknown>;
  @Doc('Whether events at the venue show a map.')
  @ApiProperty({ type: 'boolean' })
  show_map: boolean;
  @Doc('Whether events at the venue show a map link.')
  @ApiProperty({ type: 'boolean' })
  show_map_link: boolean;
  @Doc('Global identifier of the venue.')
  @ApiProperty({ type: 'string' })
  global_id: string;
  @Doc("Global identifiers of the venue's lineage.")
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  global_id_lineage: string[];
}

@ApiSchema({ name: 'Organizer' })
export class OrganizerSchema extends ItemHeadSchema {
  @Doc('Name of the organizer.')
  @ApiProperty({ type: 'string' })
  organizer: string;
  @Doc('Description, as HTML.')
  @ApiPropertyOptional({ type: 'string' })
  description?: string;
  @Doc('Short summary, as HTML.')
  @ApiPropertyOptional({ type: 'string' })
  excerpt?: string;
  @Doc('Slug of the organizer.')
  @ApiProperty({ type: 'string' })
  slug: string;
  @Doc('Featured image.')
  @ApiPropertyOptional({ oneOf: [{ $ref: getSchemaPath(ImageSchema) }, { type: 'boolean', enum: [false] }] })
  image?: unknown;
  @Doc('Telephone number.')
  @ApiPropertyOptional({ type: 'string' })
  phone?: string;
  @Doc('Website of the organizer.')
  @ApiPropertyOptional({ type: 'string', format: 'uri' })
  website?: string;
  @Doc('E-mail address.')
  @ApiPropertyOptional({ type: 'string' })
  email?: string;
  @Doc('schema.org data of the organizer (single reads only).')
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  json_ld?: Record<string, unknown>;
  @Doc('Global identifier of the organizer.')
  @ApiProperty({ type: 'string' })
  global_id: string;
  @Doc("Global identifiers of the organizer's lineage.")
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  global_id_lineage: string[];
}

const dateDetails = { type: () => DateDetailsSchema };

@ApiSchema({ name: 'Event' })
export class EventSchema {
  @Doc('Event ID.')
  @ApiProperty({ type: 'integer' })
  id: number;
  @Doc('Global identifier of the event.')
  @ApiProperty({ type: 'string' })
  global_id: string;
  @Doc("Global identifiers of the event's lineage.")
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  global_id_lineage: string[];
  @ApiProperty(itemHead.author) author: string;
  @ApiProperty(itemHead.status) status: string;
  @ApiProperty(itemHead.date) date: string;
  @ApiProperty(itemHead.date_utc) date_utc: string;
  @ApiProperty(itemHead.modified) modified: string;
  @ApiProperty(itemHead.modified_utc) modified_utc: string;
  @ApiProperty(itemHead.url) url: string;
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
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(ImageSchema) }, { type: 'boolean', enum: [false] }] })
  image: unknown;
  @Doc('Whether the event lasts all day.')
  @ApiProperty({ type: 'boolean' })
  all_day: boolean;
  @Doc('Start, local time of the event.')
  @ApiProperty({ type: 'string' })
  start_date: string;
  @Doc('Parts of the local start.')
  @ApiProperty(dateDetails)
  start_date_details: DateDetailsSchema;
  @Doc('End, local time of the event.')
  @ApiProperty({ type: 'string' })
  end_date: string;
  @Doc('Parts of the local end.')
  @ApiProperty(dateDetails)
  end_date_details: DateDetailsSchema;
  @Doc('Start in UTC.')
  @ApiProperty({ type: 'string' })
  utc_start_date: string;
  @Doc('Parts of the start in UTC.')
  @ApiProperty(dateDetails)
  utc_start_date_details: DateDetailsSchema;
  @Doc('End in UTC.')
  @ApiProperty({ type: 'string' })
  utc_end_date: string;
  @Doc('Parts of the end in UTC.')
  @ApiProperty(dateDetails)
  utc_end_date_details: DateDetailsSchema;
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
  @ApiProperty({ type: () => CostDetailsSchema })
  cost_details: CostDetailsSchema;
  @Doc('Website of the event, or its public page.')
  @ApiProperty({ type: 'string', format: 'uri' })
  website: string;
  @Doc('Whether the event shows a map.')
  @ApiProperty({ type: 'boolean' })
  show_map: boolean;
  @Doc('Whether the event shows a map link.')
  @ApiProperty({ type: 'boolean' })
  show_map_link: boolean;
  @Doc('Whether the event is left out of event lists.')
  @ApiProperty({ type: 'boolean' })
  hide_from_listings: boolean;
  @Doc('Whether the event is pinned in calendar views.')
  @ApiProperty({ type: 'boolean' })
  sticky: boolean;
  @Doc('Whether the event is featured.')
  @ApiProperty({ type: 'boolean' })
  featured: boolean;
  @Doc('Categories of the event.')
  @ApiProperty({ type: 'array', items: { $ref: getSchemaPath(EventTermSchema) } })
  categories: EventTermSchema[];
  @Doc('Tags of the event.')
  @ApiProperty({ type: 'array', items: { $ref: getSchemaPath(EventTermSchema) } })
  tags: EventTermSchema[];
  @Doc('The venue, or an empty array.')
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(VenueSchema) }, EMPTY_ARRAY] })
  venue: unknown;
  @Doc('The organizers.')
  @ApiProperty({ type: 'array', items: { $ref: getSchemaPath(OrganizerSchema) } })
  organizer: OrganizerSchema[];
  @Doc('Additional fields with a value, or an empty array.')
  @ApiProperty({ oneOf: [{ type: 'object', additionalProperties: true }, EMPTY_ARRAY] })
  custom_fields: unknown;
  @Doc('schema.org data of the event (single reads only).')
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  json_ld?: Record<string, unknown>;
}

class ErrorDataSchema {
  @Doc('HTTP status of the answer.')
  @ApiProperty({ type: 'integer' })
  status: number;
  @Doc('Invalid parameters with their messages, or the missing parameters.')
  @ApiPropertyOptional({
    oneOf: [
      { type: 'object', additionalProperties: { type: 'string' } },
      { type: 'array', items: { type: 'string' } },
    ],
  })
  params?: unknown;
  @Doc('Details of parameters that failed a type check.')
  @ApiPropertyOptional({ oneOf: [{ type: 'object', additionalProperties: true }, EMPTY_ARRAY] })
  details?: unknown;
  @Doc('ID of the existing term (term_exists only).')
  @ApiPropertyOptional({ type: 'integer' })
  term_id?: number;
}

@ApiSchema({ name: 'Error' })
export class ErrorSchema {
  @Doc('Machine-readable error code.')
  @ApiProperty({ type: 'string' })
  code: string;
  @Doc('Human-readable message.')
  @ApiProperty({ type: 'string' })
  message: string;
  @Doc('Status and details.')
  @ApiProperty({ type: ErrorDataSchema })
  data: ErrorDataSchema;
}

export const RESPONSE_SCHEMAS = [
  ImageSizeSchema,
  CostDetailsSchema,
  TermSchema,
  EventTermSchema,
  ImageSchema,
  DateDetailsSchema,
  EventSchema,
  VenueSchema,
  OrganizerSchema,
  ErrorSchema,
];
export const SCHEMA_ORDER = [
  'ImageSize',
  'CostDetails',
  'Term',
  'EventTerm',
  'Image',
  'DateDetails',
  'Event',
  'Venue',
  'Organizer',
  'Error',
];
