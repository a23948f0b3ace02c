import { utcToWall } from '../common/dates/wall-time.js';
import type { ItemStatus } from '../common/auth/item-status.js';
import type { ItemDates } from './item.response.js';
import type { PublishableEntity } from './publishable.entity.js';

/** Where an item kind lives on the public site (spec §8.1). */
export interface ItemKindShape {
  /** `event`, `venue`, `organizer`: the path segment of public pages. */
  pagePath: string;
  /** `tribe_events`, `tribe_venue`, `tribe_organizer`: the `post_type` of non-public links. */
  postType: string;
}

/** The text of a venue or organizer that has translations (issue 48), as a reader is answered it. */
export interface LinkedItemText {
  name: string;
  description: string;
}

export interface SiteLinks {
  publicUrl: string;
  globalIdBase: string;
  siteTimezone: string;
}

const PUBLIC_URL_STATUSES = new Set<ItemStatus>(['publish', 'private']);

export function itemUrl(shape: ItemKindShape, item: Pick<PublishableEntity, 'id' | 'status' | 'slug'>, site: SiteLinks): string {
  return PUBLIC_URL_STATUSES.has(item.status)
    ? `${site.publicUrl}/${shape.pagePath}/${item.slug}/`
    : `${site.publicUrl}/?post_type=${shape.postType}&p=${item.id}`;
}

export function globalId(id: number, site: SiteLinks): string {
  return `${site.globalIdBase}?id=${id}`;
}

/** `date`, `date_utc`, `modified`, `modified_utc` (spec §6.7): site time and UTC of the same instants. */
export function itemDates(item: Pick<PublishableEntity, 'dateUtc' | 'modifiedUtc'>, site: SiteLinks): ItemDates {
  return {
    date: utcToWall(item.dateUtc, site.siteTimezone),
    date_utc: item.dateUtc,
    modified: utcToWall(item.modifiedUtc, site.siteTimezone),
    modified_utc: item.modifiedUtc,
  };
}

/** `{ [key]: text }` for a non-empty text, `{}` otherwise: optional text fields are left out when empty. */
export function nonEmpty<K extends string>(key: K, text: string): Partial<Record<K, string>> {
  return text ? ({ [key]: text } as Record<K, string>) : {};
}
