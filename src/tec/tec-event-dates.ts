import { normalizeTimezone } from '../common/dates/zones.js';
import { utcToWall, wallToUtc } from '../common/dates/wall-time.js';
import { formatWallMillis, wallMillis } from '../common/dates/wall-clock.js';

/** The dates a `tec/v1` event write may send, in the event's zone, in UTC, or as a duration. */
export interface TecEventDates {
  start_date?: string;
  end_date?: string;
  start_date_utc?: string;
  end_date_utc?: string;
  duration?: number;
  timezone?: string;
}

/** What the event had before an update: its zone and its start. */
export interface StoredEventDates {
  timezone: string;
  startUtc: string;
}

/**
 * `start_date` and `end_date` in the event's zone, as the v1 write takes them, from what a
 * `tec/v1` write sends: a date in the zone wins; else its UTC twin is read into the zone (the one
 * sent, the event's, or the site's); an end that is given neither way follows from `duration` after
 * the start. Dates not sent and not derived stay absent (an update leaves them alone). A zone that
 * is not known leaves the derivation to the v1 write, which refuses it.
 */
export function tecEventDates(
  input: TecEventDates,
  stored: StoredEventDates | null,
  siteZone: string,
): { start_date?: string; end_date?: string } {
  const zoneName = input.timezone ?? stored?.timezone ?? siteZone;
  if (normalizeTimezone(zoneName) === null) return { start_date: input.start_date, end_date: input.end_date };
  const start = input.start_date ?? (input.start_date_utc !== undefined ? utcToWall(input.start_date_utc, zoneName) : undefined);
  let end = input.end_date ?? (input.end_date_utc !== undefined ? utcToWall(input.end_date_utc, zoneName) : undefined);
  if (end === undefined && input.duration !== undefined) {
    const startUtc = start !== undefined ? wallToUtc(start, zoneName) : stored?.startUtc;
    if (startUtc !== undefined) end = utcToWall(formatWallMillis(wallMillis(startUtc) + input.duration * 1000), zoneName);
  }
  return { start_date: start, end_date: end };
}
