import { ApiProperty } from '@nestjs/swagger';
import { ResponseSchema } from '../common/openapi/response-schema.js';
import { Doc } from '../common/validation/doc.js';

/** An import job (one run of the importer) as `GET /imports/<id>` shows it. */
@ResponseSchema('ImportJob')
export class ImportJobResponse {
  @Doc('ID of the import job.')
  @ApiProperty({ type: 'integer' })
  id: number;

  @Doc('The source: the events namespace of the site imported from.')
  @ApiProperty({ type: 'string', format: 'uri' })
  source: string;

  @Doc('running; completed (everything read); interrupted (stopped, resumed by the next job of the same source); failed (see reason).')
  @ApiProperty({ type: 'string', enum: ['running', 'completed', 'interrupted', 'failed'] })
  status: string;

  @Doc('Whether the job only reports what would change.')
  @ApiProperty({ type: 'boolean' })
  dry_run: boolean;

  @Doc(
    'The step the job is at: categories, tags, venues, organizers, events (and their trash), extra (records read one by one), vanished, done.',
  )
  @ApiProperty({ type: 'string' })
  phase: string;

  @Doc('When the job started, UTC.')
  @ApiProperty({ type: 'string', example: '2026-11-23 09:30:00' })
  started_utc: string;

  @Doc('When the job ended, UTC; null while it runs or when it was interrupted.')
  @ApiProperty({ type: 'string', nullable: true, example: null })
  finished_utc: string | null;

  @Doc('Whether everything the source let the job read was imported; null while it runs.')
  @ApiProperty({ type: 'boolean', nullable: true, example: null })
  complete: boolean | null;

  @Doc('Why the job is not complete, in one line; null otherwise.')
  @ApiProperty({ type: 'string', nullable: true, example: null })
  reason: string | null;

  @Doc('The options the job was started with (the password is never kept).')
  @ApiProperty({ type: 'object', additionalProperties: true })
  options: Record<string, unknown>;

  @Doc('Records read so far and in all, per list of the source.')
  @ApiProperty({ type: 'object', additionalProperties: true })
  progress: Record<string, unknown>;

  @Doc(
    'Per resource: records created, updated, unchanged, kept (edited here), trashed, deleted for good at the source (kept in the trash here; terms deleted), skipped and older than since.',
  )
  @ApiProperty({ type: 'object', additionalProperties: true })
  counts: Record<string, unknown>;

  @Doc('Records whose source ID was taken here, with the ID they got.')
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  renumbered: unknown[];

  @Doc('Records whose source slug was taken here, with the slug they got.')
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  slug_changes: unknown[];

  @Doc('Records that could be read but were not imported, with the reason.')
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  skipped: unknown[];

  @Doc('Records the source kept failing to answer, and ranges of IDs the job did not get to (source_id null), with the reason.')
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  unread: unknown[];

  @Doc('Records the source did not let the job read.')
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  unreadable: unknown[];

  @Doc('Notes for the operator (time zones, custom fields, passwords, links left out).')
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  notes: string[];
}

/** `GET /imports`: the latest jobs, newest first. */
@ResponseSchema('ImportJobList', ImportJobResponse)
export class ImportJobListResponse {
  @Doc('The latest import jobs, newest first (at most 50).')
  @ApiProperty({ type: [ImportJobResponse] })
  imports: ImportJobResponse[];
}
