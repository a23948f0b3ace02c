import { addMonthsRollingOver, formatWall, parseWall } from './wall-clock.js';
import { epochToWallClock } from './wall-time.js';
import { toLuxonZone } from './zones.js';

/** Months between today and the last day of the default `GET /events` window (spec 9.4). */
const DEFAULT_WINDOW_MONTHS = 24;

/** `D 00:00:00` for the calendar date D of a wall time (whole-day `start_date`, spec 9.4). */
export function wholeDayStart(wall: string): string {
  return formatWall(parseWall(wall).startOf('day'));
}

/** `D 23:59:59` for the calendar date D of a wall time (the other whole-day filters, spec 9.4). */
export function wholeDayEnd(wall: string): string {
  return formatWall(parseWall(wall).set({ hour: 23, minute: 59, second: 59 }));
}

export interface ListWindow {
  start: string;
  end: string;
}

/**
 * The default date window of `GET /events`, as site-zone wall times: yesterday at 00:00:00 and
 * the date 24 months after today at 23:59:59. Days past the end of the target month roll over as
 * in `+24 months` (29 February 2028 gives 1 March 2030).
 */
export function defaultListWindow(siteZone: string, now: Date): ListWindow {
  const today = epochToWallClock(now.getTime(), toLuxonZone(siteZone)).startOf('day');
  return {
    start: formatWall(today.minus({ days: 1 })),
    end: wholeDayEnd(formatWall(addMonthsRollingOver(today, DEFAULT_WINDOW_MONTHS))),
  };
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

/**
 * The `strict_dates` flag (spec 9.4): the words `1 true yes on` and `0 false no off` in any case,
 * or JSON booleans and the numbers 1 and 0. Null for anything else, `""` included.
 */
export function parseStrictDates(value: unknown): boolean | null {
  if (typeof value === 'boolean') {
    return value;
  }
  if (typeof value !== 'string' && typeof value !== 'number') {
    return null;
  }
  const word = String(value).toLowerCase();
  if (TRUE_WORDS.has(word)) {
    return true;
  }
  return FALSE_WORDS.has(word) ? false : null;
}
