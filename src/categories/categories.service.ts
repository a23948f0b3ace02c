import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { HttpConfig, ListsConfig } from '../config/app-config.js';
import { TERM_EVENTS, type TermEvents } from '../terms/term-events.js';
import { TermsService } from '../terms/terms.service.js';
import { DataVersionService } from '../cache/data-version.service.js';
import { CategoryEntity } from './category.entity.js';

@Injectable()
export class CategoriesService extends TermsService {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    config: ConfigService,
    version: DataVersionService,
    @Inject(TERM_EVENTS) events: TermEvents,
  ) {
    super(
      {
        taxonomy: 'category',
        resource: 'categories',
        wireTaxonomy: 'tribe_events_cat',
        hierarchical: true,
        entity: CategoryEntity,
        joinTable: 'event_categories',
        joinColumn: 'category_id',
        unknownKey: 'unknown_category',
        pageUrl: (publicUrl, slugs) => `${publicUrl}/events/category/${slugs.join('/')}/`,
      },
      dataSource,
      config.getOrThrow<ListsConfig>('lists'),
      config.getOrThrow<HttpConfig>('http').publicUrl,
      version,
      events,
    );
  }
}
