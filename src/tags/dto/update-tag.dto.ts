import { Param } from '../../common/validation/param.js';
import { anyValue } from '../../common/validation/parsers.js';
import { termDescriptionParam, termNameParam, termSlugWriteParam, type TermWriteFields } from '../../terms/dto/term-write.dto.js';

export class UpdateTagDto implements TermWriteFields {
  /** Tag name. */
  @termNameParam(false)
  name?: string;

  /** Tag description. */
  @termDescriptionParam()
  description?: string;

  /** Tag slug. */
  @termSlugWriteParam()
  slug?: string;

  /** Tags are not hierarchical: a parent is refused. */
  @Param(anyValue, { hidden: true })
  parent?: unknown;
}
