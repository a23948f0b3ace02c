import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { wallTimeTransformer } from '../common/sql/columns.js';

/** A registered image URL (spec §8.6); its id comes from the item sequence. */
@Entity('images')
@Index('UQ_images_url_hash', ['urlHash'], { unique: true })
export class ImageEntity {
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ type: 'varchar', length: 2000 })
  url: string;

  /** SHA-256 of the URL: URLs are too long for a unique index of their own. */
  @Column({ name: 'url_hash', type: 'varchar', length: 64 })
  urlHash: string;

  @Column({ type: 'varchar', length: 10 })
  extension: string;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @Column({ name: 'created_utc', type: 'datetime', transformer: wallTimeTransformer })
  createdUtc: string;
}
