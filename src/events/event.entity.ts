import { Column, Entity, Index, JoinColumn, JoinTable, ManyToMany, ManyToOne, type Relation } from 'typeorm';
import { booleanTransformer, jsonTextTransformer, wallTimeTransformer } from '../common/sql/columns.js';
import { PublishableEntity } from '../items/publishable.entity.js';
import { EventField } from './event-fields.js';
import { CategoryEntity } from '../categories/category.entity.js';
import { TagEntity } from '../tags/tag.entity.js';
import { VenueEntity } from '../venues/venue.entity.js';

@Entity('events')
@Index('UQ_events_slug', ['slug'], { unique: true })
@Index('IDX_events_listing', ['status', 'hideFromListings', 'startLocal', 'id', 'endLocal', 'seriesId'])
@Index('IDX_events_featured', ['status', 'hideFromListings', 'featured', 'startLocal', 'id', 'endLocal'])
@Index('IDX_events_modified', ['status', 'hideFromListings', 'modifiedUtc', 'startLocal', 'endLocal'])
@Index('IDX_events_date', ['status', 'dateUtc'])
@Index('IDX_events_venue', ['venueId', 'status', 'hideFromListings', 'startUtc'])
@Index('IDX_events_parent', ['parentId'])
@Index('IDX_events_author', ['authorId'])
@Index('IDX_events_series', ['seriesId', 'seriesOriginalStart'])
export class EventEntity extends PublishableEntity {
  @Column({ type: 'varchar', length: 1000 })
  title: string;

  /** Normalised zone: an IANA name, `UTC`, or a fixed offset such as `UTC+5.5`. */
  @Column({ type: 'varchar', length: 64 })
  timezone: string;

  @Column({ name: 'all_day', type: 'boolean', transformer: booleanTransformer })
  allDay: boolean;

  /** Wall-clock start in the event's zone. */
  @Column({ name: 'start_local', type: 'datetime', transformer: wallTimeTransformer })
  startLocal: string;

  @Column({ name: 'end_local', type: 'datetime', transformer: wallTimeTransformer })
  endLocal: string;

  @Column({ name: 'start_utc', type: 'datetime', transformer: wallTimeTransformer })
  startUtc: string;

  @Column({ name: 'end_utc', type: 'datetime', transformer: wallTimeTransformer })
  endUtc: string;

  /** Cost strings as sent (spec §8.8); null when there is no cost. */
  @Column({ type: 'text', nullable: true, transformer: jsonTextTransformer })
  cost: string[] | null;

  @Column({ name: 'cost_symbol', type: 'varchar', length: 255, default: '' })
  costSymbol: string;

  @Column({ name: 'cost_position', type: 'varchar', length: 10, default: '' })
  costPosition: '' | 'prefix' | 'postfix';

  @Column({ type: 'varchar', length: 255, nullable: true })
  website: string | null;

  @EventField('show_map')
  @Column({ name: 'show_map', type: 'boolean', transformer: booleanTransformer })
  showMap: boolean;

  @EventField('show_map_link')
  @Column({ name: 'show_map_link', type: 'boolean', transformer: booleanTransformer })
  showMapLink: boolean;

  @EventField('hide_from_listings')
  @Column({ name: 'hide_from_listings', type: 'boolean', transformer: booleanTransformer })
  hideFromListings: boolean;

  @EventField('sticky')
  @Column({ type: 'boolean', transformer: booleanTransformer })
  sticky: boolean;

  @EventField('featured')
  @Column({ type: 'boolean', transformer: booleanTransformer })
  featured: boolean;

  @Column({ name: 'venue_id', type: 'int', nullable: true })
  venueId: number | null;

  @ManyToOne(() => VenueEntity, { nullable: true, createForeignKeyConstraints: false })
  @JoinColumn({ name: 'venue_id' })
  venue: Relation<VenueEntity> | null;

  @Column({ name: 'parent_id', type: 'int', nullable: true })
  parentId: number | null;

  /** The series (its main event's id) this event is an occurrence of, the main event included. */
  @Column({ name: 'series_id', type: 'int', nullable: true })
  seriesId: number | null;

  /** Wall-clock start the series' rule gave this occurrence; kept when the occurrence moves. */
  @Column({ name: 'series_original_start', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  seriesOriginalStart: string | null;

  /** Edited on its own: regenerating the series and edits of the whole series leave it alone. */
  @Column({ name: 'series_exception', type: 'boolean', default: false, transformer: booleanTransformer })
  seriesException: boolean;

  /** Trashed with its main event (not on its own): restoring the main event restores it. */
  @Column({ name: 'series_trashed', type: 'boolean', default: false, transformer: booleanTransformer })
  seriesTrashed: boolean;

  /** Values of the operator-defined fields (spec §8.11), keyed by field key. */
  @Column({ name: 'custom_fields', type: 'text', nullable: true, transformer: jsonTextTransformer })
  customFields: Record<string, string> | null;

  @ManyToMany(() => CategoryEntity)
  @JoinTable({
    name: 'event_categories',
    joinColumn: { name: 'event_id', referencedColumnName: 'id', foreignKeyConstraintName: 'FK_event_categories_event' },
    inverseJoinColumn: { name: 'category_id', referencedColumnName: 'id', foreignKeyConstraintName: 'FK_event_categories_category' },
  })
  categories: Relation<CategoryEntity[]>;

  @ManyToMany(() => TagEntity)
  @JoinTable({
    name: 'event_tags',
    joinColumn: { name: 'event_id', referencedColumnName: 'id', foreignKeyConstraintName: 'FK_event_tags_event' },
    inverseJoinColumn: { name: 'tag_id', referencedColumnName: 'id', foreignKeyConstraintName: 'FK_event_tags_tag' },
  })
  tags: Relation<TagEntity[]>;
}
