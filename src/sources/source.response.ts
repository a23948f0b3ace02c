import { ApiProperty } from '@nestjs/swagger';
import { ResponseSchema } from '../common/openapi/response-schema.js';
import { Doc } from '../common/validation/doc.js';
import { SOURCE_TEXT } from './dto/source-fields.dto.js';

/** What a run did to the events of its source. */
@ResponseSchema('SourceRunCounts')
export class SourceRunCountsResponse {
  @Doc('Events created.')
  @ApiProperty({ type: 'integer' })
  created: number;

  @Doc('Events changed.')
  @ApiProperty({ type: 'integer' })
  updated: number;

  @Doc('Events the feed did not change.')
  @ApiProperty({ type: 'integer' })
  unchanged: number;

  @Doc('Events changed by the feed but kept as edited here (keep-local-edits, create-only).')
  @ApiProperty({ type: 'integer' })
  kept: number;

  @Doc('Events moved to the trash (cancelled, or no longer in the feed).')
  @ApiProperty({ type: 'integer' })
  trashed: number;

  @Doc('Parts of the feed that could not be imported (see problems).')
  @ApiProperty({ type: 'integer' })
  refused: number;
}

/** A part of the feed a run could not import. */
@ResponseSchema('SourceRunProblem')
export class SourceRunProblemResponse {
  @Doc('UID of the VEVENT concerned; null for the whole file, or a part without one.')
  @ApiProperty({ type: 'string', nullable: true })
  uid: string | null;

  @Doc('The occurrence the VEVENT replaces (RECURRENCE-ID: a date, or a date and time in UTC); null otherwise.')
  @ApiProperty({ type: 'string', nullable: true })
  recurrence_id: string | null;

  @Doc('Why, in one line.')
  @ApiProperty({ type: 'string' })
  reason: string;
}

/** One run of a source. */
@ResponseSchema('SourceRun')
export class SourceRunResponse {
  @Doc('ID of the run.')
  @ApiProperty({ type: 'integer' })
  id: number;

  @Doc('ID of the source.')
  @ApiProperty({ type: 'integer' })
  source_id: number;

  @Doc('What started it: schedule or manual.')
  @ApiProperty({ type: 'string', enum: ['schedule', 'manual'] })
  started_by: string;

  @Doc('running; completed; not_modified (the feed answered 304: nothing read, nothing written); failed (see error).')
  @ApiProperty({ type: 'string', enum: ['running', 'completed', 'not_modified', 'failed'] })
  status: string;

  @Doc('The HTTP status the feed answered with; null when it could not be reached.')
  @ApiProperty({ type: 'integer', nullable: true })
  http_status: number | null;

  @Doc('When the run started, UTC.')
  @ApiProperty({ type: 'string', example: '2026-11-23 09:30:00' })
  started_utc: string;

  @Doc('When the run ended, UTC; null while it runs.')
  @ApiProperty({ type: 'string', nullable: true })
  finished_utc: string | null;

  @Doc('What the run did to the events of the source.')
  @ApiProperty({ type: SourceRunCountsResponse })
  counts: SourceRunCountsResponse;

  @Doc('Parts of the feed that could not be imported, and why (the first 1,000).')
  @ApiProperty({ type: [SourceRunProblemResponse] })
  problems: SourceRunProblemResponse[];

  @Doc('Why the run failed, in one line; null otherwise.')
  @ApiProperty({ type: 'string', nullable: true })
  error: string | null;
}

/** An event a source imported, with the `VEVENT` it came from. */
@ResponseSchema('SourceEvent')
export class SourceEventResponse {
  @Doc('UID of the VEVENT the event came from.')
  @ApiProperty({ type: 'string' })
  uid: string;

  @Doc(
    'RECURRENCE-ID of the VEVENT when it changes one occurrence of a series (a date, or a date and time in UTC); null for an event or a series.',
  )
  @ApiProperty({ type: 'string', nullable: true })
  recurrence_id: string | null;

  @Doc('ID of the event.')
  @ApiProperty({ type: 'integer' })
  event_id: number;

  @Doc('Title of the event.')
  @ApiProperty({ type: 'string' })
  title: string;

  @Doc('Status of the event (trash when the feed cancelled it or it left the feed).')
  @ApiProperty({ type: 'string' })
  status: string;

  @Doc('Start of the event, in its time zone.')
  @ApiProperty({ type: 'string', example: '2026-11-23 09:30:00' })
  start_date: string;

  @Doc('The event in the API.')
  @ApiProperty({ type: 'string', format: 'uri' })
  rest_url: string;
}

/** A calendar source as administrators see it. */
@ResponseSchema('Source')
export class SourceResponse {
  @Doc('ID of the source.')
  @ApiProperty({ type: 'integer' })
  id: number;

  @Doc(SOURCE_TEXT.url)
  @ApiProperty({ type: 'string', format: 'uri' })
  url: string;

  @Doc(SOURCE_TEXT.refresh_minutes)
  @ApiProperty({ type: 'integer' })
  refresh_minutes: number;

  @Doc(SOURCE_TEXT.default_categories)
  @ApiProperty({ type: 'array', items: { type: 'integer' } })
  default_categories: number[];

  @Doc(SOURCE_TEXT.default_tags)
  @ApiProperty({ type: 'array', items: { type: 'integer' } })
  default_tags: number[];

  @Doc(SOURCE_TEXT.default_organizer)
  @ApiProperty({ type: 'integer', nullable: true })
  default_organizer: number | null;

  @Doc(SOURCE_TEXT.default_venue)
  @ApiProperty({ type: 'integer', nullable: true })
  default_venue: number | null;

  @Doc(SOURCE_TEXT.default_status)
  @ApiProperty({ type: 'string', enum: ['publish', 'draft'] })
  default_status: string;

  @Doc(SOURCE_TEXT.update_authority)
  @ApiProperty({ type: 'string', enum: ['overwrite', 'keep-local-edits', 'create-only'] })
  update_authority: string;

  @Doc(SOURCE_TEXT.trash_missing)
  @ApiProperty({ type: 'boolean' })
  trash_missing: boolean;

  @Doc(SOURCE_TEXT.paused)
  @ApiProperty({ type: 'boolean' })
  paused: boolean;

  @Doc('ID of the user the imported events are written as.')
  @ApiProperty({ type: 'integer' })
  author: number;

  @Doc('When the scheduler runs the source next, UTC.')
  @ApiProperty({ type: 'string' })
  next_run_utc: string;

  @Doc('The latest run; null before the first.')
  @ApiProperty({ type: SourceRunResponse, nullable: true })
  last_run: SourceRunResponse | null;

  @Doc('Creation date in UTC.')
  @ApiProperty({ type: 'string' })
  created_utc: string;

  @Doc('Last modification in UTC.')
  @ApiProperty({ type: 'string' })
  modified_utc: string;

  @Doc('The runs of the source.')
  @ApiProperty({ type: 'string', format: 'uri' })
  runs_url: string;

  @Doc('The events the source imported, each with its UID.')
  @ApiProperty({ type: 'string', format: 'uri' })
  events_url: string;
}
