import { TermDeps } from '../terms/term-deps.js';
import { Module } from '@nestjs/common';
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
export class TagsModule {}
