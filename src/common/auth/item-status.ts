/** Status values of events, venues and organizers (spec §5.1). */
export const ITEM_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
/** Statuses a client may set; `trash` is set only by DELETE. */
export const WRITABLE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;
export type WritableStatus = (typeof WRITABLE_STATUSES)[number];
