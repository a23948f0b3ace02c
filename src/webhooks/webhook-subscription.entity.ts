import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { booleanTransformer, jsonTextTransformer, wallTimeTransformer } from '../common/sql/columns.js';

/**
 * A receiver of webhooks: where to send, which event types, in which edition's URLs, and the secret
 * the deliveries are signed with (kept as it is: signing needs it; shown only on create and rotation).
 */
@Entity('webhook_subscriptions')
export class WebhookSubscriptionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** Event types and patterns (`event.created`, `event.*`, `*`), as a JSON array. */
  @Column({ type: 'text', transformer: jsonTextTransformer })
  events: string[];

  @Column({ type: 'varchar', length: 1000, default: '' })
  description: string;

  @Column({ type: 'boolean', transformer: booleanTransformer })
  active: boolean;

  /** Language edition whose base URLs the payloads use. */
  @Column({ type: 'varchar', length: 10 })
  edition: string;

  /** `whsec_` and the base64 of 32 random bytes. */
  @Column({ type: 'varchar', length: 100 })
  secret: string;

  /** Why the service deactivated the subscription (null when an administrator did, or it is active). */
  @Column({ name: 'deactivated_reason', type: 'varchar', length: 500, nullable: true })
  deactivatedReason: string | null;

  @Column({ name: 'deactivated_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  deactivatedUtc: string | null;

  @Column({ name: 'created_utc', type: 'datetime', transformer: wallTimeTransformer })
  createdUtc: string;

  @Column({ name: 'modified_utc', type: 'datetime', transformer: wallTimeTransformer })
  modifiedUtc: string;
}
