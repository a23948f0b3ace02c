import { DateTime } from 'luxon';
import { evaluateExpression, parseExpression } from './date-expression.js';
import { calendarDate, isAllowedYear, isWithinDateRange, timeOfDay } from './date-values.js';
import { formatWall } from './wall-clock.js';
import { epochToWallClock } from './wall-time.js';
import { toLuxonZone } from './zones.js';

/** A date input read as in spec 6.2, with the moment given both in UTC and in the reading zone. */
export interface ParsedDate {
  /** `instant` for form A (a moment in any zone); `wall` for forms B and C (read in the zone). */
  kind: 'instant' | 'wall';
  /** The moment as a UTC wall time. */
  utc: string;
  /** The moment as a wall time in the zone; a time inside a gap is already moved forward. */
  wall: string;
}

const TIMESTAMP = /^@?-?\d+$/;
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:z|([+-])(\d{2})(?::?(\d{2}))?)$/;

/** Form A: a Unix timestamp or an ISO 8601 date-time with an offset, as epoch milliseconds. */
function parseInstant(text: string): number | null | undefined {
  if (TIMESTAMP.test(text)) {
    const seconds = Number(text.replace('@', ''));
    return Number.isSafeInteger(seconds) ? seconds * 1000 : null;
  }
  const match = ISO_INSTANT.exec(text);
  if (!match) {
    return undefined;
  }
  const [, year, month, day, hour, minute, second, sign, offsetHours, offsetMinutes] = match;
  const date = calendarDate(Number(year), Number(month), Number(day));
  const time = timeOfDay(Number(hour), Number(minute), Number(second ?? 0));
  // Without a sign the designator is `Z`.
  const offset = timeOfDay(Number(offsetHours ?? 0), Number(offsetMinutes ?? 0), 0);
  if (!date || !time || !offset) {
    return null;
  }
  const local = DateTime.utc(date.year, date.month, date.day, time.hour, time.minute, time.second);
  const offsetMillis = (offset.hour * 60 + offset.minute) * 60_000;
  return local.toMillis() - (sign === '-' ? -offsetMillis : offsetMillis);
}

function inputText(input: unknown): string | null {
  if (typeof input === 'number') {
    return String(input);
  }
  return typeof input === 'string' ? input.trim().toLowerCase() : null;
}

/**
 * Reads a date input of spec 6.2: instants (form A) are converted into `zone`; wall-clock values
 * and relative expressions (forms B, C) are read in `zone`, relative to `now`. Null when the input
 * is not a recognised date or falls outside the years 1000–9999.
 */
export function parseDateInput(input: unknown, zone: string, now: Date): ParsedDate | null {
  const text = inputText(input);
  if (!text) {
    return null;
  }
  const luxonZone = toLuxonZone(zone);
  const instant = parseInstant(text);
  let epoch: number | null;
  if (instant !== undefined) {
    epoch = instant;
  } else {
    const expression = parseExpression(text);
    epoch = expression && evaluateExpression(expression, luxonZone, now);
  }
  if (epoch === null || !isWithinDateRange(epoch)) {
    return null;
  }
  const utc = DateTime.fromMillis(epoch, { zone: 'utc' });
  const wall = epochToWallClock(epoch, luxonZone);
  if (!isAllowedYear(utc) || !isAllowedYear(wall)) {
    return null;
  }
  return {
    kind: instant !== undefined ? 'instant' : 'wall',
    utc: formatWall(utc),
    wall: formatWall(wall),
  };
}
