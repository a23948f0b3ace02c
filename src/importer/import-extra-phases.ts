/** The last phases: records no list showed, read one by one, and records gone at the source, trashed here. */
import type { ImportMappingEntity } from './import-mapping.entity.js';
import { skip, unread, unreadable, warn } from './import-report.js';
import { importRaw } from './import-item-phases.js';
import { announceWrites, count, KIND_OF, RESOURCE_OF, seenSet, visibleStatuses, writeFailure, type RunState } from './import-run-state.js';
import { readSingle } from './source-reader.js';
import type { Resource } from './source-site.js';
import { unlistedEventIds } from './source-survey.js';

/**
 * Records no list showed: events hidden from listings (found through `wp/v2/tribe_events` on
 * WordPress, through the change feed and the gaps of the id sequence on this service), and
 * records imported before that the lists no longer show. Each is read alone: found ones are
 * imported, gone ones are trashed in the next phase.
 */
export async function extraPhase(state: RunState): Promise<void> {
  await discoverUnlisted(state);
  const work: Array<{ resource: Resource; id: number; mapped: ImportMappingEntity | undefined }> = [];
  for (const [resource, ids] of state.discovered) {
    for (const id of ids) if (!seenSet(state, KIND_OF[resource]).has(id)) work.push({ resource, id, mapped: undefined });
  }
  for (const kind of ['category', 'tag', 'venue', 'organizer', 'event'] as const) {
    for (const row of state.writer.unseen(kind)) {
      if (seenSet(state, kind).has(row.sourceRecordId)) continue;
      if (!work.some((item) => item.resource === RESOURCE_OF[kind] && item.id === row.sourceRecordId)) {
        work.push({ resource: RESOURCE_OF[kind], id: row.sourceRecordId, mapped: row });
      }
    }
  }
  const total = work.length;
  state.observer.progress?.('other records', 0, total);
  const results = work.map((item) => {
    const result = readSingle(state.client, state.site, item.resource, item.id);
    result.catch(() => undefined); // taken in turn below
    return { item, result };
  });
  let done = 0;
  for (const { item, result } of results) {
    const single = await result;
    const kind = KIND_OF[item.resource];
    if (single.kind === 'found') {
      if (item.resource === 'events' && state.client.authenticated && !state.protection.ids.get('event')?.has(item.id)) {
        // hidden from every list, so the anonymous scan did not see it: ask as a visitor
        const anonymous = await readSingle(state.client, state.site, 'events', item.id, true);
        if (anonymous.kind === 'gone' && anonymous.reason.includes('event-password-protected')) {
          const ids = state.protection.ids.get('event') ?? new Set<number>();
          ids.add(item.id);
          state.protection.ids.set('event', ids);
        }
      }
      await importRaw(state, item.resource, single.body);
    } else if (single.kind === 'gone') {
      const row = item.mapped ?? state.writer.mapping(kind, item.id);
      if (row) state.gone.push(row);
      else if (item.resource === 'events' && /event-no-longer-available|event-password-protected|rest_forbidden/.test(single.reason)) {
        unreadable(state.tally, { kind, sourceId: item.id, reason: single.reason });
      }
    } else {
      unread(state.tally, { kind, sourceId: item.id, reason: single.reason });
    }
    state.observer.progress?.('other records', ++done, total);
    state.tally.progress['other records'] = { done, total };
  }
  await announceWrites(state);
  await state.save({});
}

async function discoverUnlisted(state: RunState): Promise<void> {
  const { events, warnings } = await unlistedEventIds(state.client, state.site, state.knownItemIds, seenSet(state, 'event'));
  state.discovered.set('events', events);
  for (const line of warnings) warn(state.tally, line);
}

/** Records gone at the source (for the statuses this run could see): trashed here (terms deleted). */
export async function vanishedPhase(state: RunState): Promise<void> {
  let done = 0;
  const total = state.gone.length;
  for (const row of state.gone) {
    const resource = RESOURCE_OF[row.kind as 'event'];
    const visible = row.kind === 'category' || row.kind === 'tag' || visibleStatuses(state, resource).has(row.sourceStatus);
    if (!visible) continue;
    try {
      count(state, await state.writer.removeVanished(row));
    } catch (error) {
      skip(state.tally, resource, { kind: row.kind, sourceId: row.sourceRecordId, reason: writeFailure(error) });
    }
    state.observer.progress?.('vanished', ++done, total);
  }
  await announceWrites(state);
}
