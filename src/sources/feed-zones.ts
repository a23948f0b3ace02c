import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { normalizeTimezone } from '../common/dates/zones.js';
import { WINDOWS_ZONES } from './windows-zones.js';

/** How a `TZID` of a feed was read. */
export type ZoneReading =
  /** A zone of the tz database, named directly or through a Windows name or a prefix (`/mozilla.org/…/Europe/Berlin`). */
  | { kind: 'named'; zone: string }
  /** A `VTIMEZONE` of the feed whose offsets match a tz-database zone, or a fixed offset when none does. */
  | { kind: 'defined'; zone: string; note: string }
  /** Neither known nor defined in the feed: its times are read in the calendar's zone. */
  | { kind: 'unknown' };

const WINDOWS_BY_LOWER = new Map(Object.entries(WINDOWS_ZONES).map(([name, zone]) => [name.toLowerCase(), zone]));

/** `Etc/GMT+5` is five hours behind UTC (POSIX sign); the service writes it `UTC-5`. */
function etcZone(zone: string): string | null {
  const match = /^Etc\/GMT([+-])(\d{1,2})$/i.exec(zone);
  if (!match) return normalizeTimezone(zone);
  return normalizeTimezone(`UTC${match[1] === '+' ? '-' : '+'}${match[2]}`);
}

/** A tz-database zone named by `tzid` itself, through its Windows name, or at the end of a longer path. */
export function namedZone(tzid: string): string | null {
  const name = tzid.trim().replace(/^"|"$/g, '');
  if (name === '') return null;
  const direct = normalizeTimezone(name);
  if (direct) return direct;
  const windows = WINDOWS_BY_LOWER.get(name.toLowerCase()) ?? WINDOWS_BY_LOWER.get(name.toLowerCase().replace(/\s+\d+$/, ''));
  if (windows) return etcZone(windows);
  const segments = name.split('/').filter((segment) => segment !== '');
  for (const take of [3, 2]) {
    if (segments.length < take) continue;
    // `custom_America/New_York`: the area may follow other text in its segment
    const candidate = segments
      .slice(-take)
      .join('/')
      .replace(/^.*?_(?=[A-Z][a-z]+\/)/, '');
    const zone = normalizeTimezone(candidate);
    if (zone && zone.includes('/')) return zone;
  }
  return null;
}

/** Zones tried for a feed's own `VTIMEZONE`: one per Windows zone, which covers every populated offset pattern. */
const CANDIDATES = [...new Set(Object.values(WINDOWS_ZONES))]
  .map((zone) => (zone.startsWith('Etc/') ? null : normalizeTimezone(zone)))
  .filter((zone): zone is string => zone !== null);

function offsetOfDefinition(definition: ICAL.Timezone, year: number, month: number): number {
  const time = ICAL.Time.fromData({ year, month, day: 15, hour: 12, minute: 0, second: 0, isDate: false });
  return definition.utcOffset(time) / 60;
}

function fixedZone(minutes: number): string | null {
  if (minutes % 15 !== 0) return null;
  const hours = minutes / 60;
  return normalizeTimezone(`UTC${hours < 0 ? '-' : '+'}${Math.abs(hours)}`);
}

/**
 * A feed's own `VTIMEZONE` as a zone of the service: the first tz-database zone with the same
 * offsets in January and July of `year`, else its offset of January as a fixed zone.
 */
export function definedZone(definition: ICAL.Timezone, year: number): { zone: string; note: string } | null {
  let winter: number;
  let summer: number;
  try {
    winter = offsetOfDefinition(definition, year, 1);
    summer = offsetOfDefinition(definition, year, 7);
  } catch {
    return null;
  }
  for (const zone of CANDIDATES) {
    const probe = (month: number) => DateTime.fromObject({ year, month, day: 15, hour: 12 }, { zone }).offset;
    if (probe(1) === winter && probe(7) === summer) {
      return { zone, note: `read as ${zone}, which has the same offsets` };
    }
  }
  const fixed = winter === summer ? fixedZone(winter) : null;
  return fixed ? { zone: fixed, note: `read as the fixed offset ${fixed}` } : null;
}

/** Reads the `TZID`s of one calendar, with the `VTIMEZONE`s it defines; each `TZID` is read once. */
export class FeedZones {
  private readonly readings = new Map<string, ZoneReading>();

  constructor(private readonly definitions: ReadonlyMap<string, ICAL.Timezone>) {}

  read(tzid: string, year: number): ZoneReading {
    const known = this.readings.get(tzid);
    if (known) return known;
    const named = namedZone(tzid);
    let reading: ZoneReading = { kind: 'unknown' };
    if (named) reading = { kind: 'named', zone: named };
    else {
      const definition = this.definitions.get(tzid) ?? this.definitions.get(tzid.replace(/^"|"$/g, ''));
      const defined = definition ? definedZone(definition, year) : null;
      if (defined) reading = { kind: 'defined', ...defined };
    }
    this.readings.set(tzid, reading);
    return reading;
  }
}
