import { createHash } from 'node:crypto';

/**
 * Header fields that are part of what an answer says besides its body (list totals, paging links,
 * a cut feed): an answer's entity tag covers them, so equal tags mean equal bodies and equal
 * headers. Lower case, in the order they are hashed.
 */
export const REPRESENTATION_HEADERS = [
  'x-tec-total',
  'x-tec-totalpages',
  'x-wp-total',
  'x-wp-totalpages',
  'link',
  'x-ics-truncated',
] as const;

/** Reads a header of an answer being built (`response.getHeader`, or a stand-in). */
export type HeaderReader = (name: string) => number | string | string[] | undefined;

/** The `Link` every API answer carries (spec §14.1): the API root of the edition. */
export function apiRootLink(base: string): string {
  return `<${base}/>; rel="https://api.w.org/"`;
}

/**
 * The strong entity tag (RFC 9110 §8.8.3) of an answer: a truncated SHA-256 of the values of
 * {@link REPRESENTATION_HEADERS} that are present and the body bytes, base64url, in quotes. It
 * changes whenever those bytes change and only then: it depends on nothing else (no clock, no
 * data version), so a write that leaves an answer's bytes alone leaves its tag alone.
 */
export function entityTag(body: Buffer, header: HeaderReader): string {
  const hash = createHash('sha256');
  for (const name of REPRESENTATION_HEADERS) {
    const value = header(name);
    if (value !== undefined) hash.update(`${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}\n`);
  }
  hash.update('\n');
  hash.update(body);
  return `"${hash.digest('base64url').slice(0, 27)}"`;
}

interface ListedTag {
  weak: boolean;
  /** The opaque tag with its quotes. */
  opaque: string;
}

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc = %x21 / %x23-7E / obs-text (RFC 9110 §8.8.3)
const LISTED_TAG = /(W\/)?("[\x21\x23-\x7e\x80-\xff]*")/g;

/** The members of an `If-Match`/`If-None-Match` field: `*`, or the entity tags it lists (unreadable members are skipped). */
export function parseTagList(field: string): '*' | ListedTag[] {
  if (field.trim() === '*') return '*';
  return [...field.matchAll(LISTED_TAG)].map((match) => ({ weak: match[1] !== undefined, opaque: match[2] }));
}

/** `If-None-Match` (RFC 9110 §13.1.2): weak comparison, so `W/"x"` matches `"x"`; `*` matches any current answer. */
export function noneMatchHits(field: string, etag: string): boolean {
  const listed = parseTagList(field);
  if (listed === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return listed.some((tag) => tag.opaque === opaque);
}

/**
 * `If-Match` (RFC 9110 §13.1.1): strong comparison, so a weak tag never matches; `*` is decided by
 * the caller (it means "the record exists"). `etag` is a strong tag.
 */
export function matchHits(field: string, etag: string): boolean {
  const listed = parseTagList(field);
  if (listed === '*') return true;
  return listed.some((tag) => !tag.weak && tag.opaque === etag);
}
