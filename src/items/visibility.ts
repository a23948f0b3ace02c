import { isEditorLevel } from '../common/auth/permissions.js';
import type { AuthUser } from '../common/http/request-context.js';
import type { ItemStatus } from '../common/auth/item-status.js';

export interface SqlCondition {
  sql: string;
  params: Record<string, unknown>;
}

const UNPUBLISHED = "('draft', 'pending', 'private')";

/**
 * SQL form of `canRead` (spec §5.4) restricted to the requested statuses (spec §5.5), so that lists
 * show exactly what single reads would. `alias` is the item table's alias; values are literals
 * (statuses are validated words, ids are integers).
 */
export function visibleCondition(alias: string, user: AuthUser | null, statuses: readonly ItemStatus[]): SqlCondition {
  const requested = new Set(statuses);
  const parts: string[] = [];
  const list = (values: readonly string[]) => `(${values.map((value) => `'${value}'`).join(', ')})`;
  if (requested.has('publish')) parts.push(`${alias}.status = 'publish'`);
  const others = statuses.filter((status) => status !== 'publish');
  if (others.length > 0 && user && user.role !== 'subscriber') {
    if (isEditorLevel(user)) {
      parts.push(`${alias}.status IN ${list(others)}`);
    } else {
      const own = `${alias}.author_id = ${Number(user.id)}`;
      const ownStatuses = others.filter((status) => status !== 'trash' && (status !== 'future' || user.role === 'author'));
      if (ownStatuses.length > 0) parts.push(`(${own} AND ${alias}.status IN ${list(ownStatuses)})`);
      if (requested.has('trash')) {
        parts.push(
          `(${own} AND ${alias}.status = 'trash'${user.role === 'author' ? '' : ` AND ${alias}.pre_trash_status IN ${UNPUBLISHED}`})`,
        );
      }
    }
  }
  return { sql: parts.length > 0 ? `(${parts.join(' OR ')})` : '1 = 0', params: {} };
}

/** SQL form of "may update" (spec §4.5): password-protected items stay searchable for these users. */
export function mayWriteCondition(alias: string, user: AuthUser | null): SqlCondition {
  if (!user || user.role === 'subscriber') return { sql: '1 = 0', params: {} };
  if (isEditorLevel(user)) return { sql: '1 = 1', params: {} };
  const own = `${alias}.author_id = ${Number(user.id)}`;
  if (user.role === 'author') return { sql: own, params: {} };
  return {
    sql: `(${own} AND (${alias}.status IN ${UNPUBLISHED} OR (${alias}.status = 'trash' AND ${alias}.pre_trash_status IN ${UNPUBLISHED})))`,
    params: {},
  };
}
