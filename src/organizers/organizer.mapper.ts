import { renderRichText } from '../common/text/html.js';
import { encodeEmailEntities, esc, jsonLdText } from '../common/text/json-ld.js';
import type { ImagePayload } from '../images/images.service.js';
import { globalId, itemDates, itemUrl, type ItemKindShape, type SiteLinks } from '../items/item.mapper.js';
import type { OrganizerEntity } from './organizer.entity.js';

export const ORGANIZER_SHAPE: ItemKindShape = { pagePath: 'organizer', postType: 'tribe_organizer' };

/** schema.org Person (spec §8.10); the e-mail is written as character references. */
export function organizerJsonLd(organizer: OrganizerEntity, image: ImagePayload | undefined): Record<string, unknown> {
  const jsonLd: Record<string, unknown> = {
    '@type': 'Person',
    name: esc(organizer.name),
    description: jsonLdText(renderRichText(organizer.excerpt), renderRichText(organizer.description)),
  };
  if (image) jsonLd.image = image.url;
  jsonLd.url = organizer.website;
  jsonLd.telephone = organizer.phone;
  jsonLd.email = organizer.email ? encodeEmailEntities(organizer.email) : '';
  jsonLd.sameAs = organizer.website;
  return jsonLd;
}

/** The organizer object of spec §8.4; empty text fields are left out. */
export function toOrganizerPayload(
  organizer: OrganizerEntity,
  image: ImagePayload | undefined,
  site: SiteLinks,
  withJsonLd: boolean,
): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    id: organizer.id,
    author: String(organizer.authorId),
    status: organizer.status,
    ...itemDates(organizer, site),
    url: itemUrl(ORGANIZER_SHAPE, organizer, site),
    organizer: organizer.name,
  };
  const optional = (key: string, value: string) => {
    if (value) payload[key] = value;
  };
  optional('description', renderRichText(organizer.description));
  optional('excerpt', renderRichText(organizer.excerpt));
  payload.slug = organizer.slug;
  if (image) payload.image = image;
  optional('phone', organizer.phone);
  optional('website', organizer.website);
  optional('email', organizer.email);
  if (withJsonLd) payload.json_ld = organizerJsonLd(organizer, image);
  payload.global_id = globalId(organizer.id, site);
  payload.global_id_lineage = [payload.global_id];
  return payload;
}
