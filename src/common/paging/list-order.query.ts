import { Param } from '../validation/param.js';
import { dateText, oneOf } from '../validation/parsers.js';

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** `orderby` of an item list: one of `keys`, case-insensitive. */
export const OrderByParam = (keys: readonly string[]) => Param(oneOf(keys), { schema: { type: 'string', enum: [...keys] } });
/** `order` of an item list: `asc` or `desc`, case-insensitive; its default depends on `orderby`. */
export const OrderParam = () => Param(oneOf(SORT_DIRECTIONS), { schema: { type: 'string', enum: [...SORT_DIRECTIONS] } });
/** `modified_after` / `modified_before`: any date form of spec §6.2. */
export const ModifiedParam = () => Param(dateText, { schema: { type: 'string' } });
