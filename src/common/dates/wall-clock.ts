import { DateTime } from 'luxon';

/** Format of every stored and returned date: `YYYY-MM-DD HH:MM:SS`. */
export const WALL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

const WALL_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * Reads a `YYYY-MM-DD HH:MM:SS` string into a "wall clock": a luxon DateTime in UTC whose fields
 * are the wall fields, so that calendar arithmetic on it never meets a daylight-saving rule.
 * Throws RangeError when the string is malformed or names an impossible date.
 */
export function parseWall(wall: string): DateTime {
  const match = WALL_PATTERN.exec(wall);
  if (match) {
    const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
    const clock = DateTime.utc(year, month, day, hour, minute, second);
    // Luxon accepts 24:00:00 as the end of a day; a stored wall time never says that.
    if (clock.isValid && hour < 24) {
      return clock;
    }
  }
  throw new RangeError(`Not a YYYY-MM-DD HH:MM:SS wall time: ${wall}`);
}

export function formatWall(clock: DateTime): string {
  return clock.toFormat(WALL_FORMAT);
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
