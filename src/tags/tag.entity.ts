import { Entity, Index, ManyToMany, type Relation } from 'typeorm';
import { TermEntity } from '../terms/term.entity.js';
import { EventEntity } from '../events/event.entity.js';

@Entity('tags')
@Index('UQ_tags_slug', ['slug'], { unique: true })
export class TagEntity extends TermEntity {
  @ManyToMany(() => EventEntity, (event) => event.tags)
  events: Relation<EventEntity[]>;
}
