import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BIG_ID, LONG_TEXT } from '../common/sql/column-types.js';
import { wallTimeTransformer } from '../common/sql/columns.js';

/** `pending` (waiting for its next attempt), `sending` (claimed by a process), `delivered`, `failed`. */
export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

/**
 * One message for one subscription: a change fanned out by the dispatcher, or a ping. The body is
 * fixed when the delivery is made, so every attempt sends the same bytes under the same `webhook-id`.
 */
@Entity('webhook_deliveries')
@Index('IDX_webhook_deliveries_due', ['status', 'nextAttemptUtc'])
@Index('IDX_webhook_deliveries_subscription', ['subscriptionId', 'id'])
@Index('IDX_webhook_deliveries_record', ['subscriptionId', 'recordKey', 'id'])
@Index('IDX_webhook_deliveries_finished', ['finishedUtc'])
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn({ type: BIG_ID })
  id: string;

  @Column({ name: 'subscription_id', type: 'int' })
  subscriptionId: number;

  /** The `webhook-id` header: the same on every attempt. */
  @Column({ name: 'message_id', type: 'varchar', length: 64 })
  messageId: string;

  /** `event.created`, …, or `webhook.ping`. */
  @Column({ type: 'varchar', length: 40 })
  type: string;

  /** Sequence number of the change (null for a ping). */
  @Column({ name: 'change_seq', type: 'bigint', nullable: true })
  changeSeq: string | null;

  /** `<kind>:<id>`: deliveries of one record to one subscription are sent one at a time, in order. */
  @Column({ name: 'record_key', type: 'varchar', length: 40, nullable: true })
  recordKey: string | null;

  @Column({ type: LONG_TEXT })
  body: string;

  @Column({ type: 'varchar', length: 10 })
  status: DeliveryStatus;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_utc', type: 'datetime', transformer: wallTimeTransformer })
  nextAttemptUtc: string;

  /** While `sending`: until when the claiming process owns it; after that another process may take it over. */
  @Column({ name: 'claimed_until_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  claimedUntilUtc: string | null;

  @Column({ name: 'created_utc', type: 'datetime', transformer: wallTimeTransformer })
  createdUtc: string;

  /** When it was delivered or given up (retention counts from it). */
  @Column({ name: 'finished_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  finishedUtc: string | null;

  @Column({ name: 'last_status', type: 'int', nullable: true })
  lastStatus: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;
}
