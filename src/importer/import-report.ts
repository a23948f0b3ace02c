import type { ImportOptions } from './import-options.js';
import type { Action, Outcome } from './import-outcome.js';

/** The resources in the order of the summary table. */
export const REPORT_RESOURCES = ['categories', 'tags', 'venues', 'organizers', 'events', 'images'] as const;
export type ReportResource = (typeof REPORT_RESOURCES)[number];

export const RESOURCE_OF_KIND: Record<Outcome['kind'], ReportResource> = {
  category: 'categories',
  tag: 'tags',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
  image: 'images',
};

export const ACTIONS: readonly Action[] = ['created', 'updated', 'unchanged', 'kept', 'trashed', 'deleted', 'skipped', 'older'];

export type Counts = Record<Action, number>;

export interface Renumbering {
  kind: Outcome['kind'];
  sourceId: number;
  localId: number;
  merged?: boolean;
}

export interface SlugChange {
  kind: Outcome['kind'];
  sourceId: number;
  localId: number;
  from: string;
  to: string;
}

/** A record a dry run would create, update, trash or delete. */
export interface Change {
  action: 'created' | 'updated' | 'trashed' | 'deleted';
  kind: Outcome['kind'];
  sourceId: number;
  localId: number | null;
  name: string;
}

export interface Problem {
  kind: string;
  sourceId: number | null;
  reason: string;
}

/** Lists in the stored progress are cut here; the mapping table keeps every renumbering. */
const LIST_LIMIT = 1000;

/** Everything a run counted and noted: stored with the run (so a resumed run goes on counting) and printed at the end. */
export interface ImportTally {
  counts: Record<ReportResource, Counts>;
  /** done / total of the source's lists per resource, for progress. */
  progress: Record<string, { done: number; total: number | null }>;
  renumbered: Renumbering[];
  slugChanges: SlugChange[];
  /** What a dry run would create, update or trash, record by record (real runs keep only the counts). */
  changes: Change[];
  /** Readable records that were not imported: each makes the exit code 1. */
  skipped: Problem[];
  /** Records (or ranges of ids, `sourceId` null) the source kept failing to answer or the run did not get to: each makes the exit code 1. */
  unread: Problem[];
  /** Records the source did not let the importer read (information only). */
  unreadable: Problem[];
  warnings: string[];
  more: { renumbered: number; slugChanges: number; changes: number; skipped: number; unread: number; unreadable: number; warnings: number };
  /** How far the source's ids were read one by one, for the next run (see `import-probes.ts`). */
  probe?: ProbeMark;
}

/**
 * Every id up to `through` was accounted for by a run: listed, or read one by one and answered as
 * no record of the kind, except the ids in `recheck` (records that exist but were not imported).
 */
export interface ProbeMark {
  through: number;
  recheck: number[];
}

export function emptyTally(): ImportTally {
  const zero = () => Object.fromEntries(ACTIONS.map((action) => [action, 0])) as Counts;
  return {
    counts: Object.fromEntries(REPORT_RESOURCES.map((resource) => [resource, zero()])) as Record<ReportResource, Counts>,
    progress: {},
    renumbered: [],
    slugChanges: [],
    changes: [],
    skipped: [],
    unread: [],
    unreadable: [],
    warnings: [],
    more: { renumbered: 0, slugChanges: 0, changes: 0, skipped: 0, unread: 0, unreadable: 0, warnings: 0 },
  };
}

/** A stored tally read back (older runs may lack fields). */
export function tallyFrom(value: unknown): ImportTally {
  const tally = emptyTally();
  if (!value || typeof value !== 'object') return tally;
  const stored = value as Partial<ImportTally>;
  for (const resource of REPORT_RESOURCES) Object.assign(tally.counts[resource], stored.counts?.[resource] ?? {});
  Object.assign(tally.progress, stored.progress ?? {});
  Object.assign(tally.more, stored.more ?? {});
  for (const key of ['renumbered', 'slugChanges', 'changes', 'skipped', 'unread', 'unreadable', 'warnings'] as const) {
    const list = stored[key];
    if (Array.isArray(list)) (tally[key] as unknown[]).push(...list);
  }
  if (stored.probe && typeof stored.probe.through === 'number' && Array.isArray(stored.probe.recheck)) tally.probe = stored.probe;
  return tally;
}

type ListKey = 'renumbered' | 'slugChanges' | 'changes' | 'skipped' | 'unread' | 'unreadable' | 'warnings';

function push<T>(tally: ImportTally, key: ListKey, item: T): void {
  const list = tally[key] as unknown as T[];
  if (list.length < LIST_LIMIT) list.push(item);
  else tally.more[key]++;
}

