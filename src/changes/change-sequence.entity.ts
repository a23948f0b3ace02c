import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row (`id = 1`): the last sequence number given to a committed change, the newest one removed
 * by retention (cursors at or before it have expired), and the newest one the webhook dispatcher has
 * fanned out to deliveries (retention never removes a change after it). Locking it serializes the
 * sequencers, and the dispatchers, of all processes.
 */
@Entity('change_sequence')
export class ChangeSequenceEntity {
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ name: 'last_seq', type: 'bigint' })
  lastSeq: string;

  @Column({ name: 'pruned_through', type: 'bigint' })
  prunedThrough: string;

  @Column({ name: 'dispatched_through', type: 'bigint', default: 0 })
  dispatchedThrough: string;
}
