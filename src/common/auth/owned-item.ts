import type { ItemStatus } from './item-status.js';

/** What the permission rules look at on an item: its author and status. */
export interface OwnedItem {
  authorId: number;
  status: ItemStatus;
  /** For a trashed item, the status it had before (permissions use it). */
  preTrashStatus: ItemStatus | null;
}
