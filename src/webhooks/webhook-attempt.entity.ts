import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BIG_ID } from '../common/sql/column-types.js';
import { wallTimeTransformer } from '../common/sql/columns.js';

/** One attempt to send a delivery: when, the answer's status, how long it took, the start of the answer, the error. */
@Entity('webhook_attempts')
@Index('IDX_webhook_attempts_delivery', ['deliveryId', 'id'])
@Index('IDX_webhook_attempts_time', ['attemptedUtc'])
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn({ type: BIG_ID })
  id: string;

  @Column({ name: 'delivery_id', type: 'bigint' })
  deliveryId: string;

  @Column({ name: 'attempted_utc', type: 'datetime', transformer: wallTimeTransformer })
  attemptedUtc: string;

  /** HTTP status of the answer; null when none came (refused target, timeout, connection error). */
  @Column({ name: 'status_code', type: 'int', nullable: true })
  statusCode: number | null;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs: number;

  /** The first bytes of the answer's body (see `RESPONSE_KEPT_BYTES`). */
  @Column({ name: 'response_body', type: 'varchar', length: 1024, default: '' })
  responseBody: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;
}
