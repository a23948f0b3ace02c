import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { wallToUtc } from '../common/dates/wall-time.js';
import type { FeedZones } from './feed-zones.js';

/** The dates of an event as the event writes take them. */
export interface FeedDates {
  timezone: string;
  allDay: boolean;
  /** `YYYY-MM-DD HH:MM:SS` in `timezone`. */
  startLocal: string;
  endLocal: string;
}

/** A `VEVENT` that cannot be imported; the message says why. */
export class ComponentRefused extends Error {}

/** What reading a time needs: the calendar's zones and the zone of floating times. */
export interface TimeContext {
  zones: FeedZones;
  floatingZone: string;
}

/** A DATE or DATE-TIME value as an instant or a day, with the zone it was written in. */
export type ReadTime = { day: string } | { utc: string; zone: string; wall: string };

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** Reads one DATE or DATE-TIME value of a property. */
export function readTime(time: ICAL.Time, tzid: string | null, context: TimeContext, notes: string[]): ReadTime {
  const day = `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`;
  if (time.isDate) return { day };
  const wall = `${day} ${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`;
  if (!DateTime.fromSQL(wall, { zone: 'utc' }).isValid) throw new ComponentRefused(`${wall} is not a date and time`);
  if (time.zone === ICAL.Timezone.utcTimezone) return { utc: wall, zone: 'UTC', wall };
  let zone = context.floatingZone;
  if (tzid) {
    const reading = context.zones.read(tzid, time.year);
    if (reading.kind === 'unknown') notes.push(`time zone "${tzid}" is neither known nor defined in the feed: read in ${zone}`);
    else zone = reading.zone;
    if (reading.kind === 'defined') notes.push(`time zone "${tzid}" defined by the feed: ${reading.note}`);
  }
  return { utc: wallToUtc(wall, zone), zone, wall };
}
