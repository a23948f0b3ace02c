import type { ItemStatus } from './item-status.js';
import type { AuthUser } from '../http/request-context.js';
import type { OwnedItem } from './owned-item.js';

/** The capability table of spec §4.5, as pure functions of the requester and the record. */

export type ItemResource = 'events' | 'venues' | 'organizers';
export type TermResource = 'categories' | 'tags';
export type Resource = ItemResource | TermResource;

export type { OwnedItem } from './owned-item.js';

const UNPUBLISHED_OR_PRIVATE = new Set<ItemStatus>(['draft', 'pending', 'private']);

export function isEditorLevel(user: AuthUser | null): boolean {
  return user?.role === 'administrator' || user?.role === 'editor';
}

export function isPublisher(user: AuthUser | null): boolean {
  return isEditorLevel(user) || user?.role === 'author';
}

export function canCreate(resource: Resource, user: AuthUser | null): boolean {
  if (!user) return false;
  switch (resource) {
    case 'categories':
      return isPublisher(user);
    case 'tags':
      return isEditorLevel(user);
    default:
      return user.role !== 'subscriber';
  }
}

/** Update and delete (trash) of one item. */
export function canWriteItem(user: AuthUser | null, item: OwnedItem): boolean {
  if (!user) return false;
  if (isEditorLevel(user)) return true;
  const own = item.authorId === user.id;
  if (user.role === 'author') return own;
  if (user.role === 'contributor') {
    const status = item.status === 'trash' ? (item.preTrashStatus ?? 'draft') : item.status;
    return own && UNPUBLISHED_OR_PRIVATE.has(status);
  }
  return false;
}

/** `canRead` of spec §5.4 for single reads; trashed events are refused elsewhere. */
export function canReadItem(user: AuthUser | null, item: OwnedItem): boolean {
  switch (item.status) {
    case 'publish':
      return true;
    case 'draft':
    case 'pending':
      return canWriteItem(user, item);
    case 'future':
      return canWriteItem(user, item) && user?.role !== 'contributor';
    case 'private':
      return user !== null && (isEditorLevel(user) || item.authorId === user.id);
    case 'trash':
      return canWriteItem(user, item);
  }
}

/** Whether `status` values other than `publish` may be requested in lists (spec §5.5). */
export function mayFilterByStatus(user: AuthUser | null): boolean {
  return user !== null && user.role !== 'subscriber';
}
