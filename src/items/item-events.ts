import type { EntityManager } from 'typeorm';
import type { ItemKind } from './item-id.entity.js';

/** The kinds of item an event links to. */
export type LinkedKind = Extract<ItemKind, 'venue' | 'organizer'>;

/**
 * What the shared item rules need to know of events, without importing them: the events module
 * provides it (token {@link ITEM_EVENTS}). Keeps the arrows pointing from resources to the item layer.
 */
export interface ItemEvents {
  /** Whether an event (in any status) has this id. */
  exists(id: number): Promise<boolean>;
  /** Publishes the scheduled events whose publication time is `due` or earlier; returns how many. */
  publishDue(due: Date): Promise<number>;
  /** SQL `EXISTS (...)` over events linked to the item of alias `i`, with `eventCondition` on event alias `e`. */
  linkedEventsExist(kind: LinkedKind, eventCondition: string): string;
  /** Removes the item from every event, inside the caller's transaction (trashing unlinks, spec §5.7). */
  unlink(manager: EntityManager, kind: LinkedKind, id: number): Promise<void>;
}

export const ITEM_EVENTS = Symbol('ITEM_EVENTS');
