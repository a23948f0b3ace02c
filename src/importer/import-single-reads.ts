/** Records read one by one (ids no list showed): each answer imported, marked gone at the source, named, or left alone. */
import type { ImportMappingEntity } from './import-mapping.entity.js';
import { unread, unreadable } from './import-report.js';
import { importRaw } from './import-item-phases.js';
import { KIND_OF, type RunState } from './import-run-state.js';
import { readSingle, type SingleResult } from './source-reader.js';
import type { Resource } from './source-site.js';

export interface SingleRead {
  resource: Resource;
  id: number;
  mapped?: ImportMappingEntity;
}

/** How a record read alone turned out: no such record of the kind, one that exists (read or not), or no answer. */
export type ReadEnd = 'absent' | 'exists' | 'failed';

/** Reads records alone (the client bounds how many at once) and takes each answer in turn; `label` names the progress line. */
export async function readEach(
  state: RunState,
  work: SingleRead[],
  label: string,
  done = 0,
  total: number | null = work.length,
): Promise<ReadEnd[]> {
  state.observer.progress?.(label, done, total);
  const results = work.map((item) => {
    const result = readSingle(state.client, state.site, item.resource, item.id);
    result.catch(() => undefined); // taken in turn below
    return { item, result };
  });
  const ends: ReadEnd[] = [];
  for (const { item, result } of results) {
    ends.push(await take(state, item, await result));
    state.observer.progress?.(label, ++done, total);
    state.tally.progress[label] = { done, total };
  }
  return ends;
}

/** One answer to a record read alone: imported, marked gone, named, or left alone. */
async function take(state: RunState, item: SingleRead, single: SingleResult): Promise<ReadEnd> {
  const kind = KIND_OF[item.resource];
  if (single.kind === 'failed') {
    unread(state.tally, { kind, sourceId: item.id, reason: single.reason });
    return 'failed';
  }
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
    return 'exists';
  }
  const row = item.mapped ?? state.writer.mapping(kind, item.id);
  if (!row) {
    if (single.why !== 'absent') unreadable(state.tally, { kind, sourceId: item.id, reason: single.reason });
    return single.why === 'absent' ? 'absent' : 'exists';
  }
  if (single.why === 'absent') state.gone.push({ row, action: 'deleted', onlyIfVisible: false });
  else if (single.why === 'trashed') state.gone.push({ row, action: 'trashed', onlyIfVisible: false });
  // out of this run's sight: it may exist for the credentials of an earlier run
  else if (state.earlier.otherCredentials) state.leftAlone++;
  else state.gone.push({ row, action: 'trashed', onlyIfVisible: true });
  return single.why === 'absent' ? 'absent' : 'exists';
}
