import { MISSING_TRANSLATION_DOC, MissingTranslationParam } from '../../translations/translations-input.js';
import { PageQueryDto } from '../../common/paging/page-query.dto.js';
import { Param } from '../../common/validation/param.js';
import { boolean, idOrSlugList, integer, nonEmptyStringList, oneOf, text } from '../../common/validation/parsers.js';
import { Doc } from '../../common/validation/doc.js';
import { CollectsProblems } from '../../common/validation/api-validation.pipe.js';
import { ModifiedParam } from '../../common/paging/list-order.query.js';

export const TERM_ORDERBY = ['id', 'name', 'slug', 'count', 'term_group', 'description', 'include', 'include_slugs'] as const;
export type TermOrderBy = (typeof TERM_ORDERBY)[number];

/** Parameters of `GET /categories` and `GET /tags` up to `hide_empty` (spec §9.6). */
@CollectsProblems()
export class TermListBaseQueryDto extends PageQueryDto {
  @Doc('Only terms whose name or slug contains this text.')
  @Param(text({ max: 500, nonEmpty: true }), { schema: { type: 'string' } })
  search?: string;

  @Doc(MISSING_TRANSLATION_DOC, { example: 'de' })
  @MissingTranslationParam()
  missing_translation?: string;

  @Doc('Leave out these term IDs or slugs.')
  @Param(idOrSlugList, { schema: { type: 'array', items: { type: 'integer' } } })
  exclude?: string[];

  @Doc('Only these term IDs or slugs.')
  @Param(idOrSlugList, { schema: { type: 'array', items: { type: 'integer' } } })
  include?: string[];

  @Doc('Sort direction; ascending when absent.')
  @Param(oneOf(['asc', 'desc'] as const), { schema: { type: 'string', enum: ['asc', 'desc'] } })
  order?: 'asc' | 'desc';

  @Doc('Sort key; the name when absent.')
  @Param(oneOf(TERM_ORDERBY), { schema: { type: 'string', enum: [...TERM_ORDERBY] } })
  orderby?: TermOrderBy;

  @Doc('Leave out terms used by no published event.')
  @Param(boolean, { schema: { type: 'boolean', default: true } })
  hide_empty?: boolean;

  @Doc('Only records last modified after this date.')
  @ModifiedParam()
  modified_after?: string;

  @Doc('Only records last modified before this date.')
  @ModifiedParam()
  modified_before?: string;
}

/** The last parameters, declared by each taxonomy so that `parent` keeps its place for categories. */
export interface TermListTail {
  post?: number;
  event?: number;
  slug?: string[];
}

export const termPostParam = () => Param(integer(), { schema: { type: 'integer' } });
export const termSlugParam = () => Param(nonEmptyStringList, { schema: { type: 'array', items: { type: 'string' } } });
