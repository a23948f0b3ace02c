import { parseDateInput } from '../common/dates/parse-date.js';
import { normalizeWallAfterGap, wallToUtc } from '../common/dates/wall-time.js';
import type { ParamProblems } from '../common/errors/api-error.js';

export interface StoredEventDates {
  timezone: string;
  allDay: boolean;
  startLocal: string;
  endLocal: string;
}

export interface EventDateInput {
  timezone?: string;
  all_day?: boolean;
  start_date?: string;
  end_date?: string;
}

export interface EventDates extends StoredEventDates {
  startUtc: string;
  endUtc: string;
}

/**
 * The dates an event write stores (spec §6.3-6.5): wall times in the event's zone (the zone sent,
 * else the current one, else the site's), end not before start, all-day events widened to whole
 * days, and the UTC instants of those wall times. Undefined when a date does not parse.
 */
export function resolveEventDates(
  input: EventDateInput,
  current: StoredEventDates | null,
  siteZone: string,
  now: Date,
  problems: ParamProblems,
): EventDates | undefined {
  const timezone = input.timezone === undefined ? (current?.timezone ?? siteZone) : input.timezone === '' ? siteZone : input.timezone;
  type Moment = { wall: string; utc: string };
  const read = (param: 'start_date' | 'end_date', value: string | undefined, stored: string | undefined): Moment | undefined => {
    if (value === undefined)
      return stored === undefined ? undefined : { wall: stored, utc: wallToUtc(normalizeWallAfterGap(stored, timezone), timezone) };
    const parsed = parseDateInput(value, timezone, now);
    if (!parsed) problems.add(param, 'date');
    // the parser's UTC is exact even inside a repeated hour, where the wall time alone is ambiguous
    return parsed ? { wall: parsed.wall, utc: parsed.utc } : undefined;
  };
  let start = read('start_date', input.start_date, current?.startLocal);
  let end = read('end_date', input.end_date, current?.endLocal);
  if (start === undefined || end === undefined) return undefined;
  start = { wall: normalizeWallAfterGap(start.wall, timezone), utc: start.utc };
  end = { wall: normalizeWallAfterGap(end.wall, timezone), utc: end.utc };
  if (end.utc < start.utc) end = start;
  const allDay = input.all_day ?? current?.allDay ?? false;
  if (allDay) {
    const startLocal = `${start.wall.slice(0, 10)} 00:00:00`;
    const endLocal = `${end.wall.slice(0, 10)} 23:59:59`;
    start = { wall: startLocal, utc: wallToUtc(startLocal, timezone) };
    end = { wall: endLocal, utc: wallToUtc(endLocal, timezone) };
  }
  const startLocal = start.wall;
  const endLocal = end.wall;
  return { timezone, allDay, startLocal, endLocal, startUtc: start.utc, endUtc: end.utc };
}
