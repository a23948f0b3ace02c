import { calendarDate, timeOfDay, type CalendarDate, type TimeOfDay } from './date-values.js';

export type WeekdayMode = 'this' | 'next' | 'last';

export type CalendarUnit = 'day' | 'month' | 'year';

/** Offsets either move the wall calendar (keeping the wall time) or add elapsed seconds. */
export type Offset = { kind: 'calendar'; unit: CalendarUnit; amount: number } | { kind: 'elapsed'; seconds: number };

export type Item =
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
export type Match = [Item | null, number];

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

/** The item of forms B and C that starts at `tokens[at]`, the matchers tried in this order. */
export function matchItem(tokens: string[], at: number): Match | undefined {
  for (const matcher of MATCHERS) {
    const found = matcher(tokens, at);
    if (found) {
      return found;
    }
  }
  return undefined;
}
