import { TRANSLATIONS_DOC, TranslationsField } from '../../translations/translations-input.js';
import type { TranslationChanges } from '../../translations/content-translations.service.js';
import { Param } from '../../common/validation/param.js';
import { integer } from '../../common/validation/parsers.js';
import { termDescriptionParam, termNameParam, termSlugWriteParam, type TermWriteFields } from '../../terms/dto/term-write.dto.js';
import { Doc } from '../../common/validation/doc.js';
import { CollectsProblems } from '../../common/validation/api-validation.pipe.js';

@CollectsProblems()
export class CreateCategoryDto implements TermWriteFields {
  @Doc('Category name.', { example: 'Outdoor' })
  @termNameParam(true)
  name: string;

  @Doc('Category description.', { example: 'Events that take place outside.' })
  @termDescriptionParam()
  description?: string;

  @Doc('Category slug; generated from the name when absent.', { example: 'outdoor' })
  @termSlugWriteParam()
  slug?: string;

  @Doc('ID of the parent category (0 for a top-level category).', { example: 0 })
  @Param(integer({ min: 0 }), { schema: { type: 'integer' } })
  parent?: number;

  @Doc(TRANSLATIONS_DOC, { example: { de: { name: 'Draußen' } } })
  @TranslationsField('category')
  translations?: TranslationChanges;
}
