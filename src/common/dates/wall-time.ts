import { DateTime, type Zone } from 'luxon';
import type { DateDetailsResponse } from './date-details.response.js';
import { checkWall, formatWall, formatWallMillis, parseWall, wallMillis } from './wall-clock.js';
import { toLuxonZone } from './zones.js';

const DAY_MS = 86_400_000;

function offsetMillis(zone: Zone, epochMillis: number): number {
  // Local mean time offsets have seconds, which luxon reports as fractional minutes.
  return Math.round(zone.offset(epochMillis) * 60_000);
}

/**
 * The instant (epoch milliseconds) at which a zone's clocks show a wall time, with the rules of
 * spec 6.4: a time inside a gap is moved forward by the gap length, a repeated time means its first
 * occurrence. Luxon would pick differently, so both cases are resolved here from the offsets on
 * either side of the transition.
 */
export function wallClockToEpoch(clock: DateTime, zone: Zone): number {
  const local = clock.toMillis();
  const offsets = [offsetMillis(zone, local - DAY_MS), offsetMillis(zone, local + DAY_MS)];
  const matching = offsets.map((offset) => local - offset).filter((epoch, index) => offsetMillis(zone, epoch) === offsets[index]);
  if (matching.length === 0) {
    // Reading a gap time with the offset in force before the gap lands the gap length later.
    return local - offsets[0];
  }
  return Math.min(...matching);
}

/** The wall clock (see parseWall) of a zone at an instant. */
export function epochToWallClock(epochMillis: number, zone: Zone): DateTime {
  return DateTime.fromMillis(epochMillis + offsetMillis(zone, epochMillis), { zone: 'utc' });
}

/** The UTC wall time of a wall time read in `zone` (spec 6.4 rules for gaps and repeats). */
export function wallToUtc(wall: string, zone: string): string {
  return formatWallMillis(wallClockToEpoch(parseWall(wall), toLuxonZone(zone)));
}

/** The wall time in `zone` of a UTC wall time. */
export function utcToWall(utcWall: string, zone: string): string {
  const epoch = wallMillis(utcWall);
  return formatWallMillis(epoch + offsetMillis(toLuxonZone(zone), epoch));
}

/** The wall time actually stored for a wall time (gap times moved forward) and its UTC wall time, in one pass. */
export function resolveWall(wall: string, zone: string): { wall: string; utc: string } {
  const luxonZone = toLuxonZone(zone);
  const epoch = wallClockToEpoch(parseWall(wall), luxonZone);
  return { wall: formatWall(epochToWallClock(epoch, luxonZone)), utc: formatWallMillis(epoch) };
}

/** The wall time actually stored for a wall time: gap times move forward, others are unchanged. */
export function normalizeWallAfterGap(wall: string, zone: string): string {
  const luxonZone = toLuxonZone(zone);
  return formatWall(epochToWallClock(wallClockToEpoch(parseWall(wall), luxonZone), luxonZone));
}

function formatIsoOffset(offset: number): string {
  const minutes = Math.trunc(Math.abs(offset) / 60_000);
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${offset < 0 ? '-' : '+'}${hh}:${mm}`;
}

/**
 * ISO 8601 local time with the zone's offset at that moment, for JSON-LD (spec 8.10):
 * `2027-03-20T19:30:00-05:00`. UTC is written `+00:00`, never `Z`.
 */
export function isoWithOffset(wall: string, zone: string): string {
  const luxonZone = toLuxonZone(zone);
  const epoch = wallClockToEpoch(parseWall(wall), luxonZone);
  const local = epochToWallClock(epoch, luxonZone);
  const offset = formatIsoOffset(offsetMillis(luxonZone, epoch));
  return `${local.toFormat("yyyy-MM-dd'T'HH:mm:ss")}${offset}`;
}

/** The parts of a `YYYY-MM-DD HH:MM:SS` string, without any zone conversion (spec 8.7). */
export function dateDetails(wall: string): DateDetailsResponse {
  checkWall(wall);
  return {
    year: wall.slice(0, 4),
    month: wall.slice(5, 7),
    day: wall.slice(8, 10),
    hour: wall.slice(11, 13),
    minutes: wall.slice(14, 16),
    seconds: wall.slice(17, 19),
  };
}

/** The current second as a UTC wall time. */
export function nowUtcWall(now: Date = new Date()): string {
  return formatWallMillis(now.getTime());
}
