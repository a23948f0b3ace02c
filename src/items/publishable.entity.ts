import { Column, PrimaryColumn } from 'typeorm';
import { LONG_TEXT } from '../common/sql/column-types.js';
import { booleanTransformer, wallTimeTransformer } from '../common/sql/columns.js';
import type { ItemStatus } from '../common/auth/item-status.js';

/** Columns shared by events, venues and organizers; each kind has its own table. */
export abstract class PublishableEntity {
  /** Taken from the item sequence (`item_ids`). */
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @Column({ type: 'varchar', length: 10 })
  status: ItemStatus;

  /** Status before the item was trashed, restored rules and permissions use it. */
  @Column({ name: 'pre_trash_status', type: 'varchar', length: 10, nullable: true })
  preTrashStatus: ItemStatus | null;

  @Column({ type: 'varchar', length: 255 })
  slug: string;

  @Column({ type: LONG_TEXT })
  description: string;

  @Column({ type: LONG_TEXT })
  excerpt: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  password: string | null;

  @Column({ name: 'image_id', type: 'int', nullable: true })
  imageId: number | null;

  /** Publication instant (UTC). */
  @Column({ name: 'date_utc', type: 'datetime', transformer: wallTimeTransformer })
  dateUtc: string;

  /** True while the publication date follows the first publication (spec §6.7). */
  @Column({ name: 'date_floating', type: 'boolean', transformer: booleanTransformer })
  dateFloating: boolean;

  @Column({ name: 'modified_utc', type: 'datetime', transformer: wallTimeTransformer })
  modifiedUtc: string;
}
