/** The phases of categories and tags: both taxonomies read whole at the start, then written parents first. */
import { skip } from './import-report.js';
import { announceWrites, count, KIND_OF, seenSet, writeFailure, type RunState } from './import-run-state.js';
import { readList } from './source-reader.js';
import { convertTerm, type TermRecord } from './source-records.js';
import { UnusableRecord } from './source-values.js';

/** Both taxonomies, whole: they are small, parents may come after their children, and their highest id bounds renumbering. */
export async function readTerms(state: RunState): Promise<void> {
  for (const resource of ['categories', 'tags'] as const) {
    const kind = KIND_OF[resource] as 'category' | 'tag';
    const records: TermRecord[] = [];
    let total: number | null = null;
    for await (const page of readList(state.client, state.site, resource)) {
      total = page.total;
      for (const raw of page.records) {
        try {
          records.push(convertTerm(raw, kind, state.convert));
        } catch (error) {
          if (!(error instanceof UnusableRecord)) throw error;
          skip(state.tally, resource, { kind, sourceId: null, reason: error.message });
        }
      }
    }
    state.terms.set(resource, { records, total });
    for (const record of records) state.writer.floors.term = Math.max(state.writer.floors.term, record.sourceId);
  }
}

/** Categories or tags, parents first, from the lists read at the start. */
export async function termsPhase(state: RunState, resource: 'categories' | 'tags'): Promise<void> {
  const { records, total } = state.terms.get(resource) ?? { records: [], total: 0 };
  const ordered = parentsFirst(records);
  let done = 0;
  state.observer.progress?.(resource, 0, total ?? ordered.length);
  for (const term of ordered) {
    seenSet(state, term.kind).add(term.sourceId);
    await writeTermSafely(state, term);
    state.tally.progress[resource] = { done: ++done, total: total ?? ordered.length };
    state.observer.progress?.(resource, done, total ?? ordered.length);
  }
  await announceWrites(state);
  await state.save({});
}

export async function writeTermSafely(state: RunState, term: TermRecord): Promise<void> {
  try {
    count(state, await state.writer.writeTerm(term));
  } catch (error) {
    seenSet(state, term.kind).add(term.sourceId);
    skip(state.tally, term.kind === 'category' ? 'categories' : 'tags', {
      kind: term.kind,
      sourceId: term.sourceId,
      reason: writeFailure(error),
    });
  }
}

/** Parents before children; a parent that is not in the list does not hold its children back. */
export function parentsFirst(terms: TermRecord[]): TermRecord[] {
  const byId = new Map(terms.map((term) => [term.sourceId, term]));
  const ordered: TermRecord[] = [];
  const placed = new Set<number>();
  const place = (term: TermRecord, path: Set<number>) => {
    if (placed.has(term.sourceId) || path.has(term.sourceId)) return;
    path.add(term.sourceId);
    const parent = byId.get(term.parentSourceId);
    if (parent) place(parent, path);
    placed.add(term.sourceId);
    ordered.push(term);
  };
  for (const term of terms) place(term, new Set());
  return ordered;
}
