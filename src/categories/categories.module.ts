import { TermDeps } from '../terms/term-deps.js';
import { Module } from '@nestjs/common';
import { ChangeSnapshots } from '../changes/change-snapshots.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesController } from './categories.controller.js';
import { CategoriesService } from './categories.service.js';
import { CategoryEntity } from './category.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([CategoryEntity])],
  controllers: [CategoriesController],
  providers: [CategoriesService, TermDeps],
  exports: [CategoriesService],
})
export class CategoriesModule {
  /** The change log keeps category snapshots as a single read shows them to an administrator (webhook payloads). */
  constructor(snapshots: ChangeSnapshots, categoriesService: CategoriesService) {
    snapshots.register('category', (manager, id, ctx) => categoriesService.renderForChange(manager, id, ctx));
  }
}
