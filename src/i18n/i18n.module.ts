import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { ApiConfig } from '../config/app-config.js';
import { ConfigError } from '../config/app-config.js';
import { readCatalogue, Translator, type Catalogue } from './translator.js';

/**
 * Builds the translator for the configured editions; an edition without a catalogue stops start-up.
 * `extensionDirs` hold the catalogues of extension modules (see `extension-catalogues.ts`): their
 * keys are added to the core's, and a key the core already has stops start-up.
 */
export function createTranslator(editions: readonly string[], extensionDirs: readonly string[] = []): Translator {
  const catalogues: Record<string, Catalogue> = {};
  for (const lang of editions) {
    const catalogue = readCatalogue(lang);
    if (!catalogue) throw new ConfigError('EDITIONS', `lists "${lang}", which has no translation catalogue (src/i18n/${lang}/)`);
    for (const dir of extensionDirs) addCatalogue(catalogue, readCatalogue(lang, dir) ?? {}, `${dir}/${lang}`);
    catalogues[lang] = catalogue;
  }
  const logger = new Logger('I18n');
  return Translator.create(editions, catalogues, (lang, key) => logger.warn(`Missing translation ${lang}:${key}`));
}

function addCatalogue(into: Catalogue, added: Catalogue, where: string): void {
  for (const [namespace, texts] of Object.entries(added)) {
    const existing = (into[namespace] ??= {});
    for (const [key, text] of Object.entries(texts)) {
      if (key in existing) throw new Error(`${where}/${namespace}.json: "${key}" is already defined`);
      existing[key] = text;
    }
  }
}

/** The translator of every edition, for the whole application; `forRoot` adds the extensions' catalogues. */
@Module({})
export class I18nModule {
  static forRoot(extensionDirs: readonly string[] = []): DynamicModule {
    return {
      module: I18nModule,
      global: true,
      providers: [
        {
          provide: Translator,
          inject: [ConfigService],
          useFactory: (config: ConfigService) => createTranslator(config.getOrThrow<ApiConfig>('api').editions, extensionDirs),
        },
      ],
      exports: [Translator],
    };
  }
}
