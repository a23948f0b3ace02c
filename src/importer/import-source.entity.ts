import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { wallTimeTransformer } from '../common/sql/columns.js';

/** A site imported from: its events namespace URL, as the importer resolved it. */
@Entity('import_sources')
@Index('UQ_import_sources_url', ['url'], { unique: true })
export class ImportSourceEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** The source's events namespace, e.g. `https://example.org/wp-json/tribe/events/v1`. */
  @Column({ type: 'varchar', length: 500 })
  url: string;

  @Column({ name: 'created_utc', type: 'datetime', transformer: wallTimeTransformer })
  createdUtc: string;

  /** End of the last run that read everything (not a dry run); null before the first. */
  @Column({ name: 'last_completed_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  lastCompletedUtc: string | null;
}
