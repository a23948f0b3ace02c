import type { SelectQueryBuilder } from 'typeorm';
import { parseDateInput } from '../dates/parse-date.js';
import type { ParamProblems } from '../errors/api-error.js';
import { wallToDate } from '../sql/columns.js';
import type { SortDirection } from './list-order.query.js';

/** Sort keys whose direction is descending when `order` is not sent (the newest first). */
const NEWEST_FIRST = ['date', 'modified'];

export interface ListOrder {
  /** The column sorted on, before the id that breaks ties. */
  column: string;
  direction: 'ASC' | 'DESC';
}

/** The column and direction of a sent `orderby`/`order` (ties are broken by id in the same direction). */
export function listOrder(orderby: string, order: SortDirection | undefined, columns: Record<string, string>): ListOrder {
  const direction = order ?? (NEWEST_FIRST.includes(orderby) ? 'desc' : 'asc');
  return { column: columns[orderby], direction: direction === 'desc' ? 'DESC' : 'ASC' };
}

export function applyListOrder<T extends object>(builder: SelectQueryBuilder<T>, alias: string, order: ListOrder): void {
  builder.orderBy(`${alias}.${order.column}`, order.direction).addOrderBy(`${alias}.id`, order.direction);
}

export interface ModifiedWindow {
  after?: string;
  before?: string;
}

/** `modified_after`/`modified_before` as UTC wall times (site zone unless an offset is given). */
export function modifiedWindow(
  query: { modified_after?: string; modified_before?: string },
  zone: string,
  now: Date,
  problems: ParamProblems,
): ModifiedWindow {
  const window: ModifiedWindow = {};
  for (const [name, key] of [
    ['modified_after', 'after'],
    ['modified_before', 'before'],
  ] as const) {
    const raw = query[name];
    if (raw === undefined) continue;
    const parsed = parseDateInput(raw, zone, now);
    if (!parsed) problems.add(name, 'date');
    else window[key] = parsed.utc;
  }
  return window;
}

/** Strictly after / before on `modified_utc`. */
export function whereModified<T extends object>(builder: SelectQueryBuilder<T>, alias: string, window: ModifiedWindow): void {
  if (window.after !== undefined) builder.andWhere(`${alias}.modified_utc > :modifiedAfter`, { modifiedAfter: wallToDate(window.after) });
  if (window.before !== undefined)
    builder.andWhere(`${alias}.modified_utc < :modifiedBefore`, { modifiedBefore: wallToDate(window.before) });
}

/** The sorting and change parameters as the list links repeat them (change dates as resolved UTC instants). */
export function orderAndModifiedEcho(
  query: { orderby?: string; order?: string },
  window: ModifiedWindow,
): Array<[string, string | undefined]> {
  const instant = (wall: string | undefined) => (wall === undefined ? undefined : `${wall.replace(' ', 'T')}Z`);
  return [
    ['orderby', query.orderby],
    ['order', query.order],
    ['modified_after', instant(window.after)],
    ['modified_before', instant(window.before)],
  ];
}
