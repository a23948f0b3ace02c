/**
 * Source answers → the values this service stores (pure functions). Titles and names of the
 * reference come HTML-escaped and "texturized" (`&#038;`, `&#8217;`); here they become the plain
 * text of contract §7.6. Descriptions pass the same HTML rules as a write. Dates, zones, flags,
 * costs and links are kept as the source shows them.
 *
 * Here: the records, the fields every item shares, terms, the hash of a record and redaction; single
 * values in `source-values.ts`, venues and organizers in `source-linked-records.ts`, events in
 * `source-event-records.ts`.
 */
import { createHash } from 'node:crypto';
import type { ItemStatus } from '../common/auth/item-status.js';
import { sanitizeRichText } from '../common/text/html.js';
import type { CurrencyPosition } from '../events/event-cost.js';
import {
  asObject,
  importSlug,
  instant,
  limited,
  plainText,
  requireId,
  text,
  UnusableRecord,
  validWall,
  type ConvertSettings,
  type Raw,
} from './source-values.js';
import { rowIdOf } from '../common/sql/row-id.js';

export interface SourceImage {
  sourceId: number | null;
  url: string;
  extension: string;
}

/** A link to another source record, with the record as the source embedded it (to import it when missing). */
export interface LinkRef {
  sourceId: number;
  embedded: Record<string, unknown> | null;
}

export interface ItemRecord {
  sourceId: number;
  status: ItemStatus;
  authorSourceId: number | null;
  slug: string;
  dateUtc: string;
  /** The source reported no UTC publication date (a WordPress draft): it follows the first publication here too. */
  dateFloating: boolean;
  modifiedUtc: string;
  description: string;
  excerpt: string;
  image: SourceImage | null;
  /** The source showed the record redacted (password-protected, not unlocked for the importer). */
  redacted: boolean;
  /** Things kept only in part, for the summary. */
  notes: string[];
}

export interface VenueRecord extends ItemRecord {
  kind: 'venue';
  name: string;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  stateprovince: string;
  website: string;
  showMap: boolean;
  showMapLink: boolean;
  geoLat: number | null;
  geoLng: number | null;
}

export interface OrganizerRecord extends ItemRecord {
  kind: 'organizer';
  name: string;
  phone: string;
  website: string;
  email: string;
}

export interface EventRecord extends ItemRecord {
  kind: 'event';
  title: string;
  timezone: string;
  allDay: boolean;
  startLocal: string;
  endLocal: string;
  startUtc: string;
  endUtc: string;
  cost: string[] | null;
  costSymbol: string;
  costPosition: CurrencyPosition;
  website: string | null;
  showMap: boolean;
  showMapLink: boolean;
  hideFromListings: boolean;
  sticky: boolean;
  featured: boolean;
  venue: LinkRef | null;
  organizers: LinkRef[];
  categories: LinkRef[];
  tags: LinkRef[];
  /** Every custom field the source showed with a value, by key. */
  customFields: Record<string, { label: string; value: string }>;
}

export interface TermRecord {
  kind: 'category' | 'tag';
  sourceId: number;
  name: string;
  slug: string;
  description: string;
  /** Parent category (source id), 0 at the top and for tags. */
  parentSourceId: number;
  notes: string[];
}

export type LinkedRecord = VenueRecord | OrganizerRecord;
export type AnyRecord = EventRecord | VenueRecord | OrganizerRecord | TermRecord;

const ITEM_STATUSES = new Set<ItemStatus>(['publish', 'future', 'draft', 'pending', 'private', 'trash']);

const IMAGE_EXTENSION = /\.([A-Za-z0-9]{1,10})(?:$|[?#])/;

export function sourceImage(value: unknown): SourceImage | null {
  const image = asObject(value);
  if (!image) return null;
  const url = text(image.url).trim();
  if (!/^https?:\/\//i.test(url) || url.length > 2000) return null;
  const path = (() => {
    try {
      return new URL(url).pathname;
    } catch {
      return url;
    }
  })();
  const extension = (text(image.extension) || IMAGE_EXTENSION.exec(path)?.[1] || '').toLowerCase().slice(0, 10);
  return { sourceId: rowIdOf(image.id), url, extension };
}

/** Fields every item shares (events, venues, organizers). */
export function itemFields(raw: Raw, what: string, settings: ConvertSettings, redacted: boolean): ItemRecord {
  const sourceId = requireId(raw, what);
  const status = text(raw.status) as ItemStatus;
  if (!ITEM_STATUSES.has(status)) throw new UnusableRecord(`${what} ${sourceId} has the unknown status "${text(raw.status)}"`);
  const notes: string[] = [];
  const publication = instant(raw.date_utc, raw.date, settings.sourceTimezone);
  const modified = instant(raw.modified_utc, raw.modified, settings.sourceTimezone);
  const floating = validWall(raw.date_utc) === null && (status === 'draft' || status === 'pending');
  return {
    sourceId,
    status,
    authorSourceId: rowIdOf(raw.author),
    slug: importSlug(raw.slug),
    dateUtc: publication ?? modified ?? settings.now,
    dateFloating: floating,
    modifiedUtc: modified ?? publication ?? settings.now,
    description: limited(sanitizeRichText(text(raw.description)), 65535, 'description', notes),
    excerpt: limited(sanitizeRichText(text(raw.excerpt)), 65535, 'excerpt', notes),
    image: sourceImage(raw.image),
    redacted,
    notes,
  };
}

export function field(raw: Raw, key: string, settings: ConvertSettings, notes: string[], max = 255): string {
  return limited(plainText(raw[key], settings.flavor), max, key, notes);
}

export function convertTerm(value: unknown, kind: 'category' | 'tag', settings: ConvertSettings): TermRecord {
  const raw = asObject(value);
  if (!raw) throw new UnusableRecord(`a ${kind} that is not an object`);
  const sourceId = requireId(raw, kind);
  const notes: string[] = [];
  return {
    kind,
    sourceId,
    name: limited(plainText(raw.name, settings.flavor), 200, 'name', notes),
    slug: importSlug(raw.slug),
    description: plainText(raw.description, settings.flavor),
    parentSourceId: kind === 'category' ? (rowIdOf(raw.parent) ?? 0) : 0,
    notes,
  };
}

/** SHA-256 of what would be written: a record whose hash and source `modified` are unchanged needs no write. */
export function recordHash(record: AnyRecord, extra: unknown = null): string {
  const stripped = {
    ...record,
    notes: undefined,
    ...('venue' in record && record.kind === 'event'
      ? {
          venue: record.venue?.sourceId ?? null,
          organizers: record.organizers.map((ref) => ref.sourceId),
          categories: record.categories.map((ref) => ref.sourceId),
          tags: record.tags.map((ref) => ref.sourceId),
        }
      : {}),
  };
  return createHash('sha256')
    .update(JSON.stringify([stripped, extra]))
    .digest('hex');
}

/**
 * Whether a record shown to an anonymous reader is the redacted form of the same record shown in
 * full (contract §5.6): a redactable field is blank there and not blank here.
 */
export function looksRedacted(anonymous: unknown, full: unknown): boolean {
  const anon = asObject(anonymous);
  const whole = asObject(full);
  if (!anon || !whole) return false;
  if (anon.all_day === null || anon.show_map === null) return true;
  const blank = (value: unknown) =>
    value === '' || value === null || value === false || value === 0 || (Array.isArray(value) && value.length === 0) || value === undefined;
  return ['description', 'excerpt', 'phone', 'email', 'website', 'address', 'city', 'image'].some(
    (key) => key in anon && blank(anon[key]) && !blank(whole[key]),
  );
}
