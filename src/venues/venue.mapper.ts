import { renderRichText } from '../common/text/html.js';
import { esc, jsonLdText, type JsonLd } from '../common/text/json-ld.js';
import type { ImageResponse } from '../images/image.response.js';
import { globalId, itemDates, itemUrl, nonEmpty, type ItemKindShape, type LinkedItemText, type SiteLinks } from '../items/item.mapper.js';
import type { VenueEntity } from './venue.entity.js';
import type { VenueResponse } from './venue.response.js';

export const VENUE_SHAPE: ItemKindShape = { pagePath: 'venue', postType: 'tribe_venue' };
const US_COUNTRIES = new Set(['us', 'usa', 'united states', 'united states of america']);

/** The `stateprovince` returned (spec §8.3): stored, else the state for US addresses, else the province. */
export function effectiveStateProvince(venue: Pick<VenueEntity, 'stateprovince' | 'state' | 'province' | 'country'>): string {
  if (venue.stateprovince) return venue.stateprovince;
  return venue.country === '' || US_COUNTRIES.has(venue.country.trim().toLowerCase()) ? venue.state : venue.province;
}

export function hasCoordinates(venue: Pick<VenueEntity, 'geoLat' | 'geoLng'>): boolean {
  return venue.geoLat !== null && venue.geoLng !== null && !(venue.geoLat === 0 && venue.geoLng === 0);
}

/** schema.org Place (spec §8.10); `text`: the venue's name and description in the reader's languages (its own unless given). */
export function venueJsonLd(venue: VenueEntity, image: ImageResponse | undefined, text: LinkedItemText = venue): JsonLd {
  const address: Record<string, string> = { '@type': 'PostalAddress' };
  const parts: Array<[string, string]> = [
    ['streetAddress', venue.address],
    ['addressLocality', venue.city],
    ['addressRegion', effectiveStateProvince(venue)],
    ['postalCode', venue.zip],
    ['addressCountry', venue.country],
  ];
  for (const [key, value] of parts) if (value) address[key] = value;
  const jsonLd: JsonLd = {
    '@type': 'Place',
    name: esc(text.name),
    description: jsonLdText(renderRichText(venue.excerpt), renderRichText(text.description)),
  };
  if (image) jsonLd.image = image.url;
  jsonLd.url = '';
  jsonLd.address = address;
  if (hasCoordinates(venue)) jsonLd.geo = { '@type': 'GeoCoordinates', latitude: venue.geoLat, longitude: venue.geoLng };
  jsonLd.telephone = venue.phone;
  jsonLd.sameAs = venue.website;
  return jsonLd;
}

/** The venue object of spec §8.3; empty text fields are left out. `text`: as for {@link venueJsonLd}. */
export function toVenuePayload(
  venue: VenueEntity,
  image: ImageResponse | undefined,
  site: SiteLinks,
  withJsonLd: boolean,
  text: LinkedItemText = venue,
): VenueResponse {
  const id = globalId(venue.id, site);
  return {
    id: venue.id,
    author: String(venue.authorId),
    status: venue.status,
    ...itemDates(venue, site),
    url: itemUrl(VENUE_SHAPE, venue, site),
    venue: text.name,
    ...nonEmpty('description', renderRichText(text.description)),
    ...nonEmpty('excerpt', renderRichText(venue.excerpt)),
    slug: venue.slug,
    ...(image ? { image } : {}),
    ...nonEmpty('address', venue.address),
    ...nonEmpty('city', venue.city),
    ...nonEmpty('country', venue.country),
    ...nonEmpty('province', venue.province),
    ...nonEmpty('state', venue.state),
    ...nonEmpty('zip', venue.zip),
    ...nonEmpty('phone', venue.phone),
    ...nonEmpty('website', venue.website),
    ...nonEmpty('stateprovince', effectiveStateProvince(venue)),
    ...(hasCoordinates(venue) ? { geo_lat: venue.geoLat as number, geo_lng: venue.geoLng as number } : {}),
    ...(withJsonLd ? { json_ld: venueJsonLd(venue, image, text) } : {}),
    show_map: venue.showMap,
    show_map_link: venue.showMapLink,
    global_id: id,
    global_id_lineage: [id],
  };
}
