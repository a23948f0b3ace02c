/** The kinds of record whose answers carry `Last-Modified`. */
export type ChangeKind = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

export const CHANGE_KINDS: readonly ChangeKind[] = ['events', 'venues', 'organizers', 'categories', 'tags'];

/**
 * When the set of records of a kind last changed in a way the records themselves cannot show: a
 * removal, a record leaving a list. Lists of events, venues and organizers answer with
 * `Last-Modified` = max(newest `modified_utc` of the page, `lastChange(kind)`); categories and tags
 * carry no modification time, so theirs is `lastChange(kind)` alone (none while it is null).
 * Provided under {@link LIST_LAST_CHANGE} by the change log (`changes/change-log-last-change.ts`).
 */
export interface ListLastChange {
  lastChange(kind: ChangeKind): Promise<Date | null>;
}

export const LIST_LAST_CHANGE = Symbol('list-last-change');
