import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { jsonTextTransformer, wallTimeTransformer } from '../common/sql/columns.js';

/**
 * Which event a `VEVENT` of a source became: one row per `UID` (and per `UID` + `RECURRENCE-ID` for
 * an occurrence the feed changes on its own), found again on every run. It keeps what the feed said
 * last (to see changes there) and the event's fields as the sync last left them (to see edits made
 * here), field by field.
 */
@Entity('calendar_source_events')
@Index('IDX_calendar_source_events_event', ['eventId'])
export class CalendarSourceEventEntity {
  @PrimaryColumn({ name: 'source_id', type: 'int' })
  sourceId: number;

  /** SHA-256 (hex) of the `UID` and the `RECURRENCE-ID`: a fixed-length key for any `UID`. */
  @PrimaryColumn({ name: 'component_key', type: 'varchar', length: 64 })
  componentKey: string;

  @Column({ type: 'varchar', length: 1000 })
  uid: string;

  /** The original start of the occurrence (series zone), or `''` for the event or series itself. */
  @Column({ name: 'recurrence_id', type: 'varchar', length: 19, default: '' })
  recurrenceId: string;

  @Column({ name: 'event_id', type: 'int' })
  eventId: number;

  /** A short hash of each value the feed gave, per field, when last read. */
  @Column({ name: 'feed_fields', type: 'text', transformer: jsonTextTransformer })
  feedFields: Record<string, string>;

  /** A short hash of each of the event's values, per field, right after the sync last wrote or checked it. */
  @Column({ name: 'local_fields', type: 'text', transformer: jsonTextTransformer })
  localFields: Record<string, string>;

  /** The event's `modified_utc` right after the sync last wrote it (for operators; edits are found field by field). */
  @Column({ name: 'local_modified_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  localModifiedUtc: string | null;

  @Column({ name: 'last_seen_run', type: 'int', default: 0 })
  lastSeenRun: number;

  @Column({ name: 'created_utc', type: 'datetime', transformer: wallTimeTransformer })
  createdUtc: string;
}
