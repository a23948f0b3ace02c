import { DateTime } from 'luxon';
import { formatWall } from './wall-clock.js';
import { utcToWall, wallToUtc } from './wall-time.js';
import { normalizeTimezone } from './zones.js';

/** Why a `recurrence` value was refused; each is a message key of the `params` catalogue. */
export type RecurrenceProblem =
  | 'recurrence_list'
  | 'recurrence_line'
  | 'recurrence_dtstart'
  | 'recurrence_count_until'
  | 'recurrence_frequency'
  | 'recurrence_no_occurrence'
  | 'recurrence_start_excluded';

export class RecurrenceError extends Error {
  constructor(
    readonly problem: RecurrenceProblem,
    readonly line?: string,
  ) {
    super(problem);
  }
}

/** One RRULE, read: its parts by name (upper case), UNTIL kept as written. */
export interface RuleLine {
  parts: Map<string, string>;
}

/** A date listed by RDATE or EXDATE: a wall time in the event's zone, or a whole day. */
export type ListedDate = { wall: string } | { day: string };

export interface RecurrenceLines {
  /** The lines as stored and returned: trimmed, property and rule-part names in upper case. */
  lines: string[];
  rules: RuleLine[];
  rdates: ListedDate[];
  exdates: ListedDate[];
}

const RULE_PARTS = new Set([
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
]);
const FREQUENCIES = new Set(['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY']);
const PART_VALUE: Record<string, RegExp> = {
  UNTIL: /^\d{8}(T\d{6}Z?)?$/,
  COUNT: /^[1-9]\d{0,5}$/,
  INTERVAL: /^[1-9]\d{0,3}$/,
  BYSECOND: /^\d{1,2}(,\d{1,2})*$/,
  BYMINUTE: /^\d{1,2}(,\d{1,2})*$/,
  BYHOUR: /^\d{1,2}(,\d{1,2})*$/,
  BYDAY: /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)(,([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU))*$/,
  BYMONTHDAY: /^[+-]?\d{1,2}(,[+-]?\d{1,2})*$/,
  BYYEARDAY: /^[+-]?\d{1,3}(,[+-]?\d{1,3})*$/,
  BYWEEKNO: /^[+-]?\d{1,2}(,[+-]?\d{1,2})*$/,
  BYMONTH: /^\d{1,2}(,\d{1,2})*$/,
  BYSETPOS: /^[+-]?\d{1,3}(,[+-]?\d{1,3})*$/,
  WKST: /^(MO|TU|WE|TH|FR|SA|SU)$/,
};
const PART_RANGE: Record<string, [number, number, boolean]> = {
  // [least, greatest, whether zero is allowed]: the value ranges of RFC 5545 §3.3.10
  BYSECOND: [0, 60, true],
  BYMINUTE: [0, 59, true],
  BYHOUR: [0, 23, true],
  BYMONTHDAY: [-31, 31, false],
  BYYEARDAY: [-366, 366, false],
  BYWEEKNO: [-53, 53, false],
  BYMONTH: [1, 12, false],
  BYSETPOS: [-366, 366, false],
};

const DATE_VALUE = /^(\d{4})(\d{2})(\d{2})$/;
const DATE_TIME_VALUE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/;

function invalid(line: string): never {
  throw new RecurrenceError('recurrence_line', line);
}

function readRule(value: string, line: string): RuleLine {
  const parts = new Map<string, string>();
  for (const part of value.split(';')) {
    const [name, partValue, ...rest] = part.split('=');
    const key = name.trim().toUpperCase();
    if (rest.length > 0 || partValue === undefined || !RULE_PARTS.has(key) || parts.has(key)) invalid(line);
    const upper = partValue.trim().toUpperCase();
    if (key !== 'FREQ' && !PART_VALUE[key].test(upper)) invalid(line);
    const range = PART_RANGE[key];
    if (range && upper.split(',').some((n) => Number(n) < range[0] || Number(n) > range[1] || (!range[2] && Number(n) === 0)))
      invalid(line);
    parts.set(key, upper);
  }
  const freq = parts.get('FREQ');
  if (freq === 'SECONDLY' || freq === 'MINUTELY') throw new RecurrenceError('recurrence_frequency', line);
  if (freq === undefined || !FREQUENCIES.has(freq)) invalid(line);
  if (parts.has('COUNT') && parts.has('UNTIL')) throw new RecurrenceError('recurrence_count_until', line);
  return { parts };
}

