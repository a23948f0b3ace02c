import { IANAZone } from 'luxon';
import { ZONE_NAMES_BY_AREA } from './tz-data.js';

/**
 * The time-zone spellings the service accepts (spec 6.1), for settings and input alike: a pure leaf,
 * so configuration can validate `SITE_TIMEZONE` without importing the application.
 */
const FIXED_OFFSET_PATTERN = /^utc([+-])(\d{1,2})(?:\.(\d{1,2})|:(\d{2}))?$/i;

/** Minutes past the hour a fixed offset may carry (spec 6.1: H, H.5, H.75, H:MM). */
const FIXED_OFFSET_MINUTES = new Set([0, 30, 45]);

const MIN_FIXED_OFFSET = -12 * 60;
const MAX_FIXED_OFFSET = 14 * 60;

function buildZoneNameLookup(): Map<string, string> {
  const names = Object.entries(ZONE_NAMES_BY_AREA).flatMap(([area, list]) =>
    list
      .trim()
      .split(/\s+/)
      .map((name) => (area === '' ? name : `${area}/${name}`)),
  );
  // The runtime's own list covers zones added to the tz database after tz-data.ts was written.
  names.push(...Intl.supportedValuesOf('timeZone'));
  return new Map(names.map((name) => [name.toLowerCase(), name]));
}

const ZONE_NAMES = buildZoneNameLookup();

/** Minutes east of UTC of a stored fixed-offset zone (`UTC+5.5` → 330), or null for other zones. */
export function fixedOffsetMinutes(zone: string): number | null {
  const match = FIXED_OFFSET_PATTERN.exec(zone);
  if (!match) {
    return null;
  }
  const [, sign, hours, fraction, minutes] = match;
  const extra = fraction !== undefined ? Number(`0.${fraction}`) * 60 : Number(minutes ?? 0);
  if (!FIXED_OFFSET_MINUTES.has(extra)) {
    return null;
  }
  const total = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + extra);
  return total >= MIN_FIXED_OFFSET && total <= MAX_FIXED_OFFSET ? total : null;
}

function formatFixedOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  return `UTC${sign}${Math.abs(minutes) / 60}`;
}

/**
 * The stored spelling of a `timezone` input (spec 6.1): a canonical IANA name, `UTC`, or a fixed
 * offset such as `UTC+5.5`. Null when the input is not a recognised zone. `""` (the site zone) is
 * the caller's business.
 */
export function normalizeTimezone(input: string): string | null {
  const text = input.trim();
  if (text.toLowerCase() === 'utc') {
    return 'UTC';
  }
  const offset = fixedOffsetMinutes(text);
  if (offset !== null) {
    return formatFixedOffset(offset);
  }
  const name = ZONE_NAMES.get(text.toLowerCase());
  return name !== undefined && isSupportedZone(name) ? name : null;
}

const zoneSupport = new Map<string, boolean>();

/** Whether the runtime's Intl knows the zone (luxon's `IANAZone.isValidZone`); cached because each check builds a formatter. */
export function isSupportedZone(name: string): boolean {
  let supported = zoneSupport.get(name);
  if (supported === undefined) {
    supported = IANAZone.isValidZone(name);
    zoneSupport.set(name, supported);
  }
  return supported;
}
