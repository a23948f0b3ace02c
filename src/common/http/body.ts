import { Readable } from 'node:stream';
import busboy from 'busboy';
import qs from 'qs';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import { markFormLists } from '../validation/form-lists.js';

/** Bracket notation for query strings and form bodies (spec §7.2). */
export const QS_OPTIONS: qs.IParseOptions = {
  depth: 5,
  arrayLimit: 100,
  parameterLimit: 1000,
  allowPrototypes: false,
  plainObjects: true,
  duplicates: 'combine',
};

export function parseQueryString(text: string): Record<string, unknown> {
  return markFormLists(withoutReservedKeys(qs.parse(text, QS_OPTIONS)) as Record<string, unknown>);
}

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Parameters are plain data: keys that name object internals are dropped at every depth, so no
 * library downstream mistakes them for a class or prototype.
 */
export function withoutReservedKeys(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => withoutReservedKeys(item, depth + 1));
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (!RESERVED_KEYS.has(key)) result[key] = withoutReservedKeys(child, depth + 1);
  }
  return result;
}

const MAX_JSON_DEPTH = 32;

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return type === 'application/json' || /^[a-z0-9.+-]+\/[a-z0-9.+-]+\+json$/.test(type);
}

/** Turns the raw body into parameters according to its media type; other types are ignored. */
export async function parseBody(raw: Buffer, contentType: string | undefined): Promise<Record<string, unknown>> {
  const type = mediaType(contentType);
  if (isJsonMediaType(contentType)) return parseJsonObject(raw);
  if (raw.length === 0) return {};
  if (type === 'application/x-www-form-urlencoded') return parseQueryString(raw.toString('utf8'));
  if (type === 'multipart/form-data') return parseMultipart(raw, contentType as string);
  return {};
}

function parseJsonObject(raw: Buffer): Record<string, unknown> {
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, ErrorCode.InvalidJson);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !isStorableJson(value)) {
    throw new ApiError(400, ErrorCode.InvalidJson);
  }
  return withoutReservedKeys(value) as Record<string, unknown>;
}

/**
 * Whether a parsed JSON value nests at most {@link MAX_JSON_DEPTH} levels and every string in it
 * (keys included) is well-formed Unicode: an unpaired surrogate escape (`"\ud800"`) is not text and
 * cannot be stored as UTF-8. Walked with a stack, so no input can overflow the call stack.
 */
/** A surrogate code unit that is not half of a pair (with the `u` flag, pairs are one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

export function isStorableJson(root: unknown): boolean {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return false;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return false;
    for (const [key, child] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) return false;
      stack.push([child, depth + 1]);
    }
  }
  return true;
}

function parseMultipart(raw: Buffer, contentType: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const pairs: string[] = [];
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType }, limits: { fields: 1000, fieldSize: raw.length } });
    } catch {
      resolve({});
      return;
    }
    parser.on('field', (name, value) => pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`));
    parser.on('file', (_name, stream) => stream.resume());
    parser.on('close', () => resolve(parseQueryString(pairs.join('&'))));
    parser.on('error', () => resolve(parseQueryString(pairs.join('&'))));
    Readable.from(raw).pipe(parser);
  });
}
