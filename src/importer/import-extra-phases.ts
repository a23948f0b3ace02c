/** The last phases: records no list showed, read one by one, and records gone at the source, trashed here. */
import { skip, warn } from './import-report.js';
import { probeIds } from './import-probes.js';
import { announceWrites, count, RESOURCE_OF, seenSet, visibleStatuses, writeFailure, type RunState } from './import-run-state.js';
import { readEach, type SingleRead } from './import-single-reads.js';
import { unlistedEventIds } from './source-survey.js';

/**
 * Records no list showed: events hidden from listings (those the source names: `wp/v2` on
 * WordPress, the change feed on this service), records imported before that the lists no longer
 * show, then every id nothing accounted for (`import-probes.ts`). Each is read alone: found ones are
 * imported, gone ones are trashed or deleted in the next phase.
 */
export async function extraPhase(state: RunState): Promise<void> {
  const work: SingleRead[] = [];
  for (const id of await unlistedEventIds(state.client, state.site, state.knownItemIds)) {
    if (!seenSet(state, 'event').has(id)) work.push({ resource: 'events', id, mapped: state.writer.mapping('event', id) });
  }
  for (const kind of ['category', 'tag', 'venue', 'organizer', 'event'] as const) {
    for (const row of state.writer.unseen(kind)) {
      if (seenSet(state, kind).has(row.sourceRecordId)) continue;
      if (!work.some((item) => item.resource === RESOURCE_OF[kind] && item.id === row.sourceRecordId)) {
        work.push({ resource: RESOURCE_OF[kind], id: row.sourceRecordId, mapped: row });
      }
    }
  }
  await readEach(state, work, 'other records');
  await probeIds(state);
  if (state.leftAlone > 0) {
    warn(
      state.tally,
      `${state.leftAlone} record(s) imported by an earlier run with other credentials could not be read by this one: left as they are, not trashed`,
    );
  }
  await announceWrites(state);
  await state.save({});
}

/** Records gone at the source: trashed here (terms deleted), deleted ones said so. */
export async function vanishedPhase(state: RunState): Promise<void> {
  let done = 0;
  const total = state.gone.length;
  for (const { row, action, onlyIfVisible } of state.gone) {
    const resource = RESOURCE_OF[row.kind as 'event'];
    const terms = row.kind === 'category' || row.kind === 'tag';
    if (onlyIfVisible && !terms && !visibleStatuses(state, resource).has(row.sourceStatus)) continue;
    try {
      count(state, await state.writer.removeVanished(row, action));
    } catch (error) {
      skip(state.tally, resource, { kind: row.kind, sourceId: row.sourceRecordId, reason: writeFailure(error) });
    }
    state.observer.progress?.('vanished', ++done, total);
  }
  await announceWrites(state);
}
