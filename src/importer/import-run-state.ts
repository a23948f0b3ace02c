/** What one run works with (`RunState`), and the small rules every phase shares: seen ids, counting outcomes, protection, visible statuses. */
import type { ImportKind, ImportMappingEntity } from './import-mapping.entity.js';
import type { ImportObserver } from './import-options.js';
import { record, renumbered, type ImportTally } from './import-report.js';
import type { ImportRunEntity } from './import-run.entity.js';
import type { EarlierRuns, Phase } from './import-run-store.js';
import type { Outcome } from './import-outcome.js';
import type { ImportWriter } from './import-writer.js';
import { SourceError, type SourceClient } from './source-client.js';
import { CREDENTIAL_STATUSES } from './source-reader.js';
import { looksRedacted, type TermRecord } from './source-records.js';
import { UnusableRecord, type ConvertSettings } from './source-values.js';
import type { Resource, SourceSite } from './source-site.js';
import type { ProtectionScan } from './source-survey.js';

export const KIND_OF: Record<Resource, ImportKind> = {
  categories: 'category',
  tags: 'tag',
  venues: 'venue',
  organizers: 'organizer',
  events: 'event',
};
export const RESOURCE_OF: Record<'category' | 'tag' | 'venue' | 'organizer' | 'event', Resource> = {
  category: 'categories',
  tag: 'tags',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
};

/** Everything one run works with. */
export interface RunState {
  client: SourceClient;
  site: SourceSite;
  writer: ImportWriter;
  tally: ImportTally;
  convert: ConvertSettings;
  run: ImportRunEntity;
  observer: ImportObserver;
  stop: () => boolean;
  /** Stores where the run stands and its tally in the run row. */
  save: (position: { phase?: Phase; pagesDone?: number }) => Promise<void>;
  /** Moves the data version (what the caches compare). */
  bumpVersion: () => Promise<void>;
  /** Source ids seen in this run, per kind. */
  seen: Map<ImportKind, Set<number>>;
  /** Statuses this run could list, per item resource (`publish` alone without credentials). */
  visible: Map<Resource, Set<string>>;
  /** Published records an anonymous reader sees redacted: they are password-protected at the source. */
  protection: ProtectionScan;
  /** Item ids known to exist at the source (lists, embedded records, images), for finding hidden events. */
  knownItemIds: Set<number>;
  /** Records found gone at the source in the extra pass, and what became of them there. */
  gone: GoneRecord[];
  /** What earlier runs of the source tell this one (see {@link EarlierRuns}). */
  earlier: EarlierRuns;
  /** Records imported before that this run could not read and left as they are (they may exist for other credentials). */
  leftAlone: number;
  /** Categories and tags, read whole before anything is written (parents may follow children; ids above all of them are free for renumbering). */
  terms: Map<'categories' | 'tags', { records: TermRecord[]; total: number | null }>;
}

/**
 * A record imported before that the source no longer shows this run: `deleted` for good there,
 * `trashed` there, or out of the run's sight (`onlyIfVisible`: trashed here only when it was last
 * seen in a status the run can see).
 */
export interface GoneRecord {
  row: ImportMappingEntity;
  action: 'trashed' | 'deleted';
  onlyIfVisible: boolean;
}

export function seenSet(state: RunState, kind: ImportKind): Set<number> {
  let set = state.seen.get(kind);
  if (!set) state.seen.set(kind, (set = new Set()));
  return set;
}

export function count(state: RunState, outcome: Outcome): void {
  for (const image of state.writer.renumberedImages.splice(0)) renumbered(state.tally, { kind: 'image', ...image });
  record(state.tally, outcome, state.writer.settings.dryRun);
  seenSet(state, outcome.kind).add(outcome.sourceId);
}

/** Once a page (or a phase) wrote something, the data version moves, once. */
export async function announceWrites(state: RunState): Promise<void> {
  if (state.writer.wrote) {
    await state.bumpVersion();
    state.writer.wrote = false;
  }
}

/** Whether a visitor sees the record redacted at the source (the anonymous scan of the lists). */
export function isProtected(state: RunState, kind: ImportKind, raw: Record<string, unknown>): boolean {
  const id = Number(raw.id);
  if (state.protection.ids.get(kind)?.has(id)) return true;
  const anonymous = state.protection.anonymousOrganizers.get(id);
  return kind === 'organizer' && anonymous !== undefined && looksRedacted(anonymous, raw);
}

/**
 * Statuses the run can see in a list: with credentials every status but the trash (the trash once
 * its own pass read it), else `publish`. Only records last seen in one of them count as vanished.
 */
export function visibleStatuses(state: RunState, resource: Resource): Set<string> {
  let visible = state.visible.get(resource);
  if (!visible) {
    const all = state.client.authenticated && state.site.listArgs[resource].has('status');
    visible = new Set<string>(all ? CREDENTIAL_STATUSES : ['publish']);
    state.visible.set(resource, visible);
  }
  return visible;
}

export function writeFailure(error: unknown): string {
  if (error instanceof UnusableRecord || error instanceof SourceError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `could not be written: ${message.split('\n')[0]}`;
}
