import { Param } from '../validation/param.js';
import { positiveInteger } from '../validation/parsers.js';
import { Doc } from '../validation/doc.js';

/** `page` and `per_page`, shared by every list (spec §9.2). Defaults are applied by {@link resolvePaging}. */
export class PageQueryDto {
  @Doc('Page of results to return.')
  @Param(positiveInteger, { schema: { type: 'integer', default: 1 } })
  page?: number;

  @Doc('Number of items per page.')
  @Param(positiveInteger, { schema: { type: 'integer', default: 6 } })
  per_page?: number;
}
