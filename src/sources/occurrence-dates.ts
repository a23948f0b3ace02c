import { utcToWall } from '../common/dates/wall-time.js';
import type { FeedEvent } from './feed-event.js';
import type { LocalEvent, WantedEvent } from './source-fields.js';

/** The original start an occurrence's `RECURRENCE-ID` names, as the series writes it (its zone, or the day at its start time). */
export function originalStart(recurrenceId: string, master: FeedEvent): string {
  if (recurrenceId.length === 10) return `${recurrenceId} ${master.dates.startLocal.slice(11)}`;
  return utcToWall(recurrenceId, master.dates.timezone);
}

/** The dates an occurrence has when it follows its series: its original start, the main event's length. */
export function followingDates(master: FeedEvent, local: LocalEvent): WantedEvent['dates'] {
  const original = local.event.seriesOriginalStart ?? local.event.startLocal;
  const length = Date.parse(`${master.dates.endLocal.replace(' ', 'T')}Z`) - Date.parse(`${master.dates.startLocal.replace(' ', 'T')}Z`);
  const end = new Date(Date.parse(`${original.replace(' ', 'T')}Z`) + length).toISOString().slice(0, 19).replace('T', ' ');
  return { ...master.dates, startLocal: original, endLocal: end };
}
