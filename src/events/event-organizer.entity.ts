import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { EventEntity } from './event.entity.js';
import { OrganizerEntity } from '../organizers/organizer.entity.js';

/** Organizers of an event, in the order they were given. */
@Entity('event_organizers')
@Index('IDX_event_organizers_organizer', ['organizerId', 'eventId'])
export class EventOrganizerEntity {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @PrimaryColumn({ name: 'organizer_id', type: 'int' })
  organizerId: number;

  @Column({ type: 'int' })
  position: number;

  @ManyToOne(() => EventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'FK_event_organizers_event' })
  event: Relation<EventEntity>;

  @ManyToOne(() => OrganizerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id', foreignKeyConstraintName: 'FK_event_organizers_organizer' })
  organizer: Relation<OrganizerEntity>;
}
