import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ImageEntity } from '../images/image.entity.js';
import { ImagesService } from '../images/images.service.js';
import { ItemDeletionService } from './item-deletion.service.js';
import { ItemIdEntity } from './item-id.entity.js';
import { ItemsService } from './items.service.js';
import { ItemWritesService } from './item-writes.service.js';
import { ScheduledPublication } from './scheduled-publication.js';
import { LinkedItemDeps } from './linked-item-deps.js';

/** Shared rules of items (ids, slugs, schedules) and the image registry. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ItemIdEntity, ImageEntity])],
  providers: [ItemsService, ItemWritesService, ItemDeletionService, LinkedItemDeps, ImagesService, ScheduledPublication],
  exports: [ItemsService, ItemWritesService, ItemDeletionService, LinkedItemDeps, ImagesService],
})
export class ItemsModule {}
