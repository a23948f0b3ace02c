/** What the dispatcher's parts and the webhook routes share about the webhook tables: settings, stored times, transactions, a new delivery, deactivation. */
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { OutboundConfig, WebhooksConfig } from '../config/app-config.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { dateToWall } from '../common/sql/columns.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { newMessageId } from './webhook-signature.js';
import { WebhookSubscriptionEntity } from './webhook-subscription.entity.js';

export const wallOf = (value: Date | string) => (value instanceof Date ? dateToWall(value) : String(value).slice(0, 19));
export const isoOf = (wall: string) => `${wall.replace(' ', 'T')}Z`;

/**
 * A moment `ms` from now, to store in a datetime column: with its milliseconds on SQLite; rounded
 * up to the next second on MySQL/MariaDB, whose DATETIME keeps none (never earlier than asked).
 */
export function inFuture(ms: number, mysql: boolean): string {
  const at = Date.now() + ms;
  // a Date passes the column's transformer as it is (see wallTimeTransformer)
  return new Date(mysql ? Math.ceil(at / 1000) * 1000 : at) as unknown as string;
}

/** The dispatcher's parts' common ground: the settings, the database and how it compares times and runs transactions. */
@Injectable()
export class WebhookStore {
  readonly settings: WebhooksConfig;
  /** Which non-public addresses a receiver may have (`OUTBOUND_ALLOW_PRIVATE`). */
  readonly outbound: OutboundConfig;
  readonly mysql: boolean;

  constructor(
    @InjectDataSource() readonly dataSource: DataSource,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.settings = config.getOrThrow<WebhooksConfig>('webhooks');
    this.outbound = config.getOrThrow<OutboundConfig>('outbound');
    this.mysql = dataSource.driver.options.type !== 'better-sqlite3';
  }

  /**
   * A time as raw SQL compares it with stored ones: TypeORM writes datetimes with milliseconds on
   * SQLite (`2026-11-23 09:30:00.000`), and text comparison needs the same form.
   */
  sqlTime(date: Date = new Date()): string {
    const wall = dateToWall(date);
    return this.mysql ? wall : `${wall}.${String(date.getUTCMilliseconds()).padStart(3, '0')}`;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.mysql ? this.dataSource.transaction('READ COMMITTED', work) : this.dataSource.transaction(work);
  }
}

/** A delivery waiting for its first attempt, due `now`. */
export function pendingDelivery(
  fields: Pick<WebhookDeliveryEntity, 'subscriptionId' | 'type' | 'changeSeq' | 'recordKey' | 'body'>,
  now: string,
): Partial<WebhookDeliveryEntity> {
  return {
    subscriptionId: fields.subscriptionId,
    messageId: newMessageId(),
    type: fields.type,
    changeSeq: fields.changeSeq,
    recordKey: fields.recordKey,
    body: fields.body,
    status: 'pending',
    attempts: 0,
    nextAttemptUtc: now,
    claimedUntilUtc: null,
    createdUtc: now,
    finishedUtc: null,
    lastStatus: null,
    lastError: null,
  };
}

/** Deactivates a subscription with a reason; its unfinished deliveries fail (they are not sent later). */
export async function deactivate(manager: EntityManager, subscriptionId: number, reason: string | null): Promise<void> {
  const now = nowUtcWall();
  await manager.update(
    WebhookSubscriptionEntity,
    { id: subscriptionId },
    { active: false, deactivatedReason: reason, deactivatedUtc: now, modifiedUtc: now },
  );
  await manager
    .createQueryBuilder()
    .update(WebhookDeliveryEntity)
    .set({ status: 'failed', finishedUtc: now, claimedUntilUtc: null, lastError: 'The subscription was deactivated.' })
    .where("subscription_id = :id AND status = 'pending'", { id: subscriptionId })
    .execute();
}
