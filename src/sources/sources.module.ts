import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module.js';
import { SourceEventWrites } from './source-event-writes.js';
import { SourceMetrics } from './source-metrics.js';
import { SourceActivityService } from './source-activity.service.js';
import { SourceRunHistory } from './source-run-history.js';
import { SourceRunner } from './source-runner.js';
import { SourceScheduler } from './source-scheduler.js';
import { SourceSync } from './source-sync.js';
import { SourcesController } from './sources.controller.js';
import { SourcesService } from './sources.service.js';

/**
 * Calendar sources: iCalendar feeds administrators subscribe to, whose events are imported and
 * kept in sync through the API's own event writes, run on a schedule by every process (one run of
 * a source at a time) and on demand.
 */
@Module({
  imports: [EventsModule],
  controllers: [SourcesController],
  providers: [
    SourcesService,
    SourceActivityService,
    SourceRunner,
    SourceRunHistory,
    SourceMetrics,
    SourceScheduler,
    SourceSync,
    SourceEventWrites,
  ],
  exports: [SourcesService, SourceRunner],
})
export class SourcesModule {}
