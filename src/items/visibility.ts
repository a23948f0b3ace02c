import { Brackets, type WhereExpressionBuilder } from 'typeorm';
import { isEditorLevel } from '../common/auth/permissions.js';
import type { AuthUser } from '../common/http/request-context.js';
import type { ItemStatus } from './item-status.js';

let parameterCounter = 0;

/**
 * SQL form of `canRead` (spec §5.4) restricted to the requested statuses (spec §5.5), so lists show
 * exactly what single reads would. `alias` is the item table's alias.
 */
export function whereVisible(builder: WhereExpressionBuilder, alias: string, user: AuthUser | null, statuses: ItemStatus[]): void {
  const suffix = `v${++parameterCounter % 1_000_000}`;
  const requested = new Set(statuses);
  builder.andWhere(
    new Brackets((or) => {
      or.where('1 = 0');
      if (requested.has('publish')) or.orWhere(`${alias}.status = 'publish'`);
      const others = statuses.filter((status) => status !== 'publish');
      if (others.length === 0 || !user) return;
      if (isEditorLevel(user)) {
        or.orWhere(`${alias}.status IN (:...${suffix}all)`, { [`${suffix}all`]: others });
        return;
      }
      const own = `${alias}.author_id = :${suffix}me`;
      const ownStatuses = others.filter((status) => status !== 'trash' && (status !== 'future' || user.role === 'author'));
      if (ownStatuses.length > 0) {
        or.orWhere(`(${own} AND ${alias}.status IN (:...${suffix}own))`, { [`${suffix}own`]: ownStatuses, [`${suffix}me`]: user.id });
      }
      if (requested.has('trash')) {
        const before = user.role === 'author' ? '' : ` AND ${alias}.pre_trash_status IN ('draft', 'pending', 'private')`;
        or.orWhere(`(${own} AND ${alias}.status = 'trash'${before})`, { [`${suffix}me`]: user.id });
      }
    }),
  );
}

/** SQL form of "may update" (spec §4.5): password-protected items stay searchable for these users. */
export function mayWriteCondition(alias: string, user: AuthUser | null): { sql: string; params: Record<string, unknown> } {
  if (!user || user.role === 'subscriber') return { sql: '1 = 0', params: {} };
  if (isEditorLevel(user)) return { sql: '1 = 1', params: {} };
  const own = `${alias}.author_id = ${Number(user.id)}`;
  if (user.role === 'author') return { sql: own, params: {} };
  return {
    sql: `(${own} AND (${alias}.status IN ('draft', 'pending', 'private') OR (${alias}.status = 'trash' AND ${alias}.pre_trash_status IN ('draft', 'pending', 'private'))))`,
    params: {},
  };
}
