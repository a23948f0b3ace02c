import ICAL from 'ical.js';
import { expandRecurrence, ruleStartsBefore } from '../common/dates/recurrence-expansion.js';
import { readRecurrenceLines, RecurrenceError } from '../common/dates/recurrence-lines.js';
import { formatWall, parseWall } from '../common/dates/wall-clock.js';
import { utcToWall } from '../common/dates/wall-time.js';
import { ComponentRefused, readTime, type FeedDates, type TimeContext } from './feed-time.js';

/** Most lines, and longest line, that the event writes take in `recurrence`. */
const MAX_LINES = 100;
const MAX_LINE = 1000;

const compact = (wall: string) => wall.replace(/[-:]/g, '').replace(' ', 'T');

/** The values of an `RDATE` or `EXDATE`, grouped by how they are written (`VALUE=DATE`, `TZID=…`, UTC). */
function listedValues(prop: ICAL.Property, context: TimeContext, notes: string[], eventZone: string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  const tzid = prop.getParameter('tzid');
  for (const value of prop.getValues() as unknown[]) {
    const time = value instanceof ICAL.Period ? value.start : value;
    if (!(time instanceof ICAL.Time)) continue;
    const read = readTime(time, typeof tzid === 'string' ? tzid : null, context, notes);
    let group: string;
    let written: string;
    if ('day' in read) [group, written] = [';VALUE=DATE', read.day.replace(/-/g, '')];
    else if (read.zone === eventZone) [group, written] = ['', compact(read.wall)];
    else if (read.zone === 'UTC') [group, written] = ['', `${compact(utcToWall(read.utc, 'UTC'))}Z`];
    else [group, written] = [`;TZID=${read.zone}`, compact(read.wall)];
    groups.set(group, [...(groups.get(group) ?? []), written]);
  }
  return groups;
}

/** Comma-separated lines of one property and group, none longer than the event writes take. */
function linesOf(name: string, group: string, values: string[]): string[] {
  const lines: string[] = [];
  let current: string[] = [];
  const head = `${name}${group}:`;
  for (const value of values) {
    if (current.length > 0 && head.length + [...current, value].join(',').length > MAX_LINE) {
      lines.push(head + current.join(','));
      current = [];
    }
    current.push(value);
  }
  if (current.length > 0) lines.push(head + current.join(','));
  return lines;
}

/**
 * The `RRULE`, `RDATE` and `EXDATE` lines of a `VEVENT` as the event writes take them (dates in the
 * event's zone, another named zone, or UTC; whole days as `VALUE=DATE`; an `RDATE` period by its
 * start). Empty when the event does not recur (`EXDATE`s alone exclude nothing).
 */
export function recurrenceLinesOf(component: ICAL.Component, dates: FeedDates, context: TimeContext, notes: string[]): string[] {
  const rules = component.getAllProperties('rrule').map((prop) => prop.toICALString().replace(/^RRULE;[^:]*:/i, 'RRULE:'));
  const rdates = component.getAllProperties('rdate');
  if (rules.length === 0 && rdates.length === 0) return [];
  const lines = [...rules];
  for (const [name, props] of [
    ['RDATE', rdates],
    ['EXDATE', component.getAllProperties('exdate')],
  ] as const) {
    const groups = new Map<string, string[]>();
    for (const prop of props) {
      for (const [group, values] of listedValues(prop, context, notes, dates.timezone))
        groups.set(group, [...(groups.get(group) ?? []), ...values]);
    }
    for (const [group, values] of groups) lines.push(...linesOf(name, group, [...new Set(values)]));
  }
  if (lines.length > MAX_LINES)
    throw new ComponentRefused(`its recurrence needs ${lines.length} lines, more than the ${MAX_LINES} a series takes`);
  return lines;
}

/**
 * A series whose `EXDATE` removes its own `DTSTART` (calendar apps write this when the first
 * occurrence is deleted) starts here at its first occurrence left: the dates move there, and each
 * `COUNT` loses the starts its rule gave before it. Null when nothing is left to import; the
 * dates and lines as they are when the start is not excluded (or the lines cannot be read: the
 * event write then says why).
 */
export function withoutExcludedStart(dates: FeedDates, lines: string[]): { dates: FeedDates; lines: string[] } | null {
  let recurrence;
  try {
    recurrence = readRecurrenceLines(lines, dates.timezone);
    expandRecurrence(recurrence, dates.startLocal, dates.timezone, { throughWall: dates.startLocal, cap: 1 });
    return { dates, lines };
  } catch (error) {
    if (!(error instanceof RecurrenceError) || error.problem !== 'recurrence_start_excluded' || !recurrence) return { dates, lines };
  }
  const far = formatWall(parseWall(dates.startLocal).plus({ years: 50 }));
  const kept = {
    ...recurrence,
    exdates: recurrence.exdates.filter(
      (date) =>
        ('wall' in date ? date.wall : `${date.day} ${dates.startLocal.slice(11)}`) !== dates.startLocal &&
        !('day' in date && date.day === dates.startLocal.slice(0, 10)),
    ),
  };
  const next = expandRecurrence(kept, dates.startLocal, dates.timezone, { throughWall: far, cap: 2 }).starts[1];
  if (next === undefined) return null;
  const length = parseWall(dates.endLocal).toMillis() - parseWall(dates.startLocal).toMillis();
  const moved = { ...dates, startLocal: next, endLocal: formatWall(parseWall(next).plus({ milliseconds: length })) };
  const rules = recurrence.rules.map((rule) => {
    const count = rule.parts.get('COUNT');
    const parts = new Map(rule.parts);
    if (count !== undefined) parts.set('COUNT', String(Number(count) - ruleStartsBefore(rule, dates.startLocal, dates.timezone, next)));
    return `RRULE:${[...parts].map(([key, value]) => `${key}=${value}`).join(';')}`;
  });
  const usable = rules.filter((rule) => !/COUNT=(0|-)/.test(rule));
  const rest = lines.filter((line) => !/^RRULE:/i.test(line));
  if (usable.length === 0 && !rest.some((line) => /^RDATE/i.test(line))) return { dates: moved, lines: [] };
  return { dates: moved, lines: [...usable, ...rest] };
}
