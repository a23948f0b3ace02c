/** Reading single values of a source answer: objects, text, plain text, slugs, dates, flags, ids; and what every conversion is given. Pure. */
import { decodeHTML } from 'entities';
import type { CostConfig } from '../config/app-config.js';
import { wallToUtc } from '../common/dates/wall-time.js';
import { stripTags } from '../common/text/html.js';
import { sanitizeSlug } from '../common/text/slug.js';
import { rowIdOf } from '../common/sql/row-id.js';

export interface ConvertSettings {
  /** `wordpress` sources escape text; `plain` ones (this service) do not. */
  flavor: 'wordpress' | 'plain';
  /** The source's site zone, to place publication dates the source reports without UTC (`0000-00-00 00:00:00`). */
  sourceTimezone: string | null;
  /** This service's cost settings: the cost is stored so that this service shows what the source showed. */
  cost: CostConfig;
  now: string;
}

/** A record the importer cannot use; the reason goes to the summary. */
export class UnusableRecord extends Error {}

const WALL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const ZERO_DATE = '0000-00-00 00:00:00';

export type Raw = Record<string, unknown>;

export function asObject(value: unknown): Raw | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Raw) : null;
}

export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

/**
 * Plain text as this service stores titles and names (§7.6): tags removed, and for WordPress
 * sources the HTML entities decoded once (`Jazz &#038; Blues` → `Jazz & Blues`, `Tom &amp; Jerry`
 * → `Tom & Jerry`, which is what a client that decodes entities shows).
 */
export function plainText(value: unknown, flavor: ConvertSettings['flavor']): string {
  const raw = text(value);
  return flavor === 'wordpress' ? stripTags(decodeHTML(stripTags(raw))) : stripTags(raw);
}

/** At most `max` characters (code points); the note says what was cut. */
export function limited(value: string, max: number, field: string, notes: string[]): string {
  const chars = [...value];
  if (chars.length <= max) return value;
  notes.push(`${field} cut to ${max} characters`);
  return chars.slice(0, max).join('');
}

/**
 * The source's slug, kept as it is when it is a slug this service can hold: lower-case letters,
 * digits, `-`, `_` and WordPress's percent-encoded UTF-8 (`%e6%97%a5`). Anything else is sanitised
 * (§3.3); `""` when nothing is left (a WordPress draft has no slug yet).
 */
export function importSlug(value: unknown): string {
  const slug = text(value).trim().toLowerCase();
  if (/^(?:[a-z0-9_-]|%[0-9a-f]{2})+$/.test(slug) && slug.length <= 255) return slug;
  let decoded = slug;
  try {
    decoded = decodeURIComponent(slug);
  } catch {
    // not percent-encoding after all
  }
  return sanitizeSlug(decoded);
}

export function validWall(value: unknown): string | null {
  const raw = text(value).trim().replace('T', ' ');
  const match = WALL.exec(raw);
  if (!match || raw === ZERO_DATE) return null;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (year < 1000 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
  return raw;
}

/** A UTC instant from the UTC field, else from the site-time field in the source's zone; null when neither helps. */
export function instant(utcValue: unknown, localValue: unknown, zone: string | null): string | null {
  const utc = validWall(utcValue);
  if (utc) return utc;
  const local = validWall(localValue);
  if (!local) return null;
  return zone ? wallToUtc(local, zone) : local;
}

export function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true' || value === 'yes';
}

export function requireId(raw: Raw, what: string): number {
  const id = rowIdOf(raw.id);
  if (id === null) throw new UnusableRecord(`${what} without a numeric id`);
  return id;
}
