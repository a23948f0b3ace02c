import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type ItemKind = 'event' | 'venue' | 'organizer' | 'image';

/** The shared id sequence of events, venues, organizers and images (spec §3.1). Rows are never deleted. */
@Entity('item_ids')
export class ItemIdEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 16 })
  kind: ItemKind;
}
