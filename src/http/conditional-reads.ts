import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Response } from 'express';
import { noneMatchHits, REPRESENTATION_HEADERS } from '../common/http/entity-tags.js';
import { carriesPassword } from '../common/http/password-param.js';
import type { RequestContext } from '../common/http/request-context.js';

/** How long caches may keep an anonymous read without asking again. */
export interface ReadCaching {
  /** Every cache, browsers too (`HTTP_CACHE_MAX_AGE`). */
  maxAgeSeconds: number;
  /** Shared caches only, such as a cache in front of the service (`HTTP_CACHE_SHARED_MAX_AGE`); 0: as `maxAgeSeconds`. */
  sharedMaxAgeSeconds: number;
}

/**
 * Replaces v1's `no-cache, must-revalidate, max-age=0, no-store, private` on 200/304 reads whose
 * answer a credential or a password decided.
 */
export const PRIVATE_READ = 'private, no-cache';
export const READ_VARY = 'Origin, Authorization';

/** Headers a 304 leaves out: no body, so nothing that describes one (RFC 9110 §15.4.5). */
export const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-language',
  ...REPRESENTATION_HEADERS.filter((name) => name !== 'link'),
];

/** A `200` answer to `GET`/`HEAD` of the API: it carries validators and may become a `304`. */
export function isValidatedRead(res: Response): boolean {
  const req = res.req;
  return res.statusCode === 200 && (req.method === 'GET' || req.method === 'HEAD') && Boolean(req.ctx?.target);
}

/** `Cache-Control` of an anonymous read. */
export function publicRead(caching: ReadCaching): string {
  const shared = caching.sharedMaxAgeSeconds > 0 ? `, s-maxage=${caching.sharedMaxAgeSeconds}` : '';
  return `public, max-age=${caching.maxAgeSeconds}${shared}, must-revalidate`;
}

/**
 * Whether a read's answer is the requester's own: it has a user (Basic credentials or a feed
 * token), or it carries a `password` that may open protected items.
 */
export function isPrivateRead(ctx: RequestContext): boolean {
  return ctx.user !== null || carriesPassword(ctx.target?.search ?? '');
}

/** `ETag`, `Cache-Control` (private for the requester's own answers, else public) and `Vary` of a read. */
export function setReadHeaders(res: ServerResponse, etag: string, caching: ReadCaching, privateRead: boolean): void {
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', privateRead ? PRIVATE_READ : publicRead(caching));
  res.setHeader('Vary', READ_VARY);
}

/**
 * Whether the requester's copy is current (RFC 9110 §13.1.2, §13.1.3, §13.2.2): `If-None-Match`
 * with weak comparison when sent; otherwise `If-Modified-Since` against `Last-Modified`, when the
 * answer has one and both are valid dates.
 */
export function isNotModified(req: Pick<IncomingMessage, 'headers'>, etag: string, lastModified: string | undefined): boolean {
  const noneMatch = req.headers['if-none-match'];
  if (noneMatch !== undefined) return noneMatchHits(noneMatch, etag);
  const since = req.headers['if-modified-since'];
  if (since === undefined || lastModified === undefined) return false;
  const sinceTime = Date.parse(since);
  const modifiedTime = Date.parse(lastModified);
  return !Number.isNaN(sinceTime) && !Number.isNaN(modifiedTime) && modifiedTime <= sinceTime;
}

/** Ends the answer as `304 Not Modified`: validators and caching headers stay, the body and its description go. */
export function endNotModified(res: ServerResponse): void {
  for (const name of BODY_HEADERS) res.removeHeader(name);
  res.statusCode = 304;
  res.end();
}

export function lastModifiedOf(res: Response): string | undefined {
  const value = res.getHeader('Last-Modified');
  return value === undefined ? undefined : String(value);
}
