import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { LONG_TEXT } from '../common/sql/column-types.js';
import { jsonTextTransformer, wallTimeTransformer } from '../common/sql/columns.js';

export type SourceRunStatus = 'running' | 'completed' | 'not_modified' | 'failed';

/** What a run did to the events of its source. */
export interface SourceRunCounts {
  created: number;
  updated: number;
  unchanged: number;
  kept: number;
  trashed: number;
  refused: number;
}

/** A part of the feed a run could not import, and why (`uid` null: the whole file or a part without one). */
export interface SourceRunProblem {
  uid: string | null;
  recurrence_id: string | null;
  reason: string;
}

/** One run of a source: when, what the feed answered, what changed here, what was refused. */
@Entity('calendar_source_runs')
@Index('IDX_calendar_source_runs_source', ['sourceId', 'id'])
export class CalendarSourceRunEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'source_id', type: 'int' })
  sourceId: number;

  /** `schedule`, `manual` (the route or the command line). */
  @Column({ name: 'started_by', type: 'varchar', length: 10 })
  startedBy: string;

  @Column({ type: 'varchar', length: 16 })
  status: SourceRunStatus;

  /** The HTTP status the feed answered with; null when it was not reached. */
  @Column({ name: 'http_status', type: 'int', nullable: true })
  httpStatus: number | null;

  @Column({ type: 'text', transformer: jsonTextTransformer })
  counts: SourceRunCounts;

  @Column({ type: LONG_TEXT, transformer: jsonTextTransformer })
  problems: SourceRunProblem[];

  /** Why the run failed as a whole; null otherwise. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @Column({ name: 'started_utc', type: 'datetime', transformer: wallTimeTransformer })
  startedUtc: string;

  @Column({ name: 'finished_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  finishedUtc: string | null;
}
