/**
 * The arguments of the `tec/v1` routes as the reference declares them (names, types, formats,
 * defaults, enums), each with a description of ours. The namespace index, `OPTIONS` and the OpenAPI
 * document are all written from these tables; the DTOs of `dto/` enforce them.
 */

export interface TecArg {
  type: 'integer' | 'string' | 'boolean' | 'array';
  description: string;
  format?: string;
  pattern?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  enum?: readonly string[];
  /** Arrays: the type of the items, and their enum. */
  items?: { type: 'integer' | 'string'; enum?: readonly string[] };
}

export type TecArgs = Record<string, TecArg>;

const STATUSES = ['publish', 'pending', 'draft', 'future', 'private'] as const;
const POST_DATE = '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}(?::\\d{2})?)?$';
/** The only form of the event dates of writes. */
export const EVENT_DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$';

const ids = (description: string): TecArg => ({ type: 'array', items: { type: 'integer' }, description });
const dateTime = (description: string): TecArg => ({ type: 'string', format: 'date-time', description });
const text = (description: string, format?: string): TecArg => ({ type: 'string', description, ...(format ? { format } : {}) });
const flag = (description: string, fallback?: boolean): TecArg => ({
  type: 'boolean',
  description,
  ...(fallback === undefined ? {} : { default: fallback }),
});

const PAGING: TecArgs = {
  page: { type: 'integer', default: 1, minimum: 1, description: 'Page of the list to return.' },
  per_page: { type: 'integer', default: 10, maximum: 100, minimum: 1, description: 'Records on one page.' },
};

const STATUS_FILTER: TecArg = {
  type: 'array',
  items: { type: 'string', enum: STATUSES },
  default: ['publish'],
  description: 'Statuses to list; statuses other than publish need the right to edit.',
};

export const EVENT_LIST_ARGS: TecArgs = {
  ...PAGING,
  start_date: dateTime('Only events that start at or after this moment.'),
  end_date: dateTime('Only events that end at or before this moment.'),
  search: text('Only events whose title, content or excerpt contain these words.'),
  categories: ids('Only events in one of these event categories.'),
  tags: ids('Only events with one of these tags.'),
  venue: ids('Only events at one of these venues.'),
  organizer: ids('Only events run by one of these organizers.'),
  featured: flag('Only featured events (true) or only the others (false).'),
  status: STATUS_FILTER,
  post_parent: { type: 'integer', description: 'Only events whose parent is this event.' },
  starts_before: dateTime('Only events that start before this moment.'),
  starts_after: dateTime('Only events that start after this moment.'),
  ends_before: dateTime('Only events that end before this moment.'),
  ends_after: dateTime('Only events that end after this moment.'),
  ticketed: flag('Only events with tickets (true) or without (false); no event here has tickets.'),
  orderby: {
    type: 'string',
    default: 'event_date',
    enum: ['date', 'event_date', 'title', 'menu_order', 'modified'],
    description: 'What the list is sorted by: the start of the event by default.',
  },
  order: { type: 'string', default: 'ASC', enum: ['ASC', 'DESC'], description: 'Sort direction.' },
};

export const LINKED_LIST_ARGS = (kind: 'venue' | 'organizer'): TecArgs => ({
  ...PAGING,
  search: text(`Only ${kind}s whose texts contain these words.`),
  event: { type: 'integer', description: `Only the ${kind}s of this event.` },
  has_events: flag(`Only ${kind}s with events (true) or without (false).`),
  only_with_upcoming: flag(`Only ${kind}s with an event to come.`),
  status: STATUS_FILTER,
});

