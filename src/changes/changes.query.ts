import { Doc } from '../common/validation/doc.js';
import { Invalid, Param, type ParamParser } from '../common/validation/param.js';
import { lastValue, positiveInteger, typeErrorFor } from '../common/validation/parsers.js';
import { decodeCursor } from './sync-cursor.js';

/** Changes per page when `per_page` is not sent, and the most one page holds. */
export const CHANGES_PER_PAGE = { default: 100, max: 500 } as const;

/** `now`, or a cursor this feed wrote. */
export type SinceValue = { now: true } | { now: false; seq: bigint };

const since: ParamParser<SinceValue> = (raw, param) => {
  const value = lastValue(raw);
  if (typeof value !== 'string') return typeErrorFor('string', param);
  const textValue = value.trim();
  if (textValue.toLowerCase() === 'now') return { now: true };
  const seq = decodeCursor(textValue);
  return seq === null ? new Invalid({ key: 'sync_cursor' }) : { now: false, seq };
};

export class ChangesQueryDto {
  @Doc(
    'Where to start: the next_cursor of an earlier answer (changes committed after it), or now (no changes, and the cursor of the present). Without it, the list starts at the oldest change kept.',
  )
  @Param(since, { schema: { type: 'string' } })
  since?: SinceValue;

  @Doc('Number of changes per page (at most 500; larger values are reduced).')
  @Param(positiveInteger, { schema: { type: 'integer', default: CHANGES_PER_PAGE.default, maximum: CHANGES_PER_PAGE.max } })
  per_page?: number;
}
