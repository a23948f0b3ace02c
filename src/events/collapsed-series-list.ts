import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { applyListOrder, type ListOrder } from '../common/paging/list-order.js';
import type { Paging } from '../common/paging/paging.js';

/**
 * `collapse=series`: one item per series (its occurrence with the earliest start among the matches)
 * beside the single events, paged and counted that way.
 *
 * The matches are read as two parts, each with a plan of its own: single events in the listing
 * index's order, stopping after the page, and each series' first matching occurrence, found through
 * the series index (a series has at most a thousand occurrences). One condition "single, or first of
 * its series" would put the subquery under `OR`, which MySQL/MariaDB then run once per row of the
 * window. The total is the count of all matches (covered by the listing index), less the matching
 * occurrences, plus the first occurrences.
 *
 * `builder` holds the list's conditions on alias `e` and nothing else (no order, no paging).
 */
export async function collapsedSeriesPage<T extends ObjectLiteral>(
  builder: SelectQueryBuilder<T>,
  order: ListOrder,
  paging: Paging,
): Promise<{ total: number; ids: number[] }> {
  const occurrences = builder.clone().andWhere('e.series_id IS NOT NULL');
  // the subquery shares the list's named parameters
  const earliest = occurrences.clone().select('e.series_id').addSelect('MIN(e.start_local)').groupBy('e.series_id').getQuery();
  const firsts = occurrences.clone().andWhere(`(e.series_id, e.start_local) IN (${earliest})`);
  const singles = builder.clone().andWhere('e.series_id IS NULL');

  const [all, inSeries, first] = await Promise.all([builder.clone().getCount(), occurrences.getCount(), firsts.clone().getCount()]);
  const total = all - inSeries + first;
  if (paging.offset >= total) return { total, ids: [] };

  // the order's column travels beside the id (as `k`), unless it is the id
  const byId = order.column === 'id';
  const keyed = (query: SelectQueryBuilder<T>) =>
    byId ? query.select('e.id', 'id') : query.select('e.id', 'id').addSelect(`e.${order.column}`, 'k');
  const key = byId ? 'id' : 'k';
  const extra = (alias: string) => (byId ? '' : `, ${alias}.k`);
  applyListOrder(keyed(singles), 'e', order);
  const [singlesSql, singlesParams] = singles.limit(paging.offset + paging.perPage).getQueryAndParameters();
  const [firstsSql, firstsParams] = keyed(firsts).getQueryAndParameters();
  const rows: Array<{ id: number | string }> = await builder.connection.manager.query(
    `SELECT u.id AS id FROM (SELECT s.id${extra('s')} FROM (${singlesSql}) s UNION ALL SELECT r.id${extra('r')} FROM (${firstsSql}) r) u` +
      ` ORDER BY u.${key} ${order.direction}, u.id ${order.direction} LIMIT ${paging.perPage} OFFSET ${paging.offset}`,
    [...(singlesParams as unknown[]), ...(firstsParams as unknown[])],
  );
  return { total, ids: rows.map((row) => Number(row.id)) };
}
