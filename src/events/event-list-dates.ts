import type { SelectQueryBuilder } from 'typeorm';
import { defaultListWindow, wholeDayEnd, wholeDayStart } from '../common/dates/list-window.js';
import { parseDateInput } from '../common/dates/parse-date.js';
import type { ParamProblems } from '../common/errors/api-error.js';
import { wallToDate } from '../common/sql/columns.js';
import type { ListEventsQueryDto } from './dto/list-events.query.js';
import type { EventEntity } from './event.entity.js';

type DateFilterName = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after';
const DATE_FILTERS: Array<[DateFilterName, string, string]> = [
  ['start_date', 'start_local', '>='],
  ['end_date', 'end_local', '<='],
  ['starts_before', 'start_local', '<'],
  ['starts_after', 'start_local', '>'],
  ['ends_before', 'end_local', '<'],
  ['ends_after', 'end_local', '>'],
];

/** How much later than its end wall time an event's start wall time can be (a zone's offset change). */
const START_CEILING_MARGIN_MS = 2 * 86_400_000;

/** The date filters of `GET /events` as site wall times. */
export type ListDates = Partial<Record<DateFilterName, string>>;

/**
 * The date filters read in the site's zone, whole days unless `strict_dates`; without `include` and
 * without a relative filter, the default window fills `start_date` and `end_date`.
 */
export function listDates(query: ListEventsQueryDto, siteZone: string, now: Date, problems: ParamProblems): ListDates {
  const strict = query.strict_dates ?? false;
  const dates: ListDates = {};
  for (const [name] of DATE_FILTERS) {
    const raw = query[name];
    if (raw === undefined) continue;
    const parsed = parseDateInput(raw, siteZone, now);
    if (!parsed) problems.add(name, 'date');
    else dates[name] = strict ? parsed.wall : name === 'start_date' ? wholeDayStart(parsed.wall) : wholeDayEnd(parsed.wall);
  }
  const usesInclude = query.include !== undefined;
  const anyRelative = ['starts_before', 'starts_after', 'ends_before', 'ends_after'].some(
    (name) => query[name as DateFilterName] !== undefined,
  );
  if (!usesInclude && !anyRelative) {
    const window = defaultListWindow(siteZone, now);
    dates.start_date ??= window.start;
    dates.end_date ??= window.end;
  }
  return dates;
}

export function whereListDates(builder: SelectQueryBuilder<EventEntity>, dates: ListDates): void {
  DATE_FILTERS.forEach(([name, column, operator]) => {
    const value = dates[name];
    if (value !== undefined) builder.andWhere(`e.${column} ${operator} :${name}`, { [name]: wallToDate(value) });
  });
  // Redundant for the result, but it bounds the index range the count and the page scan: an event
  // ends after it starts, so its start wall time is at most a zone-offset change (well under two
  // days) later than its end wall time.
  const endCeiling = [dates.end_date, dates.ends_before].filter((value): value is string => value !== undefined).sort()[0];
  if (endCeiling !== undefined)
    builder.andWhere('e.start_local < :start_ceiling', {
      start_ceiling: new Date(wallToDate(endCeiling).getTime() + START_CEILING_MARGIN_MS),
    });
}
