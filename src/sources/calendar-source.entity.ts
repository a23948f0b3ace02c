import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { booleanTransformer, jsonTextTransformer, wallTimeTransformer } from '../common/sql/columns.js';

/** Who wins when a feed and an edit made here disagree (docs/API.md, "Calendar sources"). */
export const UPDATE_AUTHORITIES = ['overwrite', 'keep-local-edits', 'create-only'] as const;
export type UpdateAuthority = (typeof UPDATE_AUTHORITIES)[number];

/** The status an imported event gets while the feed does not cancel it. */
export const SOURCE_STATUSES = ['publish', 'draft'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/**
 * An iCalendar feed subscribed to: where it is, how often it is read, what every event it brings
 * gets, who wins on a conflict; the validators of its last answer (for conditional requests) and
 * the lease of the process that runs it now.
 */
@Entity('calendar_sources')
@Index('IDX_calendar_sources_due', ['paused', 'nextRunUtc'])
export class CalendarSourceEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** The feed's http or https URL (a `webcal://` URL is stored as `https://`). */
  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ name: 'refresh_minutes', type: 'int' })
  refreshMinutes: number;

  /** Category ids every imported event gets, besides the feed's own `CATEGORIES`. */
  @Column({ name: 'default_categories', type: 'text', transformer: jsonTextTransformer })
  defaultCategories: number[];

  @Column({ name: 'default_tags', type: 'text', transformer: jsonTextTransformer })
  defaultTags: number[];

  /** The organizer of events whose `VEVENT` names none. */
  @Column({ name: 'default_organizer_id', type: 'int', nullable: true })
  defaultOrganizerId: number | null;

  /** The venue of events whose `VEVENT` has no `LOCATION`. */
  @Column({ name: 'default_venue_id', type: 'int', nullable: true })
  defaultVenueId: number | null;

  @Column({ name: 'default_status', type: 'varchar', length: 10 })
  defaultStatus: SourceStatus;

  @Column({ name: 'update_authority', type: 'varchar', length: 20 })
  updateAuthority: UpdateAuthority;

  /** Whether an event that is no longer in the feed goes to the trash. */
  @Column({ name: 'trash_missing', type: 'boolean', transformer: booleanTransformer })
  trashMissing: boolean;

  @Column({ type: 'boolean', transformer: booleanTransformer })
  paused: boolean;

  /** The user the imported events are written as (their author). */
  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  /** `ETag` of the feed's last full answer, sent back as `If-None-Match`. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  etag: string | null;

  /** `Last-Modified` of the feed's last full answer, sent back as `If-Modified-Since`. */
  @Column({ name: 'last_modified', type: 'varchar', length: 100, nullable: true })
  lastModified: string | null;

  /** When the scheduler runs the source next (UTC). */
  @Column({ name: 'next_run_utc', type: 'datetime', transformer: wallTimeTransformer })
  nextRunUtc: string;

  /** A process running the source holds it until then (UTC); null when nobody does. */
  @Column({ name: 'lease_until_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  leaseUntilUtc: string | null;

  @Column({ name: 'lease_token', type: 'varchar', length: 64, nullable: true })
  leaseToken: string | null;

  @Column({ name: 'created_utc', type: 'datetime', transformer: wallTimeTransformer })
  createdUtc: string;

  @Column({ name: 'modified_utc', type: 'datetime', transformer: wallTimeTransformer })
  modifiedUtc: string;
}
