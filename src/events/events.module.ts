import { Module } from '@nestjs/common';
import { ItemReadsFirst } from '../cache/item-reads-first.js';
import { ApiValidationPipe } from '../common/validation/api-validation.pipe.js';
import { Created, ItemWritesFirst } from '../http/item-writes-first.js';
import { CreateEventDto } from './dto/create-event.dto.js';
import { EventDeleteQueryDto, EventUpdateQueryDto } from './dto/recurrence-scope.js';
import { UpdateEventDto } from './dto/update-event.dto.js';
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
})
export class EventsModule {
  /**
   * The change log keeps event snapshots as a single read shows them to an administrator (webhook
   * payloads); single reads by id, creates, and updates and trashes by id are registered for the
   * server's own handler.
   */
  constructor(
    snapshots: ChangeSnapshots,
    eventPayloadsService: EventPayloadsService,
    readsFirst: ItemReadsFirst,
    reads: EventReadsService,
    writesFirst: ItemWritesFirst,
    events: EventsService,
  ) {
    snapshots.register('event', (manager, id, ctx) => eventPayloadsService.renderForChange(manager, id, ctx));
    // anonymous reads of single events by id are answered before the framework (cache/reads-first.ts)
    readsFirst.register('events/:id', (id, ctx) => reads.publicOne(id, ctx));
    // and creates, updates and trashes of single events by id are made there too (http/item-writes-first.ts),
    // with the checks the pipes of `EventsController.create`, `updateByPost` and `remove` make of their parameters
    const pipe = new ApiValidationPipe();
    writesFirst.register('POST', 'events', {
      async prepare(_id, input) {
        const body = (await pipe.transform(input, { type: 'body', metatype: CreateEventDto })) as CreateEventDto;
        return async (ctx) => {
          const { id, body: payload } = await events.create(body, ctx);
          return new Created(`${ctx.api}/events/${id}`, payload);
        };
      },
    });
    writesFirst.register('POST', 'events/:id', {
      async prepare(id, input) {
        const body = (await pipe.transform(input, { type: 'body', metatype: UpdateEventDto })) as UpdateEventDto;
        const query = (await pipe.transform(input, { type: 'query', metatype: EventUpdateQueryDto })) as EventUpdateQueryDto;
        return (ctx) => events.update({ id: id as number }, body, ctx, query.recurrence_scope);
      },
    });
    writesFirst.register('DELETE', 'events/:id', {
      async prepare(id, input) {
        const query = (await pipe.transform(input, { type: 'query', metatype: EventDeleteQueryDto })) as EventDeleteQueryDto;
        return (ctx) => events.remove({ id: id as number }, ctx, query.recurrence_scope);
      },
    });
  }
}
