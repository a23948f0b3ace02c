import { DateTime, type Zone } from 'luxon';
import { addMonthsRollingOver, formatWall } from './wall-clock.js';
import { epochToWallClock, wallClockToEpoch } from './wall-time.js';
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

const MIN_YEAR = 1000;
const MAX_YEAR = 9999;
/** The largest distance from the epoch a JavaScript Date can hold. */
const MAX_EPOCH_MS = 8.64e15;

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

interface TimeOfDay {
  hour: number;
  minute: number;
  second: number;
}

type WeekdayMode = 'this' | 'next' | 'last';

type CalendarUnit = 'day' | 'month' | 'year';

/** Offsets either move the wall calendar (keeping the wall time) or add elapsed seconds. */
type Offset = { kind: 'calendar'; unit: CalendarUnit; amount: number } | { kind: 'elapsed'; seconds: number };

type Item =
  | { kind: 'now' }
  | { kind: 'date'; date: CalendarDate; time?: TimeOfDay }
  | { kind: 'day'; days: number }
  | { kind: 'weekday'; weekday: number; mode: WeekdayMode }
  | { kind: 'time'; time: TimeOfDay }
  | { kind: 'offset'; offset: Offset };

/**
 * An item and the number of tokens it spans; a null item when the tokens have the shape of an item
 * but name an impossible value (`2027-02-30`, `25:00`), which refuses the whole input.
 */
type Match = [Item | null, number];

interface Expression {
  date?: CalendarDate;
  days?: number;
  weekday?: { weekday: number; mode: WeekdayMode };
  time?: TimeOfDay;
  offsets: Offset[];
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

// Maps rather than object literals: `constructor` must not be a word of the language.
const DAY_WORDS: ReadonlyMap<string, number> = new Map([
  ['yesterday', -1],
  ['today', 0],
  ['tomorrow', 1],
]);

const TIME_WORDS: ReadonlyMap<string, TimeOfDay> = new Map([
  ['midnight', { hour: 0, minute: 0, second: 0 }],
  ['noon', { hour: 12, minute: 0, second: 0 }],
]);

const UNITS: ReadonlyMap<string, Offset> = (() => {
  const units = new Map<string, Offset>();
  const add = (names: string[], offset: Offset) => {
    for (const name of names) {
      units.set(name, offset).set(`${name}s`, offset);
    }
  };
  add(['sec', 'second'], { kind: 'elapsed', seconds: 1 });
  add(['min', 'minute'], { kind: 'elapsed', seconds: 60 });
  add(['hour'], { kind: 'elapsed', seconds: 3600 });
  add(['day'], { kind: 'calendar', unit: 'day', amount: 1 });
  add(['week'], { kind: 'calendar', unit: 'day', amount: 7 });
  add(['fortnight'], { kind: 'calendar', unit: 'day', amount: 14 });
  add(['month'], { kind: 'calendar', unit: 'month', amount: 1 });
  add(['year'], { kind: 'calendar', unit: 'year', amount: 1 });
  return units;
})();

const TIMESTAMP = /^@?-?\d+$/;
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:z|([+-])(\d{2})(?::?(\d{2}))?)$/;

