import { Column, Entity, PrimaryColumn } from 'typeorm';
import { LONG_TEXT } from '../common/sql/column-types.js';

/**
 * One translated text field of one record in one edition's language (issue 48): the original stays
 * in the record's own row, in the site's content language (`CONTENT_LANGUAGE`).
 */
@Entity('content_translations')
export class ContentTranslationEntity {
  /** `event`, `venue`, `organizer`, `category` or `tag` (the change log's kinds). */
  @PrimaryColumn({ type: 'varchar', length: 16 })
  kind!: string;

  @PrimaryColumn({ name: 'record_id', type: 'int' })
  recordId!: number;

  /** An edition's code, e.g. `de`, `pt-br`. */
  @PrimaryColumn({ type: 'varchar', length: 8 })
  language!: string;

  /** The record's property: `title`, `description`, `excerpt` (events), `name`, `description` (the others). */
  @PrimaryColumn({ type: 'varchar', length: 16 })
  field!: string;

  @Column({ type: LONG_TEXT })
  value!: string;
}
