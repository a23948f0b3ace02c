import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { wallTimeTransformer } from '../../src/common/sql/columns.js';
import { EventEntity } from '../../src/events/event.entity.js';

/** A note on an event, for the people who run it. The migration in `migrations/` creates the table. */
@Entity('event_notes')
@Index('IDX_event_notes_event', ['eventId', 'id'])
export class EventNoteEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'event_id', type: 'int' })
  eventId: number;

  // the notes of an event go with it (events are trashed, not deleted, by the API)
  @ManyToOne(() => EventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'FK_event_notes_event' })
  event: Relation<EventEntity>;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @Column({ type: 'text' })
  body: string;

  /** When the note was written (UTC). */
  @Column({ name: 'created_utc', type: 'datetime', transformer: wallTimeTransformer })
  createdUtc: string;
}
