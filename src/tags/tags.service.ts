import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { HttpConfig, ListsConfig } from '../config/app-config.js';
import { TERM_EVENTS, type TermEvents } from '../terms/term-events.js';
import { TermsService } from '../terms/terms.service.js';
import { DataVersionService } from '../cache/data-version.service.js';
import { TagEntity } from './tag.entity.js';

@Injectable()
export class TagsService extends TermsService {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    config: ConfigService,
    version: DataVersionService,
    @Inject(TERM_EVENTS) events: TermEvents,
  ) {
    super(
      {
        taxonomy: 'tag',
        resource: 'tags',
        wireTaxonomy: 'post_tag',
        hierarchical: false,
        entity: TagEntity,
        joinTable: 'event_tags',
        joinColumn: 'tag_id',
        unknownKey: 'unknown_tag',
        pageUrl: (publicUrl, slugs) => `${publicUrl}/tag/${slugs.at(-1)}/`,
      },
      dataSource,
      config.getOrThrow<ListsConfig>('lists'),
      config.getOrThrow<HttpConfig>('http').publicUrl,
      version,
      events,
    );
  }
}
