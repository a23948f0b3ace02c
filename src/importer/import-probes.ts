/**
 * Reading the source's ids one by one. An event hidden from listings is in no list of the reference
 * (and WordPress's own `wp/v2` list shows only upcoming events), but its id answers. So every item id
 * up to the highest the run knows that no list, embedded record, mapping or earlier run accounted
 * for is read alone as an event, then the ids above it until {@link TAIL} in a row name nothing.
 */
import { unread, type ProbeMark } from './import-report.js';
import { seenSet, type RunState } from './import-run-state.js';
import { readEach, type ReadEnd } from './import-single-reads.js';

/** Ids a run reads one by one at most; the next run goes on where this one stopped. */
export const MAX_PROBES = 20_000;
/** Ids in a row above the highest known one that must name nothing before the run stops looking. */
export const TAIL = 100;
/** Ids read at once (the client bounds the requests in flight). */
const BATCH = 500;

const LABEL = 'ids read one by one';

/**
 * Reads every id nothing accounted for and records how far every id is accounted for
 * (`tally.probe`, the next run's starting point). Ids it did not get to make the run incomplete.
 */
export async function probeIds(state: RunState): Promise<void> {
  const before = state.earlier.probe;
  const recheck = new Set(before?.recheck ?? []);
  const known = new Set<number>([...state.knownItemIds, ...seenSet(state, 'event')]);
  for (const kind of ['event', 'venue', 'organizer', 'image'] as const) for (const id of state.writer.mappedIds(kind)) known.add(id);
  let highest = state.writer.floors.item;
  for (const id of known) highest = Math.max(highest, id);
  // ids an earlier run accounted for are skipped, except those that exist but were not imported
  const wanted = (id: number) => !known.has(id) && (id > (before?.through ?? 0) || recheck.has(id));
  const below: number[] = [];
  let firstLeft: number | null = null;
  for (let id = 1; id <= highest; id++) {
    if (!wanted(id)) continue;
    if (below.length === MAX_PROBES) {
      firstLeft = id;
      break;
    }
    below.push(id);
  }
  const ends = new Map<number, ReadEnd>();
  let done = 0;
  /** Reads these event ids one by one, noting how each read ended. */
  const probe = async (batch: number[]): Promise<ReadEnd[]> => {
    const results = await readEach(
      state,
      batch.map((id) => ({ resource: 'events', id })),
      LABEL,
      done,
      null,
    );
    batch.forEach((id, index) => ends.set(id, results[index]));
    done += batch.length;
    return results;
  };
  for (let start = 0; start < below.length; start += BATCH) await probe(below.slice(start, start + BATCH));
  // above the highest known id: until TAIL ids in a row name nothing
  let next = Math.max(highest, before?.through ?? 0) + 1;
  let misses = 0;
  while (firstLeft === null && misses < TAIL) {
    if (done >= MAX_PROBES) firstLeft = next;
    if (firstLeft !== null) break;
    const batch = Array.from({ length: Math.min(TAIL - misses, MAX_PROBES - done) }, (_, index) => next + index);
    const results = await probe(batch);
    next += batch.length;
    // a failure ends the search here: the next run starts below it
    if (results.includes('failed')) break;
    for (const end of results) misses = end === 'absent' ? misses + 1 : 0;
  }
  if (firstLeft !== null) {
    unread(state.tally, {
      kind: 'event',
      sourceId: null,
      reason: `ids from ${firstLeft} on were not read one by one (at most ${MAX_PROBES} a run), events hidden from listings among them may be missing: run again to go on`,
    });
  }
  state.tally.probe = mark(ends, Math.max(highest, before?.through ?? 0), firstLeft, known);
}

/**
 * How far every id is accounted for: known, skipped thanks to an earlier run, or answered (not a
 * failure); at most up to the highest id that exists, since ids above it may still be handed out.
 * The ids below that exist but were not imported are read again by the next run.
 */
function mark(ends: Map<number, ReadEnd>, highestKnown: number, firstLeft: number | null, known: Set<number>): ProbeMark {
  let existing = highestKnown;
  let through = firstLeft !== null ? firstLeft - 1 : Number.MAX_SAFE_INTEGER;
  for (const [id, end] of ends) {
    if (end === 'failed') through = Math.min(through, id - 1);
    if (end === 'exists') existing = Math.max(existing, id);
  }
  through = Math.min(through, existing);
  const recheck = [...ends].filter(([id, end]) => end === 'exists' && id <= through && !known.has(id)).map(([id]) => id);
  return { through, recheck: recheck.sort((a, b) => a - b) };
}
