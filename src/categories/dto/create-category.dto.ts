import { Param } from '../../common/validation/param.js';
import { integer } from '../../common/validation/parsers.js';
import { termDescriptionParam, termNameParam, termSlugWriteParam, type TermWriteFields } from '../../terms/dto/term-write.dto.js';

export class CreateCategoryDto implements TermWriteFields {
  /** Category name. */
  @termNameParam(true)
  name: string;

  /** Category description. */
  @termDescriptionParam()
  description?: string;

  /** Category slug; generated from the name when absent. */
  @termSlugWriteParam()
  slug?: string;

  /** ID of the parent category (0 for a top-level category). */
  @Param(integer({ min: 0 }), { schema: { type: 'integer' } })
  parent?: number;
}
