import { Global, Logger, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { ApiConfig } from '../config/app-config.js';
import { ConfigError } from '../config/app-config.js';
import { readCatalogue, Translator, type Catalogue } from './translator.js';

/** Builds the translator for the configured editions; an edition without a catalogue stops start-up. */
export function createTranslator(editions: readonly string[]): Translator {
  const catalogues: Record<string, Catalogue> = {};
  for (const lang of editions) {
    const catalogue = readCatalogue(lang);
    if (!catalogue) throw new ConfigError('EDITIONS', `lists "${lang}", which has no translation catalogue (src/i18n/${lang}/)`);
    catalogues[lang] = catalogue;
  }
  const logger = new Logger('I18n');
  return Translator.create(editions, catalogues, (lang, key) => logger.warn(`Missing translation ${lang}:${key}`));
}

@Global()
@Module({
  providers: [
    {
      provide: Translator,
      inject: [ConfigService],
      useFactory: (config: ConfigService) => createTranslator(config.getOrThrow<ApiConfig>('api').editions),
    },
  ],
  exports: [Translator],
})
export class I18nModule {}
