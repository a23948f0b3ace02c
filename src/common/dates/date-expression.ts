import { DateTime, type Zone } from 'luxon';
import { matchItem, type CalendarUnit, type Item, type Offset, type WeekdayMode } from './date-items.js';
import { isWithinDateRange, type CalendarDate, type TimeOfDay } from './date-values.js';
import { addMonthsRollingOver } from './wall-clock.js';
import { epochToWallClock, wallClockToEpoch } from './wall-time.js';

interface Expression {
  date?: CalendarDate;
  days?: number;
  weekday?: { weekday: number; mode: WeekdayMode };
  time?: TimeOfDay;
  offsets: Offset[];
}

/** Reads the items of forms B and C; null when a token is not understood or an item repeats. */
export function parseExpression(text: string): Expression | null {
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

/** Evaluates an expression against `now` in the zone (spec 6.2 evaluation order). */
export function evaluateExpression(expression: Expression, zone: Zone, now: Date): number | null {
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
