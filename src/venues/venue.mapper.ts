import { renderRichText } from '../common/text/html.js';
import { esc, jsonLdText } from '../common/text/json-ld.js';
import type { ImagePayload } from '../images/images.service.js';
import { globalId, itemDates, itemUrl, type ItemKindShape, type SiteLinks } from '../items/item.mapper.js';
import type { VenueEntity } from './venue.entity.js';

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

/** schema.org Place (spec §8.10). */
export function venueJsonLd(venue: VenueEntity, image: ImagePayload | undefined): Record<string, unknown> {
  const address: Record<string, unknown> = { '@type': 'PostalAddress' };
  const parts: Array<[string, string]> = [
    ['streetAddress', venue.address],
    ['addressLocality', venue.city],
    ['addressRegion', effectiveStateProvince(venue)],
    ['postalCode', venue.zip],
    ['addressCountry', venue.country],
  ];
  for (const [key, value] of parts) if (value) address[key] = value;
  const jsonLd: Record<string, unknown> = {
    '@type': 'Place',
    name: esc(venue.name),
    description: jsonLdText(renderRichText(venue.excerpt), renderRichText(venue.description)),
  };
  if (image) jsonLd.image = image.url;
  jsonLd.url = '';
  jsonLd.address = address;
  if (hasCoordinates(venue)) jsonLd.geo = { '@type': 'GeoCoordinates', latitude: venue.geoLat, longitude: venue.geoLng };
  jsonLd.telephone = venue.phone;
  jsonLd.sameAs = venue.website;
  return jsonLd;
}

/** The venue object of spec §8.3; empty text fields are left out. */
export function toVenuePayload(
  venue: VenueEntity,
  image: ImagePayload | undefined,
  site: SiteLinks,
  withJsonLd: boolean,
): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    id: venue.id,
    author: String(venue.authorId),
    status: venue.status,
    ...itemDates(venue, site),
    url: itemUrl(VENUE_SHAPE, venue, site),
    venue: venue.name,
  };
  const optional = (key: string, value: string) => {
    if (value) payload[key] = value;
  };
  optional('description', renderRichText(venue.description));
  optional('excerpt', renderRichText(venue.excerpt));
  payload.slug = venue.slug;
  if (image) payload.image = image;
  optional('address', venue.address);
  optional('city', venue.city);
  optional('country', venue.country);
  optional('province', venue.province);
  optional('state', venue.state);
  optional('zip', venue.zip);
  optional('phone', venue.phone);
  optional('website', venue.website);
  optional('stateprovince', effectiveStateProvince(venue));
  if (hasCoordinates(venue)) {
    payload.geo_lat = venue.geoLat;
    payload.geo_lng = venue.geoLng;
  }
  if (withJsonLd) payload.json_ld = venueJsonLd(venue, image);
  payload.show_map = venue.showMap;
  payload.show_map_link = venue.showMapLink;
  payload.global_id = globalId(venue.id, site);
  payload.global_id_lineage = [payload.global_id];
  return payload;
}
