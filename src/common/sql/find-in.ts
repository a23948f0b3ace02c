import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { checkedId } from './row-id.js';

/**
 * A statement that lists which of `ids` are rows of `target` (and meet `condition`, SQL over its
 * columns, when given), each row tagged with the number `t`: several joined by `UNION ALL` check
 * rows of many tables in one statement. An id that is not a safe integer is refused (`checkedId`).
 */
export function taggedIdsQuery(
  manager: EntityManager,
  target: EntityTarget<ObjectLiteral>,
  t: number,
  ids: number[],
  condition?: string,
): string {
  const table = manager.connection.driver.escape(manager.connection.getMetadata(target).tableName);
  const list = ids.map(checkedId).join(', ');
  return `SELECT ${Number(t)} AS t, id FROM ${table} WHERE id IN (${list})${condition ? ` AND ${condition}` : ''}`;
}
