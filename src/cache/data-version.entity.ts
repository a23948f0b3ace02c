import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row whose counter every successful write increases. Processes sharing the database compare
 * it with the version their cached answers were built from (spec issue: the `total` problem).
 */
@Entity('data_version')
export class DataVersionEntity {
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ type: 'bigint' })
  version: string;

  /** Moved by every write but those that leave the rows an event's answer embeds alone (`DataVersionService`). */
  @Column({ type: 'bigint', name: 'embedded_version' })
  embeddedVersion: string;
}
