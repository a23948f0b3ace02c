import { Module } from '@nestjs/common';
import { CategoriesModule } from '../categories/categories.module.js';
import { EventsModule } from '../events/events.module.js';
import { OrganizersModule } from '../organizers/organizers.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { TecAcknowledgement } from './tec-acknowledgement.js';
import { TecDocsService } from './tec-docs.service.js';
import { TecEventListService } from './tec-event-list.service.js';
import { TecEventReadsService } from './tec-event-reads.service.js';
import { TecLinkedReadsService } from './tec-linked-reads.service.js';
import { TecNamespaceController } from './tec-namespace.controller.js';
import { TecReadsController } from './tec-reads.controller.js';
import { TecTicketsController } from './tec-tickets.controller.js';
import { TecWritesController } from './tec-writes.controller.js';
import { TecWritesService } from './tec-writes.service.js';

/**
 * The reference's second REST API, `tec/v1` (docs/API.md, "tec/v1"): its routes over the services
 * and rules of the resources, in WordPress core's shapes.
 */
@Module({
  imports: [EventsModule, VenuesModule, OrganizersModule, CategoriesModule],
  controllers: [TecNamespaceController, TecReadsController, TecWritesController, TecTicketsController],
  providers: [TecAcknowledgement, TecDocsService, TecEventListService, TecEventReadsService, TecLinkedReadsService, TecWritesService],
})
export class TecModule {}
