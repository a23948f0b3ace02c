import { Param } from '../../common/validation/param.js';
import { integer } from '../../common/validation/parsers.js';
import { TermListBaseQueryDto, termPostParam, termSlugParam, type TermListTail } from '../../terms/dto/term-list.query.js';

export class ListCategoriesQueryDto extends TermListBaseQueryDto implements TermListTail {
  /** Only direct children of this category (0: top-level categories). */
  @Param(integer({ min: 0 }), { schema: { type: 'integer' } })
  parent?: number;

  /** Only categories assigned to this event. */
  @termPostParam()
  post?: number;

  /** Same as post; wins when both are sent. */
  @termPostParam()
  event?: number;

  /** Only categories with one of these slugs. */
  @termSlugParam()
  slug?: string[];
}
