import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { HttpConfig, ListsConfig, SiteConfig } from '../config/app-config.js';
import { DataVersionService } from '../cache/data-version.service.js';
import { ContentTranslationsService } from '../translations/content-translations.service.js';
import { TERM_EVENTS, type TermEvents } from './term-events.js';

/** What every taxonomy service is built from; one injectable so each taxonomy only adds its definition. */
@Injectable()
export class TermDeps {
  readonly lists: ListsConfig;
  readonly publicUrl: string;
  readonly siteTimezone: string;

  constructor(
    @InjectDataSource() readonly dataSource: DataSource,
    readonly version: DataVersionService,
    @Inject(TERM_EVENTS) readonly events: TermEvents,
    readonly translations: ContentTranslationsService,
    config: ConfigService,
  ) {
    this.lists = config.getOrThrow<ListsConfig>('lists');
    this.publicUrl = config.getOrThrow<HttpConfig>('http').publicUrl;
    this.siteTimezone = config.getOrThrow<SiteConfig>('site').timezone;
  }
}
