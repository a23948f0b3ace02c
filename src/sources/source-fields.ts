/** The fields a sync writes, per field: what the feed wants, what the event holds, each as a short hash, and the body of a write. */
import { createHash } from 'node:crypto';
import type { EventEntity } from '../events/event.entity.js';
import type { CalendarSourceEntity } from './calendar-source.entity.js';
import type { FeedEvent } from './feed-event.js';
import type { FeedDates } from './feed-time.js';

/** The fields a sync keeps in step, each compared on its own (keep-local-edits keeps those edited here). */
export const SYNCED_FIELDS = [
  'title',
  'description',
  'dates',
  'website',
  'venue',
  'organizer',
  'categories',
  'tags',
  'status',
  'recurrence',
] as const;
export type SyncedField = (typeof SYNCED_FIELDS)[number];

/** What the feed (with the source's defaults) wants an event to be. */
export interface WantedEvent {
  title: string;
  description: string;
  dates: FeedDates;
  website: string;
  venue: { name: string } | { id: number } | null;
  organizer: { name: string; email: string | null } | { id: number } | null;
  categories: Array<string | number>;
  tags: number[];
  status: 'publish' | 'draft' | 'trash';
  /** Null for an occurrence (only a series' main event has a rule). */
  recurrence: string[] | null;
}

/** The event's own values of the synced fields, with its links and its series' rule. */
export interface LocalEvent {
  event: EventEntity;
  organizerIds: number[];
  categoryIds: number[];
  tagIds: number[];
  rules: string[] | null;
}

export function wantedOf(feed: FeedEvent, source: CalendarSourceEntity, occurrence: boolean): WantedEvent {
  return {
    title: feed.title,
    description: feed.description,
    dates: feed.dates,
    website: feed.website ?? '',
    venue: feed.location ? { name: feed.location } : source.defaultVenueId !== null ? { id: source.defaultVenueId } : null,
    organizer: feed.organizer ?? (source.defaultOrganizerId !== null ? { id: source.defaultOrganizerId } : null),
    categories: [...feed.categories, ...source.defaultCategories],
    tags: source.defaultTags,
    status: feed.cancelled ? 'trash' : source.defaultStatus,
    recurrence: occurrence ? null : feed.recurrence,
  };
}

/** The names a write may have to create (a venue, an organizer, categories given by name): see `NameLocks`. */
export function namesOf(wanted: WantedEvent): string[] {
  const names: string[] = [];
  if (wanted.venue && 'name' in wanted.venue) names.push(`venue:${wanted.venue.name.trim().toLowerCase()}`);
  if (wanted.organizer && 'name' in wanted.organizer) names.push(`organizer:${wanted.organizer.name.trim().toLowerCase()}`);
  for (const category of wanted.categories) if (typeof category === 'string') names.push(`category:${category.trim().toLowerCase()}`);
  return names;
}

export const hashOf = (value: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('hex')
    .slice(0, 16);

export type FieldHashes = Record<SyncedField, string>;

export function wantedHashes(wanted: WantedEvent): FieldHashes {
  return Object.fromEntries(SYNCED_FIELDS.map((field) => [field, hashOf(wanted[field])])) as FieldHashes;
}

export function localHashes(local: LocalEvent): FieldHashes {
  const { event } = local;
  const values: Record<SyncedField, unknown> = {
    title: event.title,
    description: event.description,
    dates: [event.timezone, event.allDay, event.startLocal, event.endLocal],
    website: event.website ?? '',
    venue: event.venueId,
    organizer: local.organizerIds,
    categories: [...local.categoryIds].sort((a, b) => a - b),
    tags: [...local.tagIds].sort((a, b) => a - b),
    status: event.status,
    recurrence: local.rules,
  };
  return Object.fromEntries(SYNCED_FIELDS.map((field) => [field, hashOf(values[field])])) as FieldHashes;
}

/** The body of an event write that sets `fields` to what the feed wants (raw, as a client would send it). */
export function writeBody(wanted: WantedEvent, fields: ReadonlySet<SyncedField>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (fields.has('title')) body.title = wanted.title;
  if (fields.has('description')) body.description = wanted.description;
  if (fields.has('dates')) {
    const { timezone, allDay, startLocal, endLocal } = wanted.dates;
    Object.assign(body, {
      timezone,
      all_day: allDay,
      start_date: allDay ? startLocal.slice(0, 10) : startLocal,
      end_date: allDay ? endLocal.slice(0, 10) : endLocal,
    });
  }
  if (fields.has('website')) body.website = wanted.website;
  if (fields.has('venue')) body.venue = wanted.venue === null ? '' : 'id' in wanted.venue ? wanted.venue.id : { venue: wanted.venue.name };
  if (fields.has('organizer')) {
    const organizer = wanted.organizer;
    body.organizer =
      organizer === null
        ? ''
        : 'id' in organizer
          ? [organizer.id]
          : [{ organizer: organizer.name, ...(organizer.email ? { email: organizer.email } : {}) }];
  }
  if (fields.has('categories')) body.categories = wanted.categories.length > 0 ? wanted.categories.map(String) : '';
  if (fields.has('tags')) body.tags = wanted.tags.length > 0 ? wanted.tags.map(String) : '';
  if (fields.has('status') && wanted.status !== 'trash') body.status = wanted.status;
  if (fields.has('recurrence') && wanted.recurrence !== null) body.recurrence = wanted.recurrence;
  return body;
}

/**
 * The fields to write, by the source's update authority: `overwrite` writes what the feed changed
 * and what was edited here; `keep-local-edits` what the feed changed and nobody edited here;
 * `create-only` nothing. `kept`: fields the feed changed that stay as they are here.
 */
export function fieldsToWrite(
  authority: CalendarSourceEntity['updateAuthority'],
  wanted: FieldHashes,
  lastFeed: Partial<FieldHashes>,
  local: FieldHashes | null,
  lastLocal: Partial<FieldHashes>,
): { fields: Set<SyncedField>; kept: boolean } {
  const fields = new Set<SyncedField>();
  let kept = false;
  for (const field of SYNCED_FIELDS) {
    const feedChanged = wanted[field] !== lastFeed[field];
    const edited = local !== null && local[field] !== lastLocal[field];
    const write = authority === 'overwrite' ? feedChanged || edited : authority === 'keep-local-edits' ? feedChanged && !edited : false;
    if (write) fields.add(field);
    else if (feedChanged) kept = true;
  }
  return { fields, kept };
}
