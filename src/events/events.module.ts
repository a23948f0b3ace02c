import { Module } from '@nestjs/common';
import { ChangeSnapshots } from '../changes/change-snapshots.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesModule } from '../categories/categories.module.js';
import { OrganizersModule } from '../organizers/organizers.module.js';
import { TagsModule } from '../tags/tags.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { EventSeriesEntity } from './series/event-series.entity.js';
import { SeriesGenerationService } from './series/series-generation.service.js';
import { SeriesReadsService } from './series/series-reads.service.js';
import { SeriesScopesService } from './series/series-scopes.service.js';
import { SeriesWritesService } from './series/series-writes.service.js';
import { SeriesUpdatesService } from './series/series-updates.service.js';
import { SeriesHorizonJob } from './series/series-horizon.job.js';
import { SeriesController } from './series/series.controller.js';
import { EventOrganizerEntity } from './event-organizer.entity.js';
import { EventEntity } from './event.entity.js';
import { EventCalendarController } from './event-calendar.controller.js';
import { EventCalendarService } from './event-calendar.service.js';
import { EventsController } from './events.controller.js';
import { EventBookkeepingModule } from './event-bookkeeping.module.js';
import { EventListService } from './event-list.service.js';
import { EventPayloadsService } from './event-payloads.service.js';
import { EventReadsService } from './event-reads.service.js';
import { EventWriteRulesService } from './event-write-rules.service.js';
import { EventLinksService } from './event-links.service.js';
import { EventsService } from './events.service.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([EventEntity, EventOrganizerEntity, EventSeriesEntity]),
    EventBookkeepingModule,
    VenuesModule,
    OrganizersModule,
    CategoriesModule,
    TagsModule,
  ],
  // the calendar first: the router must try `events/:id.ics` before `events/:id`
  controllers: [EventCalendarController, EventsController, SeriesController],
  providers: [
    EventCalendarService,
    EventsService,
    EventLinksService,
    SeriesGenerationService,
    SeriesReadsService,
    SeriesUpdatesService,
    SeriesScopesService,
    SeriesWritesService,
    SeriesHorizonJob,
    EventListService,
    EventReadsService,
    EventPayloadsService,
    EventWriteRulesService,
  ],
  exports: [EventsService, EventPayloadsService, EventReadsService],
})
export class EventsModule {
  /** The change log keeps event snapshots as a single read shows them to an administrator (webhook payloads). */
  constructor(snapshots: ChangeSnapshots, eventPayloadsService: EventPayloadsService) {
    snapshots.register('event', (manager, id, ctx) => eventPayloadsService.renderForChange(manager, id, ctx));
  }
}
