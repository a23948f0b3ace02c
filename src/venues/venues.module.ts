import { Module } from '@nestjs/common';
import { ChangeSnapshots } from '../changes/change-snapshots.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { VenueEntity } from './venue.entity.js';
import { VenuesController } from './venues.controller.js';
import { VenuesService } from './venues.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([VenueEntity])],
  controllers: [VenuesController],
  providers: [VenuesService],
  exports: [VenuesService],
})
export class VenuesModule {
  /** The change log keeps venue snapshots as a single read shows them to an administrator (webhook payloads). */
  constructor(snapshots: ChangeSnapshots, venuesService: VenuesService) {
    snapshots.register('venue', (manager, id, ctx) => venuesService.renderForChange(manager, id, ctx));
  }
}
