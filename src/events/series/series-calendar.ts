import { readRecurrenceLines, type ListedDate } from '../../common/dates/recurrence-lines.js';
import { wallToUtc } from '../../common/dates/wall-time.js';
import { normalizeTimezone } from '../../common/dates/zones.js';
import { fixedOffsetMinutes } from '../../config/time-zone-names.js';
import type { EventResponse } from '../event.response.js';

/** A series as the calendar feeds write it: the main event with its rule, the occurrences edited on their own, the deleted starts. */
export interface CalendarSeries {
  main: EventResponse;
  exceptions: EventResponse[];
  /** Original starts (series zone) of occurrences that were deleted. */
  deletedStarts: string[];
}

const compact = (wall: string) => wall.replace(/[-:]/g, '').replace(' ', 'T');

/**
 * The `RRULE`, `RDATE` and `EXDATE` lines of a series for an iCalendar `VEVENT` whose `DTSTART`
 * carries the series' zone: `UNTIL` in UTC (RFC 5545 wants it so with a zoned start), dates as
 * wall times of that zone (`TZID=`), or in UTC for zones without a tz-database name, whole days at
 * the series' start time, as the service reads them.
 */
export function recurrenceLinesForCalendar(series: CalendarSeries): string[] {
  const { main } = series;
  const zone = main.timezone;
  const named = normalizeTimezone(zone) !== null && fixedOffsetMinutes(zone) === null && zone !== 'UTC';
  const recurrence = readRecurrenceLines(main.recurrence?.rules ?? [], zone);
  const startTime = main.start_date.slice(11);
  const value = (date: ListedDate) => ('wall' in date ? date.wall : `${date.day} ${startTime}`);
  const listed = (name: string, walls: string[]) => {
    if (walls.length === 0) return [];
    // one date per line keeps every line short (no folding inside a property written as it is)
    return walls.map((wall) => (named ? `${name};TZID=${zone}:${compact(wall)}` : `${name}:${compact(wallToUtc(wall, zone))}Z`));
  };
  const rules = recurrence.rules.map(({ parts }) => {
    const written = [...parts].map(([key, part]) => {
      if (key !== 'UNTIL' || part.endsWith('Z')) return `${key}=${part}`;
      const wall =
        part.length === 8
          ? `${part.slice(0, 4)}-${part.slice(4, 6)}-${part.slice(6, 8)} 23:59:59`
          : `${part.slice(0, 4)}-${part.slice(4, 6)}-${part.slice(6, 8)} ${part.slice(9, 11)}:${part.slice(11, 13)}:${part.slice(13, 15)}`;
      return `UNTIL=${compact(wallToUtc(wall, zone))}Z`;
    });
    return `RRULE:${written.join(';')}`;
  });
  const excluded = [...new Set([...recurrence.exdates.map(value), ...series.deletedStarts])].sort();
  return [...rules, ...listed('RDATE', recurrence.rdates.map(value)), ...listed('EXDATE', excluded)];
}
