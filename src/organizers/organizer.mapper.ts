import { renderRichText } from '../common/text/html.js';
import { encodeEmailEntities, esc, jsonLdText, type JsonLd } from '../common/text/json-ld.js';
import type { ImageResponse } from '../images/image.response.js';
import { globalId, itemDates, itemUrl, nonEmpty, type ItemKindShape, type LinkedItemText, type SiteLinks } from '../items/item.mapper.js';
import type { OrganizerEntity } from './organizer.entity.js';
import type { OrganizerResponse } from './organizer.response.js';

export const ORGANIZER_SHAPE: ItemKindShape = { pagePath: 'organizer', postType: 'tribe_organizer' };

/**
 * schema.org Person (spec §8.10); the e-mail is written as character references. `text`: the
 * organizer's name and description in the reader's languages (its own unless given).
 */
export function organizerJsonLd(organizer: OrganizerEntity, image: ImageResponse | undefined, text: LinkedItemText = organizer): JsonLd {
  const jsonLd: JsonLd = {
    '@type': 'Person',
    name: esc(text.name),
    description: jsonLdText(renderRichText(organizer.excerpt), renderRichText(text.description)),
  };
  if (image) jsonLd.image = image.url;
  jsonLd.url = organizer.website;
  jsonLd.telephone = organizer.phone;
  jsonLd.email = organizer.email ? encodeEmailEntities(organizer.email) : '';
  jsonLd.sameAs = organizer.website;
  return jsonLd;
}

/** The organizer object of spec §8.4; empty text fields are left out. `text`: as for {@link organizerJsonLd}. */
export function toOrganizerPayload(
  organizer: OrganizerEntity,
  image: ImageResponse | undefined,
  site: SiteLinks,
  withJsonLd: boolean,
  text: LinkedItemText = organizer,
): OrganizerResponse {
  const id = globalId(organizer.id, site);
  return {
    id: organizer.id,
    author: String(organizer.authorId),
    status: organizer.status,
    ...itemDates(organizer, site),
    url: itemUrl(ORGANIZER_SHAPE, organizer, site),
    organizer: text.name,
    ...nonEmpty('description', renderRichText(text.description)),
    ...nonEmpty('excerpt', renderRichText(organizer.excerpt)),
    slug: organizer.slug,
    ...(image ? { image } : {}),
    ...nonEmpty('phone', organizer.phone),
    ...nonEmpty('website', organizer.website),
    ...nonEmpty('email', organizer.email),
    ...(withJsonLd ? { json_ld: organizerJsonLd(organizer, image, text) } : {}),
    global_id: id,
    global_id_lineage: [id],
  };
}
