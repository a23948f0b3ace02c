import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BIG_ID, LONG_TEXT } from '../common/sql/column-types.js';
import { booleanTransformer, wallTimeTransformer } from '../common/sql/columns.js';

/**
 * One committed change of one record: the durable log behind the change feed (`GET /changes`) and
 * the domain events. A row is written in the same transaction as the change it describes, so it
 * exists exactly when the change committed. `seq` is the commit order, given after commit by
 * {@link ChangeSequencer}; a row without it is not visible to readers yet.
 *
 * The states before and after (status, author, password protection) let every reader be told what
 * the change means for them: an event made private is `deleted` for an anonymous reader and
 * `updated` for an administrator.
 */
@Entity('changes')
@Index('IDX_changes_seq', ['seq'], { unique: true })
@Index('IDX_changes_recorded', ['recordedUtc'])
@Index('IDX_changes_kind', ['kind', 'id'])
export class ChangeEntity {
  @PrimaryGeneratedColumn({ type: BIG_ID })
  id: string;

  @Column({ type: 'bigint', nullable: true })
  seq: string | null;

  /** `event`, `venue`, `organizer`, `category` or `tag`. */
  @Column({ type: 'varchar', length: 16 })
  kind: string;

  @Column({ name: 'record_id', type: 'int' })
  recordId: number;

  /** What happened: `created`, `updated`, `trashed`, `restored`, `published` or `deleted`. */
  @Column({ type: 'varchar', length: 16 })
  action: string;

  @Column({ name: 'author_id', type: 'int', nullable: true })
  authorId: number | null;

  /** Status before the change; null when the record did not exist. */
  @Column({ name: 'status_before', type: 'varchar', length: 10, nullable: true })
  statusBefore: string | null;

  /** Status after the change; null when the record no longer exists. */
  @Column({ name: 'status_after', type: 'varchar', length: 10, nullable: true })
  statusAfter: string | null;

  @Column({ name: 'protected_before', type: 'boolean', transformer: booleanTransformer })
  protectedBefore: boolean;

  @Column({ name: 'protected_after', type: 'boolean', transformer: booleanTransformer })
  protectedAfter: boolean;

  /** The record's `modified_utc` after the change (for a deletion: when it was deleted). */
  @Column({ name: 'modified_utc', type: 'datetime', transformer: wallTimeTransformer })
  modifiedUtc: string;

  /** When the change was written; retention counts from it. */
  @Column({ name: 'recorded_utc', type: 'datetime', transformer: wallTimeTransformer })
  recordedUtc: string;

  /**
   * The record as an administrator reads it through the API, taken in the change's own transaction
   * (JSON, see `change-snapshots.ts`): after the change, or before it for a permanent deletion. Taken
   * only while someone needs it (an active webhook subscription); null otherwise.
   */
  @Column({ type: LONG_TEXT, nullable: true })
  snapshot: string | null;

  /** Comma-separated editions whose translation of the record the change wrote (content in every edition); null when none. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  languages: string | null;
}