/** A DATE or DATE-TIME value of RDATE/EXDATE, as a wall time of the event's zone or a whole day. */
function readListedDate(value: string, valueType: string | undefined, tzid: string | null, zone: string, line: string): ListedDate {
  const date = DATE_VALUE.exec(value);
  if (date && valueType === 'DATE') {
    const day = DateTime.utc(Number(date[1]), Number(date[2]), Number(date[3]));
    return day.isValid ? { day: day.toFormat('yyyy-MM-dd') } : invalid(line);
  }
  const dateTime = DATE_TIME_VALUE.exec(value);
  if (!dateTime || valueType === 'DATE') invalid(line);
  const [year, month, day, hour, minute, second] = dateTime.slice(1, 7).map(Number);
  const clock = DateTime.utc(year, month, day, hour, minute, second);
  if (!clock.isValid || hour > 23) invalid(line);
  const wall = formatWall(clock);
  if (dateTime[7] === 'Z') return { wall: utcToWall(wall, zone) };
  if (tzid !== null) {
    // a time named in another zone is the same instant, seen on the event's clocks
    return { wall: utcToWall(wallToUtc(wall, tzid), zone) };
  }
  return { wall };
}

function readDates(name: string, params: string[], value: string, zone: string, line: string): ListedDate[] {
  let valueType: string | undefined;
  let tzid: string | null = null;
  for (const param of params) {
    const [key, paramValue, ...rest] = param.split('=');
    if (rest.length > 0 || paramValue === undefined) invalid(line);
    const upper = key.trim().toUpperCase();
    if (upper === 'VALUE' && ['DATE', 'DATE-TIME'].includes(paramValue.toUpperCase())) valueType = paramValue.toUpperCase();
    else if (upper === 'TZID') tzid = normalizeTimezone(paramValue.replace(/^"|"$/g, '')) ?? invalid(line);
    else invalid(line);
  }
  if (name === 'EXDATE' || name === 'RDATE') {
    return value.split(',').map((item) => readListedDate(item.trim().toUpperCase(), valueType, tzid, zone, line));
  }
  return invalid(line);
}

/**
 * Reads the `recurrence` input: RFC 5545 content lines `RRULE`, `RDATE` and `EXDATE`, read in the
 * event's zone. Throws RecurrenceError with the reason when a line cannot be used.
 */
export function readRecurrenceLines(input: unknown, zone: string): RecurrenceLines {
  if (!Array.isArray(input) || input.some((line) => typeof line !== 'string')) throw new RecurrenceError('recurrence_list');
  const result: RecurrenceLines = { lines: [], rules: [], rdates: [], exdates: [] };
  for (const raw of input as string[]) {
    const line = raw.trim();
    const colon = line.indexOf(':');
    if (colon <= 0 || line.length > 1000) invalid(line);
    const [name, ...params] = line.slice(0, colon).split(';');
    const property = name.trim().toUpperCase();
    const value = line.slice(colon + 1).trim();
    if (property === 'DTSTART') throw new RecurrenceError('recurrence_dtstart', line);
    if (property === 'RRULE') {
      if (params.length > 0) invalid(line);
      const rule = readRule(value, line);
      result.rules.push(rule);
      result.lines.push(`RRULE:${[...rule.parts].map(([key, part]) => `${key}=${part}`).join(';')}`);
      continue;
    }
    const dates = readDates(property, params, value, zone, line);
    (property === 'RDATE' ? result.rdates : result.exdates).push(...dates);
    result.lines.push([property, ...params.map((param) => param.trim())].join(';') + ':' + value.toUpperCase());
  }
  if (result.rules.length === 0 && result.rdates.length === 0) throw new RecurrenceError('recurrence_no_occurrence');
  return result;
}
