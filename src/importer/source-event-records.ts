/** Events of the source → the values stored here: dates and zones, the cost as the source showed it, links as source ids, custom fields. Pure. */
import { decodeHTML } from 'entities';
import { wallToUtc } from '../common/dates/wall-time.js';
import { normalizeTimezone } from '../common/dates/zones.js';
import { costDetails, costDisplay, type CurrencyPosition } from '../events/event-cost.js';
import { itemFields, type EventRecord, type LinkRef } from './source-records.js';
import { asObject, flag, limited, plainText, text, UnusableRecord, validWall, type ConvertSettings } from './source-values.js';
import { rowIdOf } from '../common/sql/row-id.js';

function linkRefs(value: unknown): LinkRef[] {
  const list = Array.isArray(value) ? value : asObject(value) ? [value] : [];
  const refs: LinkRef[] = [];
  for (const element of list) {
    const object = asObject(element);
    const id = rowIdOf(object ? object.id : element);
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
