import { FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { fixedOffsetMinutes, normalizeTimezone } from '../../config/time-zone-names.js';
import { ABBREVIATIONS } from '../../config/tz-data.js';
import { parseWall } from './wall-clock.js';

export { normalizeTimezone };

const luxonZones = new Map<string, Zone>();

function requireTimezone(zone: string): string {
  const name = normalizeTimezone(zone);
  if (name === null) {
    throw new RangeError(`Unknown time zone: ${zone}`);
  }
  return name;
}

/** The luxon zone of a zone string accepted by normalizeTimezone; throws RangeError otherwise. */
export function toLuxonZone(zone: string): Zone {
  // every answer converts its dates through here: a zone already written canonically is found at once
  const known = luxonZones.get(zone);
  if (known) {
    return known;
  }
  const name = requireTimezone(zone);
  const cached = luxonZones.get(name);
  if (cached) {
    return cached;
  }
  const offset = fixedOffsetMinutes(name);
  const luxonZone =
    name === 'UTC' ? FixedOffsetZone.utcInstance : offset !== null ? FixedOffsetZone.instance(offset) : IANAZone.create(name);
  luxonZones.set(name, luxonZone);
  return luxonZone;
}

/** Offset east of UTC in hours at a moment: `5.5`, `-5` (spec 13.3 `gmt_offset`). */
export function offsetHours(zone: string, at: Date): number {
  return toLuxonZone(zone).offset(at.getTime()) / 60;
}

const ABBREVIATION_ENTRY = /^([A-Za-z]+)([+-])(\d+)(?::(\d{2}))?$/;

function buildAbbreviationLookup(): Map<string, Map<number, string>> {
  const lookup = new Map<string, Map<number, string>>();
  for (const [rule, zones] of Object.entries(ABBREVIATIONS)) {
    const byOffset = new Map<number, string>();
    for (const entry of rule.split(' ')) {
      const [, abbr, sign, hours, minutes] = ABBREVIATION_ENTRY.exec(entry) ?? [];
      if (abbr === undefined) {
        throw new Error(`Malformed abbreviation rule: ${rule}`);
      }
      byOffset.set((sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes ?? 0)), abbr);
    }
    for (const zone of zones.trim().split(/\s+/)) {
      lookup.set(zone, byOffset);
    }
  }
  return lookup;
}

const ABBREVIATIONS_BY_ZONE = buildAbbreviationLookup();

const intlZoneNameFormats = new Map<string, Intl.DateTimeFormat>();

/** Intl's en-US short zone name, when it is a real abbreviation rather than `GMT+1`-style text. */
function intlAbbreviation(zone: string, at: number): string | null {
  let format = intlZoneNameFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' });
    intlZoneNameFormats.set(zone, format);
  }
  const name = format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? '';
  return /^[A-Za-z]+$/.test(name) ? name : null;
}

/** The tz database's numeric abbreviation: `+04`, `-03`, `+0530`. */
function numericAbbreviation(offsetMinutes: number): string {
  const total = Math.trunc(Math.abs(offsetMinutes));
  const hours = String(Math.floor(total / 60)).padStart(2, '0');
  const minutes = total % 60 === 0 ? '' : String(total % 60).padStart(2, '0');
  return `${offsetMinutes < 0 ? '-' : '+'}${hours}${minutes}`;
}

/**
 * The tz-database abbreviation in force at a UTC wall time (spec 6.1 `timezone_abbr`): `CDT`,
 * `CEST`, `+04`; a fixed-offset zone is its own abbreviation (`UTC+5.5`).
 */
export function timezoneAbbr(zone: string, utcWall: string): string {
  const name = requireTimezone(zone);
  const luxonZone = toLuxonZone(name);
  if (luxonZone.isUniversal) {
    return name;
  }
  const at = parseWall(utcWall).toMillis();
  const offset = luxonZone.offset(at);
  const known = ABBREVIATIONS_BY_ZONE.get(name)?.get(offset);
  if (known !== undefined) {
    return known;
  }
  // Past rules with other offsets: Intl still knows the North American names of those periods.
  const fromIntl = intlAbbreviation(name, at);
  if (fromIntl !== null && (fromIntl !== 'GMT' || offset === 0)) {
    return fromIntl;
  }
  return numericAbbreviation(offset);
}
