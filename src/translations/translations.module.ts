import { Global, Module } from '@nestjs/common';
import { ContentTranslationsService } from './content-translations.service.js';

/** Content in every edition: the translations of records' text, read and written by the resources. Global. */
@Global()
@Module({
  providers: [ContentTranslationsService],
  exports: [ContentTranslationsService],
})
export class TranslationsModule {}