const CHANGES: ReadonlySet<Action> = new Set(['created', 'updated', 'trashed', 'deleted']);

/** Counts an outcome; `listChanges` (dry runs) also lists what would be created, updated, trashed or deleted. */
export function record(tally: ImportTally, outcome: Outcome, listChanges = false): void {
  tally.counts[RESOURCE_OF_KIND[outcome.kind]][outcome.action]++;
  if (listChanges && CHANGES.has(outcome.action)) {
    push<Change>(tally, 'changes', {
      action: outcome.action as Change['action'],
      kind: outcome.kind,
      sourceId: outcome.sourceId,
      localId: outcome.localId,
      name: outcome.name ?? '',
    });
  }
  if (outcome.renumbered && outcome.localId !== null) {
    push<Renumbering>(tally, 'renumbered', {
      kind: outcome.kind,
      sourceId: outcome.sourceId,
      localId: outcome.localId,
      ...(outcome.merged ? { merged: true } : {}),
    });
  }
  if (outcome.slugChanged && outcome.localId !== null) {
    push<SlugChange>(tally, 'slugChanges', {
      kind: outcome.kind,
      sourceId: outcome.sourceId,
      localId: outcome.localId,
      ...outcome.slugChanged,
    });
  }
  if (outcome.action === 'skipped')
    push<Problem>(tally, 'skipped', { kind: outcome.kind, sourceId: outcome.sourceId, reason: outcome.reason ?? '' });
}

/** A renumbering that is no record of the table (an image registered under a new id). */
export function renumbered(tally: ImportTally, item: Renumbering): void {
  push<Renumbering>(tally, 'renumbered', item);
}

export function skip(tally: ImportTally, resource: ReportResource, problem: Problem): void {
  tally.counts[resource].skipped++;
  push(tally, 'skipped', problem);
}

export function unreadable(tally: ImportTally, problem: Problem): void {
  push(tally, 'unreadable', problem);
}

/** A record the source kept failing to answer, or ids the run did not get to (`sourceId` null). */
export function unread(tally: ImportTally, problem: Problem): void {
  push(tally, 'unread', problem);
}

export function warn(tally: ImportTally, line: string): void {
  if (!tally.warnings.includes(line)) push(tally, 'warnings', line);
}

export function skippedCount(tally: ImportTally): number {
  return REPORT_RESOURCES.reduce((sum, resource) => sum + tally.counts[resource].skipped, 0);
}

export interface ImportReport {
  runId: number | null;
  source: string | null;
  status: 'completed' | 'interrupted' | 'failed';
  dryRun: boolean;
  since: boolean;
  tally: ImportTally;
  /** Why the exit code is 1; null when it is 0. */
  reason: string | null;
  exitCode: 0 | 1;
  durationMs: number;
  requests: number;
}

/** The report of a run: the exit code is 1 with a reason when the run did not import everything it read. */
export function buildReport(
  options: ImportOptions,
  started: number,
  partial: Partial<ImportReport> & Pick<ImportReport, 'status'>,
): ImportReport {
  const tally = partial.tally ?? emptyTally();
  const reason =
    partial.reason ??
    (partial.status === 'interrupted' ? 'interrupted before the end: run the same command again to resume' : incompleteReason(tally, true));
  return {
    runId: null,
    source: null,
    dryRun: options.dryRun === true,
    since: options.since !== undefined,
    tally,
    durationMs: Date.now() - started,
    requests: 0,
    ...partial,
    reason,
    exitCode: reason === null ? 0 : 1,
  };
}

/**
 * Why a run that reached its end did not import everything the source holds for its credentials:
 * records it could not read, ids it did not get to, records read but not imported; null when nothing.
 * `inSummary`: the CLI points at the lists of its summary.
 */
export function incompleteReason(tally: ImportTally, inSummary: boolean): string | null {
  const see = (list: string) => (inSummary ? ` (see "${list}" above)` : '');
  const unreadRecords = tally.unread.filter((item) => item.sourceId !== null).length + tally.more.unread;
  const unreadRanges = tally.unread.some((item) => item.sourceId === null);
  const reasons: string[] = [];
  if (unreadRecords > 0 || unreadRanges) {
    const what = [
      ...(unreadRecords > 0 ? [`${unreadRecords} record(s) could not be read from the source`] : []),
      ...(unreadRanges ? ['some ids were not looked at'] : []),
    ];
    reasons.push(`${what.join(' and ')}${see('Could not be read')}`);
  }
  const skipped = skippedCount(tally);
  if (skipped > 0) reasons.push(`${skipped} record(s) could be read but were not imported${see('Skipped')}`);
  return reasons.length > 0 ? reasons.join('; ') : null;
}
