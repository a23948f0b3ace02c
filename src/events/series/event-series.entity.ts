import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { booleanTransformer, jsonTextTransformer, wallTimeTransformer } from '../../common/sql/columns.js';

/**
 * A recurring event's rule: RFC 5545 lines read in the series' zone, and how far its occurrences
 * (events with `series_id` = this id) have been generated.
 */
@Entity('event_series')
@Index('IDX_event_series_due', ['complete', 'generatedThrough'])
export class EventSeriesEntity {
  /** The main event's id. */
  @PrimaryColumn({ type: 'int' })
  id: number;

  /** `RRULE`, `RDATE` and `EXDATE` lines, as stored and answered. */
  @Column({ type: 'text', transformer: jsonTextTransformer })
  rules: string[];

  /** The zone the rules are read in: the main event's. */
  @Column({ type: 'varchar', length: 64 })
  timezone: string;

  /** Wall time (series zone) through which occurrences exist. */
  @Column({ name: 'generated_through', type: 'datetime', transformer: wallTimeTransformer })
  generatedThrough: string;

  /** Occurrences generated so far, the main event included; never more than the cap. */
  @Column({ name: 'generated_count', type: 'int' })
  generatedCount: number;

  /** True when the rule gives no start after `generated_through`, or the cap is reached. */
  @Column({ type: 'boolean', transformer: booleanTransformer })
  complete: boolean;

  @Column({ name: 'created_utc', type: 'datetime', transformer: wallTimeTransformer })
  createdUtc: string;

  @Column({ name: 'modified_utc', type: 'datetime', transformer: wallTimeTransformer })
  modifiedUtc: string;
}
