import type { EventEntity } from '../events/event.entity.js';
import type { CalendarSourceEventEntity } from './calendar-source-event.entity.js';
import type { CalendarSourceRunEntity } from './calendar-source-run.entity.js';
import type { CalendarSourceEntity } from './calendar-source.entity.js';
import type { SourceEventResponse, SourceResponse, SourceRunResponse } from './source.response.js';

export function runView(run: CalendarSourceRunEntity): SourceRunResponse {
  return {
    id: run.id,
    source_id: run.sourceId,
    started_by: run.startedBy,
    status: run.status,
    http_status: run.httpStatus,
    started_utc: run.startedUtc,
    finished_utc: run.finishedUtc,
    counts: run.counts,
    problems: run.problems,
    error: run.error,
  };
}

export function sourceView(row: CalendarSourceEntity, lastRun: CalendarSourceRunEntity | null, api: string): SourceResponse {
  return {
    id: row.id,
    url: row.url,
    refresh_minutes: row.refreshMinutes,
    default_categories: row.defaultCategories,
    default_tags: row.defaultTags,
    default_organizer: row.defaultOrganizerId,
    default_venue: row.defaultVenueId,
    default_status: row.defaultStatus,
    update_authority: row.updateAuthority,
    trash_missing: row.trashMissing,
    paused: row.paused,
    author: row.authorId,
    next_run_utc: row.nextRunUtc,
    last_run: lastRun ? runView(lastRun) : null,
    created_utc: row.createdUtc,
    modified_utc: row.modifiedUtc,
    runs_url: `${api}/sources/${row.id}/runs`,
    events_url: `${api}/sources/${row.id}/events`,
  };
}

export function sourceEventView(
  row: CalendarSourceEventEntity,
  event: Pick<EventEntity, 'id' | 'title' | 'status' | 'startLocal'>,
  api: string,
): SourceEventResponse {
  return {
    uid: row.uid,
    recurrence_id: row.recurrenceId === '' ? null : row.recurrenceId,
    event_id: event.id,
    title: event.title,
    status: event.status,
    start_date: event.startLocal,
    rest_url: `${api}/events/${event.id}`,
  };
}
