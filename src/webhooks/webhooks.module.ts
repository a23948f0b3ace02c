import { Module } from '@nestjs/common';
import { ChangeSnapshots } from '../changes/change-snapshots.js';
import { WebhookDeliveryWorker } from './webhook-delivery-worker.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookFanOut } from './webhook-fan-out.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { WebhookPruning } from './webhook-pruning.js';
import { WebhookStore } from './webhook-store.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Webhooks: administrators subscribe URLs to domain event types; the dispatcher of every process
 * delivers each committed change, signed (Standard Webhooks), at least once, in order per record.
 * Snapshots of changed records are taken while any subscription is active.
 */
@Module({
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookDispatcher, WebhookFanOut, WebhookDeliveryWorker, WebhookPruning, WebhookStore, WebhookMetrics],
  exports: [WebhooksService, WebhookDispatcher],
})
export class WebhooksModule {
  constructor(snapshots: ChangeSnapshots) {
    snapshots.wantedWhen('EXISTS (SELECT 1 FROM webhook_subscriptions WHERE active = 1)');
    // a subscription of another edition gets the record as that edition's path answers it
    snapshots.alsoInEditionsOf('SELECT DISTINCT edition FROM webhook_subscriptions WHERE active = 1');
  }
}
