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

const ACTIONS: readonly Action[] = ['created', 'updated', 'unchanged', 'kept', 'trashed', 'skipped', 'older'];

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

/** A record a dry run would create, update or trash. */
export interface Change {
  action: 'created' | 'updated' | 'trashed';
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
  /** Records the source did not let the importer read (information only). */
  unreadable: Problem[];
  warnings: string[];
  more: { renumbered: number; slugChanges: number; changes: number; skipped: number; unreadable: number; warnings: number };
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
    unreadable: [],
    warnings: [],
    more: { renumbered: 0, slugChanges: 0, changes: 0, skipped: 0, unreadable: 0, warnings: 0 },
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
  for (const key of ['renumbered', 'slugChanges', 'changes', 'skipped', 'unreadable', 'warnings'] as const) {
    const list = stored[key];
    if (Array.isArray(list)) (tally[key] as unknown[]).push(...list);
  }
  return tally;
}

function push<T>(tally: ImportTally, key: 'renumbered' | 'slugChanges' | 'changes' | 'skipped' | 'unreadable' | 'warnings', item: T): void {
  const list = tally[key] as unknown as T[];
  if (list.length < LIST_LIMIT) list.push(item);
  else tally.more[key]++;
}

/** Counts an outcome; `listChanges` (dry runs) also lists what would be created, updated or trashed. */
export function record(tally: ImportTally, outcome: Outcome, listChanges = false): void {
  tally.counts[RESOURCE_OF_KIND[outcome.kind]][outcome.action]++;
  if (listChanges && (outcome.action === 'created' || outcome.action === 'updated' || outcome.action === 'trashed')) {
    push<Change>(tally, 'changes', {
      action: outcome.action,
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

export function warn(tally: ImportTally, line: string): void {
  if (!tally.warnings.includes(line)) push(tally, 'warnings', line);
}

export function skippedCount(tally: ImportTally): number {
  return REPORT_RESOURCES.reduce((sum, resource) => sum + tally.counts[resource].skipped, 0);
}

/** The summary table and lists, as lines. */
export function summaryLines(tally: ImportTally, options: { dryRun: boolean; since: boolean }): string[] {
  const columns = ACTIONS.filter((action) => action !== 'older' || options.since);
  const heading = options.dryRun
    ? columns.map((action) => (['created', 'updated', 'trashed'].includes(action) ? `would be ${action}` : action))
    : columns;
  const width = Math.max(...heading.map((text) => text.length), 6);
  const lines = [`${''.padEnd(11)}${heading.map((text) => text.padStart(width + 2)).join('')}`];
  for (const resource of REPORT_RESOURCES) {
    const counts = tally.counts[resource];
    if (resource === 'images' && columns.every((action) => counts[action] === 0)) continue;
    lines.push(`${resource.padEnd(11)}${columns.map((action) => String(counts[action]).padStart(width + 2)).join('')}`);
  }
  const more = (count: number) => (count > 0 ? [`  … and ${count} more`] : []);
  if (options.dryRun && tally.changes.length > 0) {
    lines.push('Would be created, updated or trashed (source id -> id here):');
    for (const item of tally.changes) {
      const here = item.localId !== null ? ` -> ${item.localId}` : '';
      lines.push(`  would be ${item.action.padEnd(7)} ${item.kind} ${item.sourceId}${here}${item.name ? ` "${item.name}"` : ''}`);
    }
    lines.push(...more(tally.more.changes));
  }
  if (tally.renumbered.length > 0) {
    lines.push(
      options.dryRun
        ? 'Would be renumbered (source id -> id here):'
        : 'Renumbered (source id -> id here; the mapping is kept in import_mappings):',
    );
    for (const item of tally.renumbered) {
      lines.push(
        `  ${item.kind} ${item.sourceId} -> ${item.localId}${item.merged ? ' (merged with the existing term of the same name)' : ''}`,
      );
    }
    lines.push(...more(tally.more.renumbered));
  }
  if (tally.slugChanges.length > 0) {
    lines.push('Slugs taken here (source slug -> slug here):');
    for (const item of tally.slugChanges) lines.push(`  ${item.kind} ${item.sourceId} (id ${item.localId}): ${item.from} -> ${item.to}`);
    lines.push(...more(tally.more.slugChanges));
  }
  if (tally.skipped.length > 0) {
    lines.push('Skipped:');
    for (const item of tally.skipped) lines.push(`  ${item.kind}${item.sourceId !== null ? ` ${item.sourceId}` : ''}: ${item.reason}`);
    lines.push(...more(tally.more.skipped));
  }
  if (tally.unreadable.length > 0) {
    lines.push('Not readable with these credentials (not imported):');
    for (const item of tally.unreadable) lines.push(`  ${item.kind}${item.sourceId !== null ? ` ${item.sourceId}` : ''}: ${item.reason}`);
    lines.push(...more(tally.more.unreadable));
  }
  if (tally.warnings.length > 0) {
    lines.push('Notes:');
    for (const line of tally.warnings) lines.push(`  ${line}`);
    lines.push(...more(tally.more.warnings));
  }
  return lines;
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
  const skipped = skippedCount(tally);
  const reason =
    partial.reason ??
    (partial.status === 'interrupted'
      ? 'interrupted before the end: run the same command again to resume'
      : skipped > 0
        ? `${skipped} record(s) could be read but were not imported (see "Skipped" above)`
        : null);
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
