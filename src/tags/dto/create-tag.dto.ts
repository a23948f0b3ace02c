import { TRANSLATIONS_DOC, TranslationsField } from '../../translations/translations-input.js';
import type { TranslationChanges } from '../../translations/content-translations.service.js';
import { ApiHideProperty } from '@nestjs/swagger';
import { Param } from '../../common/validation/param.js';
import { anyValue } from '../../common/validation/parsers.js';
import { termDescriptionParam, termNameParam, termSlugWriteParam, type TermWriteFields } from '../../terms/dto/term-write.dto.js';
import { Doc } from '../../common/validation/doc.js';
import { CollectsProblems } from '../../common/validation/api-validation.pipe.js';

@CollectsProblems()
export class CreateTagDto implements TermWriteFields {
  @Doc('Tag name.', { example: 'Lanterns' })
  @termNameParam(true)
  name: string;

  @Doc('Tag description.', { example: 'Events lit by lanterns.' })
  @termDescriptionParam()
  description?: string;

  @Doc('Tag slug; generated from the name when absent.', { example: 'lanterns' })
  @termSlugWriteParam()
  slug?: string;

  // Tags are not hierarchical: a parent is refused. Hidden here, where the Swagger plugin sees it (spec §13.1: no `parent`).
  @ApiHideProperty()
  @Param(anyValue, { hidden: true })
  parent?: unknown;

  @Doc(TRANSLATIONS_DOC, { example: { de: { name: 'Laternen' } } })
  @TranslationsField('tag')
  translations?: TranslationChanges;
}
