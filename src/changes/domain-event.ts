import type { ChangeAction, ChangeKind } from './change-recording.js';

/**
 * A committed change of one record, as the modules of this service hear of it: `type` is
 * `<kind>.<action>` (`event.created`, `venue.trashed`, `tag.deleted`, `event.published`, …).
 * Emitted after the transaction committed, in commit order, never for a write that rolled back.
 */
export interface DomainEvent {
  /** `<kind>.<action>`. */
  type: string;
  kind: ChangeKind;
  action: ChangeAction;
  /** ID of the record. */
  id: number;
  /** Place of the change in the change log (commit order), as a decimal string. */
  seq: string;
  /** When the change was written, UTC (`YYYY-MM-DD HH:MM:SS`). */
  occurredUtc: string;
  /** The record's status before and after (`null`: it did not exist); terms are always `publish`. */
  statusBefore: string | null;
  statusAfter: string | null;
}

/** A handler: may be async; what it returns or throws is only logged, never seen by the writer. */
export type DomainEventHandler = (event: DomainEvent) => void | Promise<void>;

/** Every type a change can have, in a fixed order (kinds, then actions). */
export const DOMAIN_EVENT_TYPES: readonly string[] = [
  ...['event', 'venue', 'organizer'].flatMap((kind) =>
    ['created', 'updated', 'trashed', 'restored', 'deleted', ...(kind === 'event' ? ['published'] : [])].map(
      (action) => `${kind}.${action}`,
    ),
  ),
  ...['category', 'tag'].flatMap((kind) => ['created', 'updated', 'deleted'].map((action) => `${kind}.${action}`)),
];

/** `*`, `<kind>.*` or one exact type. */
export function isEventPattern(pattern: string): boolean {
  if (pattern === '*' || DOMAIN_EVENT_TYPES.includes(pattern)) return true;
  const kind = /^([a-z]+)\.\*$/.exec(pattern)?.[1];
  return kind !== undefined && DOMAIN_EVENT_TYPES.some((type) => type.startsWith(`${kind}.`));
}

/** Whether a type is matched by one of the patterns. */
export function matchesEventPatterns(patterns: readonly string[], type: string): boolean {
  return patterns.some(
    (pattern) => pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))),
  );
}
