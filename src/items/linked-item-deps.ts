import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ListsConfig } from '../config/app-config.js';
import { ImagesService } from '../images/images.service.js';
import { ContentTranslationsService } from '../translations/content-translations.service.js';
import { ITEM_EVENTS, type ItemEvents } from './item-events.js';
import { ItemWritesService } from './item-writes.service.js';
import { ItemsService } from './items.service.js';

/** What every venue-like service is built from; one injectable so each kind only adds its definition. */
@Injectable()
export class LinkedItemDeps {
  readonly lists: ListsConfig;

  constructor(
    @InjectDataSource() readonly dataSource: DataSource,
    readonly items: ItemsService,
    readonly writes: ItemWritesService,
    readonly images: ImagesService,
    @Inject(ITEM_EVENTS) readonly events: ItemEvents,
    readonly translations: ContentTranslationsService,
    config: ConfigService,
  ) {
    this.lists = config.getOrThrow<ListsConfig>('lists');
  }
}
