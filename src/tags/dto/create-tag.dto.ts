import { Param } from '../../common/validation/param.js';
import { anyValue } from '../../common/validation/parsers.js';
import { termDescriptionParam, termNameParam, termSlugWriteParam, type TermWriteFields } from '../../terms/dto/term-write.dto.js';

export class CreateTagDto implements TermWriteFields {
  /** Tag name. */
  @termNameParam(true)
  name: string;

  /** Tag description. */
  @termDescriptionParam()
  description?: string;

  /** Tag slug; generated from the name when absent. */
  @termSlugWriteParam()
  slug?: string;

  /** Tags are not hierarchical: a parent is refused. */
  @Param(anyValue, { hidden: true })
  parent?: unknown;
}
