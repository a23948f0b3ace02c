import { Column, PrimaryColumn } from 'typeorm';
import { LONG_TEXT } from '../common/sql/column-types.js';
import { wallTimeTransformer } from '../common/sql/columns.js';

/** Columns shared by categories and tags; each taxonomy has its own table. */
export abstract class TermEntity {
  /** Taken from the term sequence (`term_ids`). */
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 255 })
  slug: string;

  @Column({ type: LONG_TEXT })
  description: string;

  /**
   * Published events carrying this term directly (spec §8.5). Stored so that reads never count
   * links; every write that changes an event's status or terms moves it in the same transaction.
   */
  @Column({ name: 'published_count', type: 'int', default: 0 })
  publishedCount: number;

  /**
   * Last change by a term write, as a UTC wall time. Set on create and update; terms older than the
   * column carry the time of its migration. Nullable only so that the column could be added.
   */
  @Column({ name: 'modified_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  modifiedUtc: string | null;
}
