import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { wallTimeTransformer } from '../common/sql/columns.js';

/** Kinds of record an import maps: the five resources and the images they reference. */
export type ImportKind = 'category' | 'tag' | 'venue' | 'organizer' | 'event' | 'image';

/**
 * Which local record a source record became, and what the importer knew of both when it last wrote
 * it: the source's `modified` and a hash of what was written (to see changes at the source), the
 * local `modified_utc` it wrote (to see edits made here since), and the run that last saw it.
 */
@Entity('import_mappings')
@Index('IDX_import_mappings_local', ['sourceId', 'kind', 'localId'])
export class ImportMappingEntity {
  @PrimaryColumn({ name: 'source_id', type: 'int' })
  sourceId: number;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  kind: ImportKind;

  @PrimaryColumn({ name: 'source_record_id', type: 'int' })
  sourceRecordId: number;

  @Column({ name: 'local_id', type: 'int' })
  localId: number;

  @Column({ name: 'source_slug', type: 'varchar', length: 255, default: '' })
  sourceSlug: string;

  /** The source's `modified_utc`; null for terms, which have none. */
  @Column({ name: 'source_modified_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  sourceModifiedUtc: string | null;

  /** SHA-256 of the values written, links as source ids included. */
  @Column({ name: 'content_hash', type: 'varchar', length: 64, default: '' })
  contentHash: string;

  /** The local `modified_utc` right after the import wrote the record: any other value is an edit made here. */
  @Column({ name: 'local_modified_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  localModifiedUtc: string | null;

  /** The status the source showed last (for the trash of vanished records: only statuses the run could see). */
  @Column({ name: 'source_status', type: 'varchar', length: 10, default: '' })
  sourceStatus: string;

  @Column({ name: 'last_seen_run', type: 'int', default: 0 })
  lastSeenRun: number;

  @Column({ name: 'imported_utc', type: 'datetime', transformer: wallTimeTransformer })
  importedUtc: string;
}
