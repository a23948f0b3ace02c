import { MISSING_TRANSLATION_DOC, MissingTranslationParam } from '../../translations/translations-input.js';
import { PageQueryDto } from '../../common/paging/page-query.dto.js';
import { Param } from '../../common/validation/param.js';
import { integer, truthyWord } from '../../common/validation/parsers.js';
import { PasswordParam, SearchText, StatusFilter } from './list-items.query.js';
import { Doc } from '../../common/validation/doc.js';
import { CollectsProblems } from '../../common/validation/api-validation.pipe.js';
import { ModifiedParam, OrderByParam, OrderParam, type SortDirection } from '../../common/paging/list-order.query.js';

export const LINKED_ITEM_ORDERBY = ['date', 'modified', 'title', 'id'] as const;
export type LinkedItemOrderBy = (typeof LINKED_ITEM_ORDERBY)[number];

/** Parameters of `GET /venues` and `GET /organizers` (spec §9.5). */
@CollectsProblems()
export class ListLinkedItemsQueryDto extends PageQueryDto {
  @Doc('Only items with one field containing every word.')
  @SearchText()
  search?: string;

  @Doc(MISSING_TRANSLATION_DOC, { example: 'de' })
  @MissingTranslationParam()
  missing_translation?: string;

  @Doc('Only items linked to this event.')
  @Param(integer(), { schema: { type: 'integer' } })
  event?: number;

  @Doc('Only items linked to events (true) or to none (false).')
  @Param(truthyWord(false), { schema: {} })
  has_events?: boolean;

  @Doc('Only items linked to upcoming events.')
  @Param(truthyWord(false), { schema: { default: false } })
  only_with_upcoming?: boolean;

  @Doc('Statuses to include.')
  @StatusFilter()
  status?: string[];

  @Doc('Sort key: date (publication, the default), modified, title (the name) or id.')
  @OrderByParam(LINKED_ITEM_ORDERBY)
  orderby?: LinkedItemOrderBy;

  @Doc('Sort direction, asc or desc; descending by default for date and modified, ascending otherwise.')
  @OrderParam()
  order?: SortDirection;

  @Doc('Only records last modified after this date.')
  @ModifiedParam()
  modified_after?: string;

  @Doc('Only records last modified before this date.')
  @ModifiedParam()
  modified_before?: string;

  @Doc('Password that unlocks protected items in the page.')
  @PasswordParam()
  password?: string;
}
