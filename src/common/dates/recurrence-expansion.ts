import { RRuleTemporal } from 'rrule-temporal';
import { RecurrenceError, type ListedDate, type RecurrenceLines, type RuleLine } from './recurrence-lines.js';
import { DateTime } from 'luxon';
import { formatWall, parseWall } from './wall-clock.js';
import { normalizeWallAfterGap, resolveWall, utcToWall } from './wall-time.js';

/** How far one expansion goes: starts up to this wall time (inclusive), and at most this many. */
export interface ExpansionLimits {
  throughWall: string;
  cap: number;
}

export interface Expansion {
  /** Wall times of the event's zone, ascending, the series' start first; gap times moved forward. */
  starts: string[];
  /** Whether a start beyond `throughWall` may still come (the series is not finished). */
  continues: boolean;
}

const compact = (wall: string): string => wall.replace(/[-:]/g, '').replace(' ', 'T');
const fromCompact = (value: string): string =>
  `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)} ${value.slice(9, 11)}:${value.slice(11, 13)}:${value.slice(13, 15)}`;

/**
 * UNTIL in the floating frame the rules are expanded in: a UTC instant becomes the event's wall
 * time, a local or whole-day UNTIL stays as written.
 */
function floatingUntil(until: string, zone: string): string {
  if (!until.endsWith('Z')) return until.length === 8 ? until : `${until}Z`;
  return `${compact(utcToWall(fromCompact(until.slice(0, 15)), zone))}Z`;
}

/**
 * The wall times one rule gives from `startWall` on. Rules are expanded in floating time (the
 * library sees a zone without daylight saving), so every start keeps its wall-clock time across
 * transitions; turning wall times into instants is the caller's, with the rules of spec 6.4.
 */
function expandRule(rule: RuleLine, startWall: string, zone: string, limits: ExpansionLimits): { starts: string[]; beyond: boolean } {
  const parts = [...rule.parts].map(([key, value]) => `${key}=${key === 'UNTIL' ? floatingUntil(value, zone) : value}`);
  const expander = new RRuleTemporal({ rruleString: `DTSTART:${compact(startWall)}Z\nRRULE:${parts.join(';')}`, cache: false });
  const starts: string[] = [];
  let beyond = false;
  try {
    expander.all((date) => {
      const wall = date.toPlainDateTime().toString().replace('T', ' ').slice(0, 19);
      if (wall > limits.throughWall || starts.length >= limits.cap) {
        beyond = true;
        return false;
      }
      starts.push(wall);
      return true;
    });
  } catch (error) {
    // the library gives up on a rule that produces nothing for thousands of periods (30 February)
    if (!(error instanceof Error) || !/maximum iterations/i.test(error.message)) throw error;
  }
  return { starts, beyond };
}

/** How many starts one rule gives from `startWall` on, before `beforeWall` (exclusive). */
export function ruleStartsBefore(rule: RuleLine, startWall: string, zone: string, beforeWall: string): number {
  const throughWall = formatWall(parseWall(beforeWall).minus({ seconds: 1 }));
  return expandRule(rule, startWall, zone, { throughWall, cap: Number.MAX_SAFE_INTEGER }).starts.length;
}

function listedWall(date: ListedDate, startWall: string): string {
  return 'wall' in date ? date.wall : `${date.day} ${startWall.slice(11)}`;
}

function isExcluded(wall: string, exdates: ListedDate[]): boolean {
  return exdates.some((date) => ('wall' in date ? date.wall === wall : date.day === wall.slice(0, 10)));
}

/**
 * The starts of a series (spec: issue 18): the event's own start first, then every start its
 * RRULEs and RDATEs give after it, less the EXDATEs, up to the limits. Throws RecurrenceError when
 * the lines give no start at all or exclude the event's own start.
 */
export function expandRecurrence(recurrence: RecurrenceLines, startWall: string, zone: string, limits: ExpansionLimits): Expansion {
  if (isExcluded(startWall, recurrence.exdates)) throw new RecurrenceError('recurrence_start_excluded');
  const found = new Set<string>();
  let produced = false;
  let continues = false;
  for (const rule of recurrence.rules) {
    const { starts, beyond } = expandRule(rule, startWall, zone, limits);
    produced ||= starts.length > 0 || beyond;
    continues ||= beyond;
    for (const wall of starts) found.add(wall);
  }
  for (const date of recurrence.rdates) {
    const wall = listedWall(date, startWall);
    if (wall < startWall) continue;
    produced = true;
    if (wall > limits.throughWall) continues = true;
    else found.add(wall);
  }
  if (!produced) throw new RecurrenceError('recurrence_no_occurrence');
  found.delete(startWall);
  const later = [...found]
    .filter((wall) => wall > startWall && !isExcluded(wall, recurrence.exdates))
    .map((wall) => normalizeWallAfterGap(wall, zone))
    .sort();
  const starts = [startWall, ...new Set(later)].slice(0, limits.cap);
  return { starts, continues: continues && starts.length < limits.cap };
}

export interface OccurrenceTimes {
  startLocal: string;
  endLocal: string;
  startUtc: string;
  endUtc: string;
}

/**
 * The dates of the occurrence that starts at `startWall`: the series' wall-clock length (an event
 * from 19:30 to 21:00 stays 19:30-21:00 on the day clocks change; an all-day event keeps its number
 * of days), gap times moved forward (spec 6.4), the end never before the start.
 */
export function occurrenceTimes(startWall: string, series: { startLocal: string; endLocal: string; timezone: string }): OccurrenceTimes {
  const length = parseWall(series.endLocal).toMillis() - parseWall(series.startLocal).toMillis();
  const start = resolveWall(startWall, series.timezone);
  const end = resolveWall(formatWall(parseWall(startWall).plus({ milliseconds: length })), series.timezone);
  return end.utc < start.utc
    ? { startLocal: start.wall, endLocal: start.wall, startUtc: start.utc, endUtc: start.utc }
    : { startLocal: start.wall, endLocal: end.wall, startUtc: start.utc, endUtc: end.utc };
}

/** The last wall time (in `zone`) of a series' generation window: `days` after now, or after its start when that is later. */
export function horizonWall(startUtc: string, zone: string, days: number, now: Date): string {
  const from = Math.max(now.getTime(), parseWall(startUtc).toMillis());
  return utcToWall(formatWall(DateTime.fromMillis(from + days * 86_400_000, { zone: 'utc' })), zone);
}
