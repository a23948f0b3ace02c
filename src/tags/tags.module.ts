import { TermDeps } from '../terms/term-deps.js';
import { Module } from '@nestjs/common';
import { ChangeSnapshots } from '../changes/change-snapshots.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TagsController } from './tags.controller.js';
import { TagsService } from './tags.service.js';
import { TagEntity } from './tag.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([TagEntity])],
  controllers: [TagsController],
  providers: [TagsService, TermDeps],
  exports: [TagsService],
})
export class TagsModule {
  /** The change log keeps tag snapshots as a single read shows them to an administrator (webhook payloads). */
  constructor(snapshots: ChangeSnapshots, tagsService: TagsService) {
    snapshots.register('tag', (manager, id, ctx) => tagsService.renderForChange(manager, id, ctx));
  }
}
