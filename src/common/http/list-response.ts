import type { Response } from 'express';
import type { ListPageLinks } from '../paging/list-page.response.js';

export interface ListResult<B extends object> {
  headers: { total: number; totalPages: number };
  body: B;
}

/**
 * Sends a list with the `X-TEC-Total`/`X-TEC-TotalPages` headers (spec §9.2), their `X-WP-*` twins and
 * RFC 8288 `next`/`prev` links added to the `Link` header already set (the API root, api.w.org).
 */
export function sendList<B extends object>(response: Response, result: ListResult<B>): B {
  for (const prefix of ['X-TEC', 'X-WP']) {
    response.setHeader(`${prefix}-Total`, String(result.headers.total));
    response.setHeader(`${prefix}-TotalPages`, String(result.headers.totalPages));
  }
  const { next_rest_url: next, previous_rest_url: previous } = result.body as Partial<ListPageLinks>;
  // one header line, so that the response cache keeps and replays it whole
  const links = [response.getHeader('Link'), next && `<${next}>; rel="next"`, previous && `<${previous}>; rel="prev"`].flat();
  const present = links.filter((link): link is string => typeof link === 'string' && link !== '');
  if (present.length > 0) response.setHeader('Link', present.join(', '));
  return result.body;
}

/** 201 with `Location` (spec §11.1). */
export function created<B extends object>(response: Response, location: string, body: B): B {
  response.status(201);
  response.setHeader('Location', location);
  return body;
}