const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:t(\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?$/;
const SLASH_YMD = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/;
const SLASH_MDY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const DOT_DMY = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
const DAY_NUMBER = /^\d{1,2}$/;
const YEAR_NUMBER = /^\d{4}$/;

const CLOCK_24 = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;
const CLOCK_12 = /^(\d{1,2})(?::(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(am|pm)$/;
const CLOCK_12_WITHOUT_SUFFIX = /^(\d{1,2})(?::(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;
const MERIDIEM = /^(am|pm)$/;

const SIGNED_NUMBER = /^([+-]?)(\d+)$/;
const SIGNED_NUMBER_WITH_UNIT = /^([+-]?)(\d+)([a-z]+)$/;

function calendarDate(year: number, month: number, day: number): CalendarDate | null {
  if (year < MIN_YEAR || year > MAX_YEAR || !DateTime.utc(year, month, day).isValid) {
    return null;
  }
  return { year, month, day };
}

function timeOfDay(hour: number, minute: number, second: number): TimeOfDay | null {
  return hour <= 23 && minute <= 59 && second <= 59 ? { hour, minute, second } : null;
}

/** A 12-hour clock reading from its matched parts: `12am` is 00:00, `12pm` is 12:00. */
function clock12(hour: string, minute: string | undefined, second: string | undefined, meridiem: string) {
  const hours = Number(hour);
  if (hours < 1 || hours > 12) {
    return null;
  }
  return timeOfDay((hours % 12) + (meridiem === 'pm' ? 12 : 0), Number(minute ?? 0), Number(second ?? 0));
}

/** Parses `H:MM[:SS[.fff]]` (fractions dropped). */
function clock24(text: string): TimeOfDay | null {
  const match = CLOCK_24.exec(text);
  return match ? timeOfDay(Number(match[1]), Number(match[2]), Number(match[3] ?? 0)) : null;
}

function monthNumber(token: string | undefined): number | null {
  if (token === undefined) {
    return null;
  }
  const index = MONTHS.findIndex((name) => name === token || name.slice(0, 3) === token);
  return index < 0 ? null : index + 1;
}

function weekdayNumber(token: string | undefined): number | null {
  if (token === undefined) {
    return null;
  }
  const index = WEEKDAYS.findIndex((name) => name === token || name.slice(0, 3) === token);
  return index < 0 ? null : index + 1;
}

/** A date item, or null for a token that looks like a date but names an impossible one. */
function dateItem(date: CalendarDate | null, time?: TimeOfDay | null): Item | null {
  if (date === null || time === null) {
    return null;
  }
  return time === undefined ? { kind: 'date', date } : { kind: 'date', date, time };
}

/** Form B dates, alone or (ISO form) with a time. */
function matchDate(tokens: string[], at: number): Match | undefined {
  const token = tokens[at];
  let match = ISO_DATE.exec(token);
  if (match) {
    const [, year, month, day, time] = match;
    const date = calendarDate(Number(year), Number(month), Number(day));
    return [dateItem(date, time === undefined ? undefined : clock24(time)), 1];
  }
  if ((match = SLASH_YMD.exec(token))) {
    return [dateItem(calendarDate(Number(match[1]), Number(match[2]), Number(match[3]))), 1];
  }
  if ((match = SLASH_MDY.exec(token))) {
    return [dateItem(calendarDate(Number(match[3]), Number(match[1]), Number(match[2]))), 1];
  }
  if ((match = DOT_DMY.exec(token))) {
    return [dateItem(calendarDate(Number(match[3]), Number(match[2]), Number(match[1]))), 1];
  }
  const [second, third, fourth] = tokens.slice(at + 1, at + 4);
  // D Month YYYY
  const monthAfterDay = monthNumber(second);
  if (DAY_NUMBER.test(token) && monthAfterDay !== null && YEAR_NUMBER.test(third ?? '')) {
    return [dateItem(calendarDate(Number(third), monthAfterDay, Number(token))), 3];
  }
  // Month D YYYY, Month D, YYYY
  const month = monthNumber(token);
  if (month !== null && DAY_NUMBER.test(second ?? '')) {
    if (YEAR_NUMBER.test(third ?? '')) {
      return [dateItem(calendarDate(Number(third), month, Number(second))), 3];
    }
    if (third === ',' && YEAR_NUMBER.test(fourth ?? '')) {
      return [dateItem(calendarDate(Number(fourth), month, Number(second))), 4];
    }
  }
  return undefined;
}

function matchWord(tokens: string[], at: number): Match | undefined {
  const token = tokens[at];
  const days = DAY_WORDS.get(token);
  const time = TIME_WORDS.get(token);
  if (token === 'now') {
    return [{ kind: 'now' }, 1];
  }
  if (days !== undefined) {
    return [{ kind: 'day', days }, 1];
  }
  return time ? [{ kind: 'time', time }, 1] : undefined;
}

function matchWeekday(tokens: string[], at: number): Match | undefined {
  const [token, next] = tokens.slice(at, at + 2);
  const plain = weekdayNumber(token);
  if (plain !== null) {
    return [{ kind: 'weekday', weekday: plain, mode: 'this' }, 1];
  }
  const qualified = weekdayNumber(next);
  if ((token === 'this' || token === 'next' || token === 'last') && qualified !== null) {
    return [{ kind: 'weekday', weekday: qualified, mode: token }, 2];
  }
  return undefined;
}

function matchTime(tokens: string[], at: number): Match | undefined {
  const [token, next] = tokens.slice(at, at + 2);
  const timeItem = (time: TimeOfDay | null): Item | null => (time ? { kind: 'time', time } : null);
  let match = CLOCK_12_WITHOUT_SUFFIX.exec(token);
  if (match && next !== undefined && MERIDIEM.test(next)) {
    const [, hour, minute, second] = match;
    return [timeItem(clock12(hour, minute, second, next)), 2];
  }
  if (CLOCK_24.test(token)) {
    return [timeItem(clock24(token)), 1];
  }
  match = CLOCK_12.exec(token);
  if (match) {
    const [, hour, minute, second, meridiem] = match;
    return [timeItem(clock12(hour, minute, second, meridiem)), 1];
  }
  return undefined;
}

function scaledOffset(unit: Offset, amount: number): Offset {
  return unit.kind === 'elapsed'
    ? { kind: 'elapsed', seconds: unit.seconds * amount }
    : { kind: 'calendar', unit: unit.unit, amount: unit.amount * amount };
}

/** `+N unit`, `-N unit`, `N unit` (also written `+Nunit`), each optionally followed by `ago`. */
function matchNumericOffset(tokens: string[], at: number): Match | undefined {
  const [token, next] = tokens.slice(at, at + 2);
  const match = SIGNED_NUMBER_WITH_UNIT.exec(token) ?? SIGNED_NUMBER.exec(token);
  if (!match) {
    return undefined;
  }
  const [, sign, digits, joinedUnit] = match;
  const unit = UNITS.get(joinedUnit ?? next);
  if (!unit) {
    return undefined;
  }
  let length = joinedUnit === undefined ? 2 : 1;
  let amount = Number(digits) * (sign === '-' ? -1 : 1);
  if (tokens[at + length] === 'ago') {
    amount = -amount;
    length += 1;
  }
  const item: Item | null = Number.isSafeInteger(amount) ? { kind: 'offset', offset: scaledOffset(unit, amount) } : null;
  return [item, length];
}

/** `next unit` (+1) and `last unit` (-1). */
function matchWordOffset(tokens: string[], at: number): Match | undefined {
  const [token, next] = tokens.slice(at, at + 2);
  const unit = next === undefined ? undefined : UNITS.get(next);
  if ((token === 'next' || token === 'last') && unit) {
    return [{ kind: 'offset', offset: scaledOffset(unit, token === 'next' ? 1 : -1) }, 2];
  }
  return undefined;
}

const MATCHERS = [matchDate, matchTime, matchWord, matchWeekday, matchWordOffset, matchNumericOffset];

function matchItem(tokens: string[], at: number): Match | undefined {
  for (const matcher of MATCHERS) {
    const found = matcher(tokens, at);
    if (found) {
      return found;
    }
  }
  return undefined;
}

/** Reads the items of forms B and C; null when a token is not understood or an item repeats. */
function parseExpression(text: string): Expression | null {
  const tokens = text.replace(/,/g, ' , ').trim().split(/\s+/);
  const expression: Expression = { offsets: [] };
  let at = 0;
  while (at < tokens.length) {
    const found = matchItem(tokens, at);
    if (!found?.[0] || !addItem(expression, found[0])) {
      return null;
    }
    at += found[1];
  }
  return expression;
}

function addItem(expression: Expression, item: Item): boolean {
  switch (item.kind) {
    case 'now':
      return true;
    case 'date':
      if (expression.date || (item.time && expression.time)) {
        return false;
      }
      expression.date = item.date;
      if (item.time) {
        expression.time = item.time;
      }
      return true;
    case 'day':
      if (expression.days !== undefined) {
        return false;
      }
      expression.days = item.days;
      return true;
    case 'weekday':
      if (expression.weekday) {
        return false;
      }
      expression.weekday = { weekday: item.weekday, mode: item.mode };
      return true;
    case 'time':
      if (expression.time) {
        return false;
      }
      expression.time = item.time;
      return true;
    case 'offset':
      expression.offsets.push(item.offset);
      return true;
  }
}

/** Days from `from` (luxon weekday, 1 = Monday) to the wanted weekday, per spec 6.2. */
function weekdayDistance(from: number, to: number, mode: WeekdayMode): number {
  const ahead = (to - from + 7) % 7;
  switch (mode) {
    case 'this':
      return ahead;
    case 'next':
      return ahead === 0 ? 7 : ahead;
    case 'last':
      return -((from - to + 7) % 7 || 7);
  }
}

function shiftCalendar(clock: DateTime, unit: CalendarUnit, amount: number): DateTime {
  switch (unit) {
    case 'day':
      return clock.plus({ days: amount });
    case 'month':
      return addMonthsRollingOver(clock, amount);
    case 'year':
      return addMonthsRollingOver(clock, amount * 12);
  }
}

function isWithinDateRange(epoch: number): boolean {
  return Number.isFinite(epoch) && Math.abs(epoch) <= MAX_EPOCH_MS;
}

/** Evaluates an expression against `now` in the zone (spec 6.2 evaluation order). */
function evaluate(expression: Expression, zone: Zone, now: Date): number | null {
  const nowEpoch = Math.floor(now.getTime() / 1000) * 1000;
  let clock = epochToWallClock(nowEpoch, zone);
  // The exact instant, kept while only elapsed time is added: `now` in a repeated hour stays put.
  let exact: number | null = nowEpoch;
  const { date, days, weekday, time } = expression;
  if (date || days !== undefined || weekday || time) {
    exact = null;
  }
  if (date) {
    clock = DateTime.utc(date.year, date.month, date.day);
  }
  if (days !== undefined) {
    clock = clock.startOf('day').plus({ days });
  }
  if (weekday) {
    const distance = weekdayDistance(clock.weekday, weekday.weekday, weekday.mode);
    clock = clock.startOf('day').plus({ days: distance });
  }
  if (time) {
    clock = clock.set({ ...time, millisecond: 0 });
  }
  for (const offset of expression.offsets) {
    if (offset.kind === 'calendar') {
      clock = shiftCalendar(clock, offset.unit, offset.amount);
      exact = null;
      continue;
    }
    if (!isWithinDateRange(clock.toMillis())) {
      return null;
    }
    exact = (exact ?? wallClockToEpoch(clock, zone)) + offset.seconds * 1000;
    if (!isWithinDateRange(exact)) {
      return null;
    }
    clock = epochToWallClock(exact, zone);
  }
  if (!isWithinDateRange(clock.toMillis())) {
    return null;
  }
  return exact ?? wallClockToEpoch(clock, zone);
}

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

function isAllowedYear(clock: DateTime): boolean {
  return clock.isValid && clock.year >= MIN_YEAR && clock.year <= MAX_YEAR;
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
    epoch = expression && evaluate(expression, luxonZone, now);
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
