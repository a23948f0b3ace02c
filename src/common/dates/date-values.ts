import { DateTime } from 'luxon';

const MIN_YEAR = 1000;
const MAX_YEAR = 9999;
/** The largest distance from the epoch a JavaScript Date can hold. */
const MAX_EPOCH_MS = 8.64e15;

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

export interface TimeOfDay {
  hour: number;
  minute: number;
  second: number;
}

export function calendarDate(year: number, month: number, day: number): CalendarDate | null {
  if (year < MIN_YEAR || year > MAX_YEAR || !DateTime.utc(year, month, day).isValid) {
    return null;
  }
  return { year, month, day };
}

export function timeOfDay(hour: number, minute: number, second: number): TimeOfDay | null {
  return hour <= 23 && minute <= 59 && second <= 59 ? { hour, minute, second } : null;
}

export function isWithinDateRange(epoch: number): boolean {
  return Number.isFinite(epoch) && Math.abs(epoch) <= MAX_EPOCH_MS;
}

export function isAllowedYear(clock: DateTime): boolean {
  return clock.isValid && clock.year >= MIN_YEAR && clock.year <= MAX_YEAR;
}
