import { Global, Module } from '@nestjs/common';
import { LIST_LAST_CHANGE } from '../common/http/list-last-change.js';
import { ChangeLogLastChange } from './change-log-last-change.js';
import { ChangeCommits } from './change-commits.js';
import { ChangeFeedService } from './change-feed.service.js';
import { ChangeMetrics } from './change-metrics.js';
import { ChangeRetention } from './change-retention.js';
import { ChangeSequencer } from './change-sequencer.js';
import { ChangeSnapshots } from './change-snapshots.js';
import { ChangesController } from './changes.controller.js';
import { DomainEvents } from './domain-events.service.js';

/**
 * The durable change log: its sequencer, its retention, the change feed (`GET /changes`), the
 * snapshots the resources render into it, the domain events read from it, and the
 * `LIST_LAST_CHANGE` that dates lists (`Last-Modified`) by their last change, removals included.
 * Global, so that resources register their renderers and any module subscribes to domain events.
 */
@Global()
@Module({
  controllers: [ChangesController],
  providers: [
    ChangeSequencer,
    ChangeRetention,
    ChangeFeedService,
    ChangeMetrics,
    ChangeCommits,
    ChangeSnapshots,
    DomainEvents,
    { provide: LIST_LAST_CHANGE, useClass: ChangeLogLastChange },
  ],
  exports: [ChangeSequencer, ChangeRetention, ChangeCommits, ChangeSnapshots, DomainEvents, LIST_LAST_CHANGE],
})
export class ChangesModule {}
