import { stripTags } from '../common/text/html.js';
import type { ImageResponse } from '../images/image.response.js';
import type { OrganizerResponse } from '../organizers/organizer.response.js';
import type { VenueResponse } from '../venues/venue.response.js';
import type { TecItemBase, TecOrganizer, TecVenue } from './tec.response.js';

/** Words of an excerpt made from the content, as the reference makes one. */
const EXCERPT_WORDS = 30;

/** What every v1 item object holds that the `tec/v1` object is made of. */
export interface ItemSource {
  id: number;
  author: string;
  status: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  url: string;
  slug: string;
  description?: string;
  excerpt?: string;
  image?: ImageResponse | false;
}

/** `2026-11-29 05:57:51` → `2026-11-29T05:57:51` (WordPress core's dates: no zone). */
export function coreDate(wall: string): string {
  return wall.replace(' ', 'T');
}

/** A rendered text as WordPress's `the_content` filter ends it: with a line break when there is text. */
export function rendered(html: string | undefined): string {
  return html ? `${html}\n` : '';
}

/** The excerpt, or when there is none one made of the content's first words (`[&hellip;]` when cut), in a paragraph. */
export function excerptOf(excerpt: string | undefined, content: string | undefined): string {
  if (excerpt) return rendered(excerpt);
  const words = stripTags(content ?? '')
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return '';
  const cut = words.length > EXCERPT_WORDS;
  return `<p>${words.slice(0, EXCERPT_WORDS).join(' ')}${cut ? ' [&hellip;]' : ''}</p>\n`;
}

/** The fields WordPress core gives every post, from the v1 object of the item. */
export function tecItemBase(source: ItemSource, title: string, type: string): TecItemBase {
  return {
    id: source.id,
    date: coreDate(source.date),
    date_gmt: coreDate(source.date_utc),
    guid: { rendered: source.url },
    modified: coreDate(source.modified),
    modified_gmt: coreDate(source.modified_utc),
    slug: source.slug,
    status: source.status,
    type,
    link: source.url,
    title: { rendered: title },
    content: { rendered: rendered(source.description), protected: false },
    excerpt: { rendered: excerptOf(source.excerpt, source.description), protected: false },
    author: Number(source.author),
    featured_media: source.image ? source.image.id : 0,
    template: '',
  };
}

/** A Google Maps search for the address, `&` written `&#038;` as the reference does; empty without an address. */
export function directionsLink(parts: string[]): string {
  const query = parts.filter((part) => part !== '').join(' ');
  if (query === '') return '';
  const encoded = encodeURIComponent(query)
    .replace(/%20/g, '+')
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=${encoded}`;
}

export function toTecVenue(venue: VenueResponse): TecVenue {
  const stateProvince = venue.stateprovince ?? '';
  const address = venue.address ?? '';
  return {
    ...tecItemBase(venue, venue.venue, 'tribe_venue'),
    address,
    country: venue.country ?? '',
    city: venue.city ?? '',
    state_province: stateProvince,
    state: venue.state ?? '',
    province: venue.province ?? '',
    zip: venue.zip ?? '',
    phone: venue.phone ?? '',
    directions_link: address ? directionsLink([address, venue.city ?? '', stateProvince, venue.zip ?? '', venue.country ?? '']) : '',
    website: venue.website ?? '',
  };
}

export function toTecOrganizer(organizer: OrganizerResponse): TecOrganizer {
  return {
    ...tecItemBase(organizer, organizer.organizer, 'tribe_organizer'),
    phone: organizer.phone ?? '',
    website: organizer.website ?? '',
    email: organizer.email ?? '',
  };
}
