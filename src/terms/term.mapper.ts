import type { TermEntity } from './term.entity.js';
import type { EventTermResponse, TermResponse, TermUrlsResponse } from './term.response.js';

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

function urlsOf(shape: TaxonomyShape, api: string, view: TermView): TermUrlsResponse {
  const collection = `${api}/${shape.resource}`;
  const urls: TermUrlsResponse = { self: `${collection}/${view.term.id}`, collection };
  const parent = view.term.parentId ?? 0;
  if (shape.hierarchical && parent !== 0) urls.up = `${collection}/${parent}`;
  return urls;
}

/** Shape (b) of spec §8.5: the term as `/categories` and `/tags` return it. */
export function toTermPayload(shape: TaxonomyShape, api: string, view: TermView, withLinks: boolean): TermResponse {
  const urls = urlsOf(shape, api, view);
  return {
    id: view.term.id,
    count: view.count,
    description: view.term.description,
    name: view.term.name,
    slug: view.term.slug,
    taxonomy: shape.wireTaxonomy,
    ...(shape.hierarchical ? { parent: view.term.parentId ?? 0 } : {}),
    meta: [],
    url: view.url,
    urls,
    ...(withLinks ? { _links: linkObjects(urls) } : {}),
  };
}

/** `{self: [{href}], collection: [{href}], up?: [{href}]}`: the links in link-object form. */
function linkObjects(urls: TermUrlsResponse): TermResponse['_links'] {
  const links: TermResponse['_links'] = {};
  for (const rel of Object.keys(urls) as Array<keyof TermUrlsResponse>) {
    const href = urls[rel];
    if (href !== undefined) links[rel] = [{ href }];
  }
  return links;
}

/** Shape (a) of spec §8.5: the term embedded in an event. */
export function toEventTermPayload(shape: TaxonomyShape, api: string, view: TermView): EventTermResponse {
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
