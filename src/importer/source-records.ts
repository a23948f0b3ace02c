import { createHash } from 'node:crypto';
import { decodeHTML } from 'entities';
import type { CostConfig } from '../config/app-config.js';
import type { ItemStatus } from '../common/auth/item-status.js';
import { wallToUtc } from '../common/dates/wall-time.js';
import { normalizeTimezone } from '../common/dates/zones.js';
import { sanitizeRichText, stripTags } from '../common/text/html.js';
import { sanitizeSlug } from '../common/text/slug.js';
import { costDetails, costDisplay, type CurrencyPosition } from '../events/event-cost.js';
import { effectiveStateProvince } from '../venues/venue.mapper.js';

/**
 * Source answers → the values this service stores (pure functions). Titles and names of the
 * reference come HTML-escaped and "texturized" (`&#038;`, `&#8217;`); here they become the plain
 * text of contract §7.6. Descriptions pass the same HTML rules as a write. Dates, zones, flags,
 * costs and links are kept as the source shows them.
 */

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
const WALL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const ZERO_DATE = '0000-00-00 00:00:00';

type Raw = Record<string, unknown>;

function asObject(value: unknown): Raw | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Raw) : null;
}

function text(value: unknown): string {
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
function limited(value: string, max: number, field: string, notes: string[]): string {
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

function validWall(value: unknown): string | null {
  const raw = text(value).trim().replace('T', ' ');
  const match = WALL.exec(raw);
  if (!match || raw === ZERO_DATE) return null;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (year < 1000 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
  return raw;
}

/** A UTC instant from the UTC field, else from the site-time field in the source's zone; null when neither helps. */
function instant(utcValue: unknown, localValue: unknown, zone: string | null): string | null {
  const utc = validWall(utcValue);
  if (utc) return utc;
  const local = validWall(localValue);
  if (!local) return null;
  return zone ? wallToUtc(local, zone) : local;
}

function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true' || value === 'yes';
}

function positiveId(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function requireId(raw: Raw, what: string): number {
  const id = positiveId(raw.id);
  if (id === null) throw new UnusableRecord(`${what} without a numeric id`);
  return id;
}

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
  return { sourceId: positiveId(image.id), url, extension };
}

/** Fields every item shares (events, venues, organizers). */
function itemFields(raw: Raw, what: string, settings: ConvertSettings, redacted: boolean): ItemRecord {
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
    authorSourceId: positiveId(raw.author),
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

function field(raw: Raw, key: string, settings: ConvertSettings, notes: string[], max = 255): string {
  return limited(plainText(raw[key], settings.flavor), max, key, notes);
}

export function convertVenue(value: unknown, settings: ConvertSettings): VenueRecord {
  const raw = asObject(value);
  if (!raw) throw new UnusableRecord('a venue that is not an object');
  const base = itemFields(raw, 'venue', settings, raw.show_map === null);
  const notes = base.notes;
  const venue: VenueRecord = {
    kind: 'venue',
    ...base,
    name: field(raw, 'venue', settings, notes, 1000),
    address: field(raw, 'address', settings, notes),
    city: field(raw, 'city', settings, notes),
    country: field(raw, 'country', settings, notes),
    province: field(raw, 'province', settings, notes),
    state: field(raw, 'state', settings, notes),
    zip: field(raw, 'zip', settings, notes),
    phone: field(raw, 'phone', settings, notes),
    stateprovince: '',
    website: field(raw, 'website', settings, notes),
    showMap: flag(raw.show_map),
    showMapLink: flag(raw.show_map_link),
    geoLat: null,
    geoLng: null,
  };
  // stored only where it differs from what this service derives from state, province and country
  const shown = field(raw, 'stateprovince', settings, notes);
  if (shown !== effectiveStateProvince(venue)) venue.stateprovince = shown;
  const lat = Number(raw.geo_lat);
  const lng = Number(raw.geo_lng);
  if (raw.geo_lat !== undefined && raw.geo_lng !== undefined && Number.isFinite(lat) && Number.isFinite(lng) && !(lat === 0 && lng === 0)) {
    venue.geoLat = lat;
    venue.geoLng = lng;
  }
  return venue;
}

export function convertOrganizer(value: unknown, settings: ConvertSettings): OrganizerRecord {
  const raw = asObject(value);
  if (!raw) throw new UnusableRecord('an organizer that is not an object');
  const base = itemFields(raw, 'organizer', settings, false);
  const notes = base.notes;
  return {
    kind: 'organizer',
    ...base,
    name: field(raw, 'organizer', settings, notes, 1000),
    phone: field(raw, 'phone', settings, notes),
    website: field(raw, 'website', settings, notes),
    email: field(raw, 'email', settings, notes),
  };
}

function linkRefs(value: unknown): LinkRef[] {
  const list = Array.isArray(value) ? value : asObject(value) ? [value] : [];
  const refs: LinkRef[] = [];
  for (const element of list) {
    const object = asObject(element);
    const id = positiveId(object ? object.id : element);
    if (id !== null && !refs.some((ref) => ref.sourceId === id)) refs.push({ sourceId: id, embedded: object });
  }
  return refs;
}

/**
 * The cost to store so that this service shows the same `cost` and `cost_details.values` as the
 * source: the display string first, with the words of `values` when needed, else the values.
 * The currency symbol and position are the source's own.
 */
export function costFromSource(
  costValue: unknown,
  detailsValue: unknown,
  settings: Pick<ConvertSettings, 'flavor' | 'cost'>,
): { cost: string[] | null; symbol: string; position: CurrencyPosition } {
  const details = asObject(detailsValue) ?? {};
  const display = plainText(costValue, settings.flavor);
  const values = (Array.isArray(details.values) ? details.values : []).map((item) => text(item).trim()).filter((item) => item !== '');
  const position: CurrencyPosition =
    details.currency_position === 'prefix' || details.currency_position === 'postfix' ? details.currency_position : '';
  const symbol = position === '' ? '' : plainText(details.currency_symbol, settings.flavor);
  const stored = { symbol, position };
  if (display === '' && values.length === 0) return { cost: null, ...stored };
  const defaults = { symbol: settings.cost.currencySymbol, position: settings.cost.currencyPosition };
  const words = values.filter((item) => !/[0-9]/.test(item));
  const candidates = [...(display !== '' ? [[display], [display, ...words]] : []), ...(values.length > 0 ? [values] : [])].filter(
    (candidate, index, all) => all.findIndex((other) => other.join('\u0000') === candidate.join('\u0000')) === index,
  );
  const shows = (candidate: string[]) => ({
    display: costDisplay(candidate, stored, defaults, settings.cost.decimalSeparator),
    values: costDetails(candidate, stored, settings.cost.decimalSeparator).values,
  });
  const exact = candidates.find((candidate) => {
    const shown = shows(candidate);
    return shown.display === display && shown.values.join('\u0000') === values.join('\u0000');
  });
  const sameDisplay = candidates.find((candidate) => shows(candidate).display === display);
  return { cost: exact ?? sameDisplay ?? candidates[0] ?? null, ...stored };
}

function customFields(value: unknown, flavor: ConvertSettings['flavor']): Record<string, { label: string; value: string }> {
  const object = asObject(value);
  const result: Record<string, { label: string; value: string }> = {};
  if (!object) return result;
  for (const [key, entry] of Object.entries(object)) {
    const asEntry = asObject(entry);
    const raw = asEntry ? asEntry.value : entry;
    const fieldValue = Array.isArray(raw) ? raw.map((item) => text(item)).join(', ') : text(raw);
    if (fieldValue.trim() === '') continue;
    result[key] = { label: plainText(asEntry?.label ?? key, flavor), value: flavor === 'wordpress' ? decodeHTML(fieldValue) : fieldValue };
  }
  return result;
}

/** Minutes between a local wall time and its UTC wall time: `UTC±H` for a zone this service does not know. */
function offsetZone(local: string, utc: string): string | null {
  const minutes = Math.round((Date.parse(`${local.replace(' ', 'T')}Z`) - Date.parse(`${utc.replace(' ', 'T')}Z`)) / 60000);
  return normalizeTimezone(`UTC${minutes < 0 ? '-' : '+'}${Math.abs(minutes) / 60}`);
}

export function convertEvent(value: unknown, settings: ConvertSettings): EventRecord {
  const raw = asObject(value);
  if (!raw) throw new UnusableRecord('an event that is not an object');
  const redacted = raw.all_day === null;
  const base = itemFields(raw, 'event', settings, redacted);
  const notes = base.notes;
  const startLocal = validWall(raw.start_date);
  const endLocal = validWall(raw.end_date) ?? startLocal;
  if (!startLocal || !endLocal) throw new UnusableRecord(`event ${base.sourceId} has no readable start_date`);
  const zoneName = text(raw.timezone).trim();
  let timezone = zoneName === '' ? null : normalizeTimezone(zoneName);
  const utcStart = validWall(raw.utc_start_date);
  if (!timezone && utcStart) timezone = offsetZone(startLocal, utcStart);
  timezone ??= settings.sourceTimezone ?? 'UTC';
  if (zoneName !== '' && timezone !== zoneName) notes.push(`time zone "${zoneName}" stored as ${timezone}`);
  const startUtc = utcStart ?? wallToUtc(startLocal, timezone);
  const endUtc = validWall(raw.utc_end_date) ?? wallToUtc(endLocal, timezone);
  const cost = costFromSource(raw.cost, raw.cost_details, settings);
  let website: string | null = plainText(raw.website, settings.flavor).trim();
  if (website === '' || website === text(raw.url).trim()) website = null;
  else if (website.length > 255) {
    notes.push('website longer than 255 characters left out');
    website = null;
  }
  return {
    kind: 'event',
    ...base,
    title: limited(plainText(raw.title, settings.flavor), 1000, 'title', notes),
    timezone,
    allDay: flag(raw.all_day),
    startLocal,
    endLocal,
    startUtc,
    endUtc,
    cost: cost.cost,
    costSymbol: cost.symbol,
    costPosition: cost.position,
    website,
    showMap: flag(raw.show_map),
    showMapLink: flag(raw.show_map_link),
    hideFromListings: flag(raw.hide_from_listings),
    sticky: flag(raw.sticky),
    featured: flag(raw.featured),
    venue: linkRefs(raw.venue)[0] ?? null,
    organizers: linkRefs(raw.organizer),
    categories: linkRefs(raw.categories),
    tags: linkRefs(raw.tags),
    customFields: customFields(raw.custom_fields, settings.flavor),
  };
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
    parentSourceId: kind === 'category' ? (positiveId(raw.parent) ?? 0) : 0,
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
