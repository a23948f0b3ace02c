import type { ListsConfig } from '../../config/app-config.js';
import type { ListPageLinks } from './list-page.response.js';
import type { PageQueryDto } from './page-query.dto.js';

export interface Paging {
  page: number;
  perPage: number;
  offset: number;
}

/** Defaults and the `per_page` cap (values above the maximum are silently reduced). */
export function resolvePaging(query: PageQueryDto, lists: ListsConfig): Paging {
  const page = query.page ?? 1;
  const perPage = Math.min(query.per_page ?? lists.defaultPerPage, lists.maxPerPage);
  return { page, perPage, offset: (page - 1) * perPage };
}

export type LinkValue = string | number | boolean | ReadonlyArray<string | number> | undefined | null;

/**
 * `rest_url`, `next_rest_url` and `previous_rest_url` (spec §9.3): the list route with a trailing slash
 * and the effective parameters in a fixed order, form-encoded; lists joined with commas, booleans 1/0.
 */
export function listLinks(collectionUrl: string, paging: Paging, totalPages: number, params: Array<[string, LinkValue]>): ListPageLinks {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of params) {
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.join(',') : typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
    pairs.push([name, text]);
  }
  const encode = (list: Array<[string, string]>) => new URLSearchParams(list).toString();
  const base = `${collectionUrl}/`;
  const withoutPage = [['per_page', String(paging.perPage)] as [string, string], ...pairs];
  const links: ListPageLinks = {
    rest_url: `${base}?${encode([['page', String(paging.page)], ...withoutPage])}`,
  };
  if (paging.page < totalPages) links.next_rest_url = `${base}?${encode([...withoutPage, ['page', String(paging.page + 1)]])}`;
  if (paging.page > 1) {
    const previous = paging.page - 1;
    links.previous_rest_url = `${base}?${encode(previous === 1 ? withoutPage : [...withoutPage, ['page', String(previous)]])}`;
  }
  return links;
}

export function totalPages(total: number, perPage: number): number {
  return total === 0 ? 0 : Math.ceil(total / perPage);
}
