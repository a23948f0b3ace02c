import { Param } from '../../common/validation/param.js';
import { integer } from '../../common/validation/parsers.js';
import { TermListBaseQueryDto, termPostParam, termSlugParam, type TermListTail } from '../../terms/dto/term-list.query.js';
import { Doc } from '../../common/validation/doc.js';

export class ListCategoriesQueryDto extends TermListBaseQueryDto implements TermListTail {
  @Doc('Only direct children of this category (0: top-level categories).')
  @Param(integer({ min: 0 }), { schema: { type: 'integer' } })
  parent?: number;

  @Doc('Only categories assigned to this event.')
  @termPostParam()
  post?: number;

  @Doc('Same as post; wins when both are sent.')
  @termPostParam()
  event?: number;

  @Doc('Only categories with one of these slugs.')
  @termSlugParam()
  slug?: string[];
}
