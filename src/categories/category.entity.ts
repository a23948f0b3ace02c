import { Column, Entity, Index } from 'typeorm';
import { TermEntity } from '../terms/term.entity.js';

@Entity('categories')
@Index('UQ_categories_slug', ['slug'], { unique: true })
@Index('IDX_categories_parent', ['parentId'])
export class CategoryEntity extends TermEntity {
  /** 0 for a top-level category. */
  @Column({ name: 'parent_id', type: 'int', default: 0 })
  parentId: number;
}
