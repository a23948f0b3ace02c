import { DateTime } from 'luxon';

/** Format of every stored and returned date: `YYYY-MM-DD HH:MM:SS`. */
export const WALL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

const WALL_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  return month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : DAYS_IN_MONTH[month - 1];
}

/**
 * The fields of a `YYYY-MM-DD HH:MM:SS` string, checked to name a possible date and time (no
 * `24:00:00`, no 31 April, 29 February only in leap years). Throws RangeError otherwise.
 */
function wallFields(wall: string): [number, number, number, number, number, number] {
  const match = WALL_PATTERN.exec(wall);
  if (match) {
    const year = Number(match[1]);
    const month = Number(match[2]);
    const day = Number(match[3]);
    const hour = Number(match[4]);
    const minute = Number(match[5]);
    const second = Number(match[6]);
    if (month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) && hour < 24 && minute < 60 && second < 60) {
      return [year, month, day, hour, minute, second];
    }
  }
  throw new RangeError(`Not a YYYY-MM-DD HH:MM:SS wall time: ${wall}`);
}

/**
 * Reads a `YYYY-MM-DD HH:MM:SS` string into a "wall clock": a luxon DateTime in UTC whose fields
 * are the wall fields, so that calendar arithmetic on it never meets a daylight-saving rule.
 * Throws RangeError when the string is malformed or names an impossible date.
 */
export function parseWall(wall: string): DateTime {
  const [year, month, day, hour, minute, second] = wallFields(wall);
  return DateTime.utc(year, month, day, hour, minute, second);
}

/** Throws RangeError unless `wall` is a possible `YYYY-MM-DD HH:MM:SS` wall time. */
export function checkWall(wall: string): void {
  wallFields(wall);
}

/**
 * The milliseconds since 1970 of a wall time read as UTC: what `parseWall(wall).toMillis()` gives,
 * without building a DateTime (the conversions of every answer's dates use it).
 */
export function wallMillis(wall: string): number {
  const [year, month, day, hour, minute, second] = wallFields(wall);
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: years 0-99 are years, not 1900-1999
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

const two = (value: number) => (value < 10 ? `0${value}` : String(value));

function formatFields(year: number, month: number, day: number, hour: number, minute: number, second: number): string {
  return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)} ${two(hour)}:${two(minute)}:${two(second)}`;
}

/** The wall time of a UTC instant (milliseconds since 1970), seconds truncated: years 0-9999. */
export function formatWallMillis(millis: number): string {
  const date = new Date(millis);
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) throw new RangeError(`No YYYY-MM-DD HH:MM:SS wall time for year ${year}`);
  return formatFields(year, date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds());
}

export function formatWall(clock: DateTime): string {
  if (!clock.isValid || clock.year < 0 || clock.year > 9999) return clock.toFormat(WALL_FORMAT);
  return formatFields(clock.year, clock.month, clock.day, clock.hour, clock.minute, clock.second);
}

/**
 * Moves a wall clock by whole months, keeping the day number and rolling a day past the end of
 * the target month into the next one (spec 6.2: `2027-01-31 +1 month` = `2027-03-03`). Luxon
 * alone would clamp to the last day of February.
 */
export function addMonthsRollingOver(clock: DateTime, months: number): DateTime {
  return clock
    .set({ day: 1 })
    .plus({ months })
    .plus({ days: clock.day - 1 });
}
