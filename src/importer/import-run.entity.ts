import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { LONG_TEXT } from '../common/sql/column-types.js';
import { booleanTransformer, jsonTextTransformer, wallTimeTransformer } from '../common/sql/columns.js';

export type ImportRunStatus = 'running' | 'completed' | 'failed' | 'interrupted';

/**
 * One import run: its options (never the password), where it stands (phase and page, so that an
 * interrupted run resumes there), its progress and, once over, its summary.
 */
@Entity('import_runs')
@Index('IDX_import_runs_source', ['sourceId', 'id'])
export class ImportRunEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'source_id', type: 'int' })
  sourceId: number;

  @Column({ type: 'varchar', length: 16 })
  status: ImportRunStatus;

  @Column({ name: 'dry_run', type: 'boolean', transformer: booleanTransformer })
  dryRun: boolean;

  /** The run's options as JSON (login, since, author, conflict policy); the password is never stored. */
  @Column({ type: 'text', transformer: jsonTextTransformer })
  options: Record<string, unknown>;

  /** The phase being worked on (`categories`, `tags`, `venues`, `organizers`, `events`, `extra`, `vanished`, `done`). */
  @Column({ type: 'varchar', length: 32 })
  phase: string;

  /** Pages of the phase already written: a resumed run goes on with the next one. */
  @Column({ name: 'pages_done', type: 'int', default: 0 })
  pagesDone: number;

  /** Progress per resource and the counters of the summary, as JSON. */
  @Column({ type: LONG_TEXT, transformer: jsonTextTransformer })
  progress: Record<string, unknown>;

  /** How the run ended, one line; null while running or after a clean end. */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  error: string | null;

  @Column({ name: 'started_utc', type: 'datetime', transformer: wallTimeTransformer })
  startedUtc: string;

  /** Last sign of life of the process working on the run: a stale one means it was killed. */
  @Column({ name: 'heartbeat_utc', type: 'datetime', transformer: wallTimeTransformer })
  heartbeatUtc: string;

  @Column({ name: 'finished_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  finishedUtc: string | null;
}
