/** The summary of a run as the CLI prints it: a table of counts per resource, then the lists. */
import { ACTIONS, REPORT_RESOURCES, type ImportTally } from './import-report.js';

/** The summary table and lists, as lines. */
export function summaryLines(tally: ImportTally, options: { dryRun: boolean; since: boolean }): string[] {
  const columns = ACTIONS.filter((action) => action !== 'older' || options.since);
  const heading = options.dryRun
    ? columns.map((action) => (['created', 'updated', 'trashed', 'deleted'].includes(action) ? `would be ${action}` : action))
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
    lines.push('Would be created, updated, trashed or deleted (source id -> id here):');
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
  if (tally.unread.length > 0) {
    lines.push('Could not be read (run again to retry):');
    for (const item of tally.unread) lines.push(`  ${item.kind}${item.sourceId !== null ? ` ${item.sourceId}` : ''}: ${item.reason}`);
    lines.push(...more(tally.more.unread));
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
