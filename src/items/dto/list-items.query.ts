import { Invalid, Param } from '../../common/validation/param.js';
import { stringList, text } from '../../common/validation/parsers.js';
import type { ParamParser } from '../../common/validation/param.js';
import { LIST_STATUS_WORDS } from '../status-rules.js';

/** `status` of the item lists: one or more statuses or `any` (spec §5.5). */
export const statusList: ParamParser<string[]> = (raw, param) => {
  const items = stringList(raw, param);
  if (items instanceof Invalid) return items;
  const words = items.map((item) => item.toLowerCase());
  if (words.length === 0 || words.some((word) => !(LIST_STATUS_WORDS as readonly string[]).includes(word)))
    return new Invalid({ key: 'status' });
  return words;
};

export const StatusFilter = () => Param(statusList, { schema: { type: 'string' } });
export const SearchText = () => Param(text({ max: 500, nonEmpty: true }), { schema: { type: 'string' } });
/** Password that unlocks protected items in the answer (never echoed in links). */
export const PasswordParam = () => Param(text({ max: 255 }), { schema: { type: 'string' } });
