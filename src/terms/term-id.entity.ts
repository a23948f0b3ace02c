import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type Taxonomy = 'category' | 'tag';

/** The shared id sequence of categories and tags (spec §3.1). Rows outlive their terms, so ids are never reused. */
@Entity('term_ids')
export class TermIdEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 16 })
  taxonomy: Taxonomy;
}
