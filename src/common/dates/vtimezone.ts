import { DateTime, IANAZone } from 'luxon';
import { isSupportedZone } from '../../config/time-zone-names.js';

const HOUR_MS = 3_600_000;
/** Offsets are probed every 6 hours; no zone changes its offset twice within that. */
const PROBE_MS = 6 * HOUR_MS;

function offsetAt(zone: IANAZone, ms: number): number {
  return zone.offset(ms);
}

/** `+0130` / `-0500` as RFC 5545 writes an offset in minutes. */
function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/** The first millisecond at which the offset differs from the one at `low` (binary search, to the minute). */
function transitionBetween(zone: IANAZone, low: number, high: number): number {
  const before = offsetAt(zone, low);
  while (high - low > 60_000) {
    const middle = low + Math.floor((high - low) / 120_000) * 60_000;
    if (offsetAt(zone, middle) === before) low = middle;
    else high = middle;
  }
  return high;
}

function observance(zone: IANAZone, atMs: number, from: number, to: number): string[] {
  const moment = DateTime.fromMillis(atMs, { zone }).setLocale('en-US');
  const kind = moment.isInDST ? 'DAYLIGHT' : 'STANDARD';
  // DTSTART of an observance is the local time of the change in the offset that was in effect before it
  const local = DateTime.fromMillis(atMs + from * 60_000, { zone: 'UTC' }).toFormat("yyyyMMdd'T'HHmmss");
  return [
    `BEGIN:${kind}`,
    `DTSTART:${local}`,
    `TZOFFSETFROM:${formatOffset(from)}`,
    `TZOFFSETTO:${formatOffset(to)}`,
    `TZNAME:${moment.offsetNameShort ?? formatOffset(to)}`,
    `END:${kind}`,
  ];
}

/**
 * A VTIMEZONE component (RFC 5545 §3.6.5) for an IANA zone, built from the tz data Node ships: one
 * observance for the offset at the start of `fromYear`, then one per offset change up to the end of
 * `toYear`, each listed explicitly (no RRULE), so the rules are exact for those years, past rule
 * changes included. Null for a name that is not an IANA zone.
 */
export function vtimezone(name: string, fromYear: number, toYear: number): string | null {
  if (!isSupportedZone(name)) return null;
  const zone = IANAZone.create(name);
  const start = Date.UTC(fromYear, 0, 1);
  const end = Date.UTC(toYear + 1, 0, 1);
  const first = offsetAt(zone, start);
  const lines = ['BEGIN:VTIMEZONE', `TZID:${name}`, ...observance(zone, start, first, first)];
  let previous = first;
  for (let probe = start; probe < end; probe += PROBE_MS) {
    const next = offsetAt(zone, Math.min(probe + PROBE_MS, end));
    if (next === previous) continue;
    const at = transitionBetween(zone, probe, Math.min(probe + PROBE_MS, end));
    lines.push(...observance(zone, at, previous, offsetAt(zone, at)));
    previous = offsetAt(zone, at);
  }
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}