const POST_FIELDS = (stickyDefault: boolean | undefined): TecArgs => ({
  date: { ...dateTime('Publication date in the site time zone.'), pattern: POST_DATE },
  date_gmt: { ...dateTime('Publication date in UTC.'), pattern: POST_DATE },
  slug: text('Unique name of the record in its URL.'),
  status: { type: 'string', default: 'publish', enum: STATUSES, description: 'Status of the record.' },
  title: text('Title of the record.'),
  content: text('Content of the record (HTML).'),
  excerpt: text('Short summary of the record (HTML).'),
  author: { type: 'integer', description: 'ID of the author.' },
  featured_media: { type: 'integer', description: 'ID of the image of the record.' },
  comment_status: {
    type: 'string',
    default: 'open',
    enum: ['open', 'closed'],
    description: 'Whether comments are open (kept for WordPress clients).',
  },
  ping_status: {
    type: 'string',
    default: 'open',
    enum: ['open', 'closed'],
    description: 'Whether pings are open (kept for WordPress clients).',
  },
  format: {
    type: 'string',
    default: 'standard',
    enum: ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'],
    description: 'Post format (kept for WordPress clients).',
  },
  sticky: flag('Whether the record is sticky.', stickyDefault),
  template: text('Theme template (kept for WordPress clients).'),
  tags: ids('IDs of the tags of the record.'),
});

const eventDate = (description: string): TecArg => ({ ...dateTime(description), pattern: EVENT_DATE_PATTERN });

export const EVENT_WRITE_ARGS: TecArgs = {
  ...POST_FIELDS(undefined),
  tribe_events_cat: ids('IDs of the event categories of the event.'),
  start_date: eventDate('Start in the time zone of the event, YYYY-MM-DD HH:MM:SS.'),
  start_date_utc: eventDate('Start in UTC, YYYY-MM-DD HH:MM:SS.'),
  end_date: eventDate('End in the time zone of the event, YYYY-MM-DD HH:MM:SS.'),
  end_date_utc: eventDate('End in UTC, YYYY-MM-DD HH:MM:SS.'),
  timezone: text('Time zone of the event (an IANA name).'),
  duration: { type: 'integer', description: 'Duration in seconds.' },
  all_day: flag('Whether the event lasts all day.'),
  featured: flag('Whether the event is featured.'),
  cost: text('Cost of the event, as it is shown.'),
  organizers: ids('IDs of the organizers of the event.'),
  venues: ids('IDs of the venues of the event.'),
};

export const VENUE_WRITE_ARGS: TecArgs = {
  ...POST_FIELDS(false),
  address: text('Street address.'),
  country: text('Country.'),
  city: text('City.'),
  state_province: text('State or province.'),
  state: text('State (United States addresses).'),
  province: text('Province (other addresses).'),
  zip: text('Postal code.'),
  phone: text('Phone number.'),
  website: text('Website.', 'uri'),
};

export const ORGANIZER_WRITE_ARGS: TecArgs = {
  ...POST_FIELDS(false),
  phone: text('Phone number.', 'tel'),
  website: text('Website.', 'uri'),
  email: text('E-mail address.', 'email'),
};

export const DELETE_ARGS: TecArgs = {
  force: flag('Delete for good instead of moving to the trash.', false),
};

/** The resources of `tec/v1`, in the order of the reference's index. */
export const TEC_RESOURCES = [
  { resource: 'events', list: EVENT_LIST_ARGS, write: EVENT_WRITE_ARGS, tag: 'Events', one: 'Event' },
  { resource: 'organizers', list: LINKED_LIST_ARGS('organizer'), write: ORGANIZER_WRITE_ARGS, tag: 'Organizers', one: 'Organizer' },
  { resource: 'venues', list: LINKED_LIST_ARGS('venue'), write: VENUE_WRITE_ARGS, tag: 'Venues', one: 'Venue' },
] as const;

/** An argument as the namespace index and `OPTIONS` write it: the schema keys in the reference's order, then `required`. */
export function indexArg(arg: TecArg): Record<string, unknown> {
  const { description, type, items, format, pattern, enum: values, minimum, maximum } = arg;
  return {
    description,
    type,
    ...(items ? { items: { ...items } } : {}),
    ...(type === 'array' ? { uniqueItems: true } : {}),
    ...(format ? { format } : {}),
    ...(pattern ? { pattern } : {}),
    ...(arg.default !== undefined ? { default: arg.default } : {}),
    ...(values ? { enum: [...values] } : {}),
    ...(maximum !== undefined ? { maximum } : {}),
    ...(minimum !== undefined ? { minimum } : {}),
    required: false,
  };
}
