/** The kinds of record `tec/v1` writes. */
export type TecKind = 'events' | 'venues' | 'organizers';

/** What every kind of post shares: `tec/v1` name → v1 name. */
const POST_NAMES = {
  title: 'title',
  content: 'description',
  excerpt: 'excerpt',
  slug: 'slug',
  status: 'status',
  author: 'author',
  date: 'date',
  date_gmt: 'date_utc',
  featured_media: 'image',
};

/**
 * Per kind, each argument of a `tec/v1` body → the v1 argument its value is written to (the writes
 * convert some values on the way: term ids to strings, the first of `venues`). One table for both
 * directions: the writes rename with it, their errors name the arguments back with its reverse.
 */
export const V1_NAMES: Record<TecKind, Record<string, string>> = {
  events: {
    ...POST_NAMES,
    sticky: 'sticky',
    start_date: 'start_date',
    end_date: 'end_date',
    timezone: 'timezone',
    all_day: 'all_day',
    featured: 'featured',
    cost: 'cost',
    tags: 'tags',
    tribe_events_cat: 'categories',
    organizers: 'organizer',
    venues: 'venue',
  },
  venues: {
    ...POST_NAMES,
    title: 'venue',
    address: 'address',
    country: 'country',
    city: 'city',
    state_province: 'stateprovince',
    state: 'state',
    province: 'province',
    zip: 'zip',
    phone: 'phone',
    website: 'website',
  },
  organizers: { ...POST_NAMES, title: 'organizer', phone: 'phone', website: 'website', email: 'email' },
};
