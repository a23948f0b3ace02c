import { Param } from '../../common/validation/param.js';
import { anyValue } from '../../common/validation/parsers.js';
import { termDescriptionParam, termNameParam, termSlugWriteParam, type TermWriteFields } from '../../terms/dto/term-write.dto.js';
import { Doc } from '../../common/validation/doc.js';
import { CollectsProblems } from '../../common/validation/api-validation.pipe.js';

@CollectsProblems()
export class UpdateTagDto implements TermWriteFields {
  @Doc('Tag name.')
  @termNameParam(false)
  name?: string;

  @Doc('Tag description.')
  @termDescriptionParam()
  description?: string;

  @Doc('Tag slug.')
  @termSlugWriteParam()
  slug?: string;

  @Doc('Tags are not hierarchical: a parent is refused.')
  @Param(anyValue, { hidden: true })
  parent?: unknown;
}
