import { DateTime } from 'luxon';
import { toLuxonZone } from './zones.js';

/**
 * Today's date (`YYYY-MM-DD`) in a zone, for hot paths: worked out once per day (and again
 * whenever the clock is seen to go backwards), not once per call.
 */
export function siteDay(zone: string, clock: () => number = Date.now): () => string {
  const luxonZone = toLuxonZone(zone);
  let day = '';
  let from = Infinity;
  let until = -Infinity;
  return () => {
    const now = clock();
    if (now < from || now >= until) {
      const start = DateTime.fromMillis(now, { zone: luxonZone }).startOf('day');
      day = start.toFormat('yyyy-MM-dd');
      from = start.toMillis();
      until = start.plus({ days: 1 }).toMillis();
    }
    return day;
  };
}
