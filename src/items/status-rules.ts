import { isPublisher } from '../common/auth/permissions.js';
import type { AuthUser } from '../common/http/request-context.js';
import { ITEM_STATUSES, type ItemStatus, type WritableStatus } from '../common/auth/item-status.js';

/**
 * The status stored for a write (spec §5.2): contributors never publish (`publish`, `future` and
 * `private` become `pending`); for publishers a `publish` dated in the future is `future` and a
 * `future` that is not in the future is `publish`.
 */
export function storedStatus(requested: WritableStatus, user: AuthUser, dateUtc: string, nowUtc: string): WritableStatus {
  if (!isPublisher(user)) return requested === 'draft' ? 'draft' : 'pending';
  if (requested === 'publish' && dateUtc > nowUtc) return 'future';
  if (requested === 'future' && dateUtc <= nowUtc) return 'publish';
  return requested;
}

/** The status of a create without `status`: `publish` for publishers, `draft` for contributors. */
export function defaultCreateStatus(user: AuthUser): WritableStatus {
  return isPublisher(user) ? 'publish' : 'draft';
}

export function isPublicationStatus(status: ItemStatus): boolean {
  return status === 'publish' || status === 'future';
}

export const LIST_STATUS_WORDS = [...ITEM_STATUSES, 'any'] as const;

/**
 * The `status` list filter (spec §5.5) after validation: the statuses asked for. `any` is every
 * status but `trash`. Returns null when a value is unknown.
 */
export function expandStatusFilter(values: string[]): ItemStatus[] | null {
  const result = new Set<ItemStatus>();
  for (const value of values) {
    const word = value.trim().toLowerCase();
    if (word === 'any') ITEM_STATUSES.filter((status) => status !== 'trash').forEach((status) => result.add(status));
    else if ((ITEM_STATUSES as readonly string[]).includes(word)) result.add(word as ItemStatus);
    else return null;
  }
  return [...result];
}
