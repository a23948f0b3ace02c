import type { TermEntity } from './term.entity.js';

/** How one taxonomy appears on the wire. */
export interface TaxonomyShape {
  /** Route segment: `categories` or `tags`. */
  resource: 'categories' | 'tags';
  /** `tribe_events_cat` or `post_tag`. */
  wireTaxonomy: string;
  hierarchical: boolean;
}

export interface TermView {
  term: TermEntity & { parentId?: number };
  count: number;
  /** Public page URL, e.g. `{public_url}/events/category/outdoor/night-walks/`. */
  url: string;
}

export interface TermLinks {
  self: string;
  collection: string;
  up?: string;
}

function urlsOf(shape: TaxonomyShape, api: string, view: TermView): TermLinks {
  const collection = `${api}/${shape.resource}`;
  const urls: TermLinks = { self: `${collection}/${view.term.id}`, collection };
  const parent = view.term.parentId ?? 0;
  if (shape.hierarchical && parent !== 0) urls.up = `${collection}/${parent}`;
  return urls;
}

/** Shape (b) of spec §8.5: the term as `/categories` and `/tags` return it. */
export function toTermPayload(shape: TaxonomyShape, api: string, view: TermView, withLinks: boolean): Record<string, unknown> {
  const urls = urlsOf(shape, api, view);
  const payload: Record<string, unknown> = {
    id: view.term.id,
    count: view.count,
    description: view.term.description,
    name: view.term.name,
    slug: view.term.slug,
    taxonomy: shape.wireTaxonomy,
  };
  if (shape.hierarchical) payload.parent = view.term.parentId ?? 0;
  payload.meta = [];
  payload.url = view.url;
  payload.urls = urls;
  if (withLinks) {
    payload._links = Object.fromEntries(Object.entries(urls).map(([rel, href]) => [rel, [{ href }]]));
  }
  return payload;
}

/** Shape (a) of spec §8.5: the term embedded in an event. */
export function toEventTermPayload(shape: TaxonomyShape, api: string, view: TermView): Record<string, unknown> {
  return {
    name: view.term.name,
    slug: view.term.slug,
    term_group: 0,
    term_taxonomy_id: view.term.id,
    taxonomy: shape.wireTaxonomy,
    description: view.term.description,
    parent: shape.hierarchical ? (view.term.parentId ?? 0) : 0,
    count: view.count,
    filter: 'raw',
    id: view.term.id,
    urls: urlsOf(shape, api, view),
  };
}
