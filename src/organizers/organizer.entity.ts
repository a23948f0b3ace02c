import { Column, Entity, Index } from 'typeorm';
import { PublishableEntity } from '../items/publishable.entity.js';

@Entity('organizers')
@Index('UQ_organizers_slug', ['slug'], { unique: true })
@Index('IDX_organizers_listing', ['status', 'dateUtc'])
export class OrganizerEntity extends PublishableEntity {
  @Column({ type: 'varchar', length: 1000 })
  name: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  phone: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  website: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  email: string;
}
