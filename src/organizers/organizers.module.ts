import { Module } from '@nestjs/common';
import { ChangeSnapshots } from '../changes/change-snapshots.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizerEntity } from './organizer.entity.js';
import { OrganizersController } from './organizers.controller.js';
import { OrganizersService } from './organizers.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([OrganizerEntity])],
  controllers: [OrganizersController],
  providers: [OrganizersService],
  exports: [OrganizersService],
})
export class OrganizersModule {
  /** The change log keeps organizer snapshots as a single read shows them to an administrator (webhook payloads). */
  constructor(snapshots: ChangeSnapshots, organizersService: OrganizersService) {
    snapshots.register('organizer', (manager, id, ctx) => organizersService.renderForChange(manager, id, ctx));
  }
}
