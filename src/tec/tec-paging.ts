import type { Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { RequestContext } from '../common/http/request-context.js';
import { totalPages } from '../common/paging/paging.js';

/** The reference's default and documented largest page; larger `per_page` values are served up to {@link TEC_PER_PAGE_CAP}. */
export const TEC_PER_PAGE = 10;
const TEC_PER_PAGE_CAP = 100;

export interface TecPage<T> {
  items: T[];
  page: number;
  total: number;
  totalPages: number;
}

/** `page` and `per_page` with their defaults, and the offset of the page. */
export function tecPaging(query: { page?: number; per_page?: number }): { page: number; perPage: number; offset: number } {
  const page = query.page ?? 1;
  const perPage = Math.min(query.per_page ?? TEC_PER_PAGE, TEC_PER_PAGE_CAP);
  return { page, perPage, offset: (page - 1) * perPage };
}

/** One page of a list of `total` records, read by `read`; a page past the last is 404, as the reference answers. */
export async function tecPage<T>(
  query: { page?: number; per_page?: number },
  total: number,
  read: (offset: number, limit: number) => Promise<T[]>,
): Promise<TecPage<T>> {
  const { page, perPage, offset } = tecPaging(query);
  const pages = totalPages(total, perPage);
  if (page > 1 && page > pages) throw pageNotFound();
  return { items: offset >= total ? [] : await read(offset, perPage), page, total, totalPages: pages };
}

/** Arguments declared as arrays come back in PHP's form, one indexed pair per value (`venue%5B0%5D=5&venue%5B1%5D=6`). */
const ARRAY_ARGS = new Set(['categories', 'tags', 'venue', 'organizer', 'status']);

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The pairs of a query string as the reference repeats them in its links: array arguments indexed, the rest as sent. */
function linkPairs(search: string): string[] {
  const result: string[] = [];
  const arrays = new Map<string, string[]>();
  for (const pair of search.split('&')) {
    const equals = pair.indexOf('=');
    const name = decoded(equals === -1 ? pair : pair.slice(0, equals)).replace(/\[\d*\]$/, '');
    if (pair === '' || name === 'page') continue;
    if (!ARRAY_ARGS.has(name) || equals === -1) {
      result.push(pair);
      continue;
    }
    const values = arrays.get(name) ?? [];
    if (values.length === 0) {
      arrays.set(name, values);
      result.push(`\u0000${name}`);
    }
    values.push(
      ...decoded(pair.slice(equals + 1))
        .split(',')
        .filter((value) => value !== ''),
    );
  }
  return result.flatMap((pair) => {
    if (!pair.startsWith('\u0000')) return [pair];
    const name = pair.slice(1);
    return (arrays.get(name) ?? []).map((value, index) => `${name}%5B${index}%5D=${encodeURIComponent(value)}`);
  });
}

export function pageNotFound(): ApiError {
  return new ApiError(404, ErrorCode.TecPageNotFound);
}

/**
 * Sends a page the WordPress way: the bare array, `X-WP-Total` and `X-WP-TotalPages`, and when
 * there is a page before or after, `Link` with `next`/`prev` in place of the API root link. The
 * links repeat the query as sent, with `page` last.
 */
export function sendTecPage<T>(res: Response, ctx: RequestContext, collection: string, page: TecPage<T>): T[] {
  res.setHeader('X-WP-Total', String(page.total));
  res.setHeader('X-WP-TotalPages', String(page.totalPages));
  const pairs = linkPairs(ctx.target?.search ?? '');
  const at = (number: number) => `<${collection}?${[...pairs, `page=${number}`].join('&')}>`;
  const links = [
    ...(page.page < page.totalPages ? [`${at(page.page + 1)}; rel="next"`] : []),
    ...(page.page > 1 && page.page - 1 <= page.totalPages ? [`${at(page.page - 1)}; rel="prev"`] : []),
  ];
  if (links.length > 0) res.setHeader('Link', links.join(', '));
  return page.items;
}
