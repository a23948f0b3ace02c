import { Param } from '../../common/validation/param.js';
import { integer } from '../../common/validation/parsers.js';
import { termDescriptionParam, termNameParam, termSlugWriteParam, type TermWriteFields } from '../../terms/dto/term-write.dto.js';

export class UpdateCategoryDto implements TermWriteFields {
  /** Category name. */
  @termNameParam(false)
  name?: string;

  /** Category description. */
  @termDescriptionParam()
  description?: string;

  /** Category slug. */
  @termSlugWriteParam()
  slug?: string;

  /** ID of the parent category (0 for a top-level category). */
  @Param(integer({ min: 0 }), { schema: { type: 'integer' } })
  parent?: number;
}
