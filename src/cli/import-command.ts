import { CommanderError, InvalidArgumentError, type Command } from 'commander';
import { secretValue } from '../config/secret-files.js';
import type { ImportReport } from '../importer/import-report.js';
import { summaryLines } from '../importer/import-summary.js';
import type { ImportOptions } from '../importer/import-options.js';
import type { ConflictPolicy } from '../importer/import-outcome.js';
import { sleep } from '../importer/source-client.js';
import type { TecImporter } from '../importer/tec-importer.js';
import type { CliIo } from './cli-io.js';
import { importProgress } from './import-progress.js';

/** `import:tec` ended with exit code 1; the message is the one-line reason. */
export class ImportFailed extends Error {}

function positiveNumber(name: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError(`${name} must be a positive number`);
    return number;
  };
}

/** The options as the command line gives them: the run's own, `--watch`, and the bounds of the source client. */
interface ImportCommandOptions extends Omit<ImportOptions, 'onConflict' | 'client'> {
  onConflict: string;
  watch?: number;
  concurrency?: number;
  timeout?: number;
  retries?: number;
  retryBase?: number;
}

/**
 * The summary of a run. A dry run shows no run number (its row in `import_runs` is no run of the
 * source). Without `--watch` the reason of exit code 1 is left to the one line on standard error.
 */
function printReport(report: ImportReport, out: (line: string) => void, watching: boolean): void {
  const seconds = (report.durationMs / 1000).toFixed(1);
  const verb = report.dryRun ? 'Dry run' : 'Import';
  const state = report.status === 'completed' ? 'finished' : report.status === 'interrupted' ? 'was interrupted' : 'failed';
  out(
    `${verb}${report.runId !== null && !report.dryRun ? ` (run ${report.runId})` : ''} of ${report.source ?? 'the source'} ${state} in ${seconds} s, ${report.requests} request(s).`,
  );
  if (report.runId !== null) for (const line of summaryLines(report.tally, { dryRun: report.dryRun, since: report.since })) out(line);
  if (report.reason && watching) out(`This sync did not complete: ${report.reason}`);
}

/** `import:tec`: a site of The Events Calendar moved here, once or again every `--watch` minutes. */
export function addImportCommand(program: Command, importer: (() => Promise<TecImporter>) | undefined, io: CliIo): void {
  program
    .command('import:tec')
    .description(
      'Import categories, tags, venues, organizers and events of a site running The Events Calendar (or another instance of this service) through its REST API v1, keeping ids and slugs; run again to sync.',
    )
    .requiredOption('--from <url>', 'the site (https://example.org), its REST root (…/wp-json) or its tribe/events/v1 namespace')
    .option('--user <login>', 'login for HTTP Basic authentication: drafts, pending, private and scheduled items are imported too')
    .option('--password <password>', 'application password of --user (or the environment variable TEC_PASSWORD)')
    .option('--dry-run', 'read everything and report what would change, write nothing')
    .option('--since <date>', 'only records the source modified since this date (site time zone unless it says otherwise)')
    .option(
      '--author <login>',
      'local user that owns imported records (default: the first administrator); same logins are matched on WordPress',
    )
    .option('--on-conflict <policy>', 'records edited here since the last import: overwrite, keep-local or skip', 'skip')
    .option(
      '--watch <minutes>',
      'sync again every <minutes> until stopped (SIGTERM finishes the current page and exits 0)',
      positiveNumber('--watch'),
    )
    .option('--restart', 'start over instead of resuming an interrupted run of the same source')
    .option('--concurrency <n>', 'requests to the source in flight at most (default 4)', positiveNumber('--concurrency'))
    .option('--timeout <seconds>', 'bound of one request (default 30)', positiveNumber('--timeout'))
    .option('--retries <n>', 'attempts after the first on 429, 5xx, timeouts and lost connections (default 5)', (value) => {
      const number = Number(value);
      if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError('--retries must be a whole number');
      return number;
    })
    .option('--retry-base <ms>', 'first backoff step in milliseconds, doubled each attempt (default 500)', positiveNumber('--retry-base'))
    .action(async (options: ImportCommandOptions) => {
      if (!importer) throw new CommanderError(1, 'cli.usage', 'import:tec is not available here.');
      const service = await importer();
      const password = options.password ?? (options.user !== undefined ? secretValue(process.env, 'TEC_PASSWORD') : undefined);
      const stop = io.stopRequested ?? (() => false);
      const run = async () => {
        const progress = io.importProgress?.();
        try {
          return await service.run(
            {
              from: options.from,
              user: options.user,
              password,
              dryRun: options.dryRun === true,
              since: options.since,
              author: options.author,
              onConflict: options.onConflict as ConflictPolicy,
              restart: options.restart === true,
              client: {
                ...(options.concurrency !== undefined ? { concurrency: Math.max(1, Math.floor(options.concurrency)) } : {}),
                ...(options.timeout !== undefined ? { timeoutMs: options.timeout * 1000 } : {}),
                ...(options.retries !== undefined ? { retries: options.retries } : {}),
                ...(options.retryBase !== undefined ? { retryBaseMs: options.retryBase } : {}),
              },
            },
            progress ?? importProgress({ tty: false, out: io.out, everyMs: 0 }),
            stop,
          );
        } finally {
          progress?.close();
        }
      };
      if (options.watch === undefined) {
        const report = await run();
        printReport(report, io.out, false);
        if (report.exitCode !== 0) throw new ImportFailed(report.reason ?? 'the import did not complete');
        return;
      }
      // --watch: sync, wait, sync again; a stop request ends it with exit code 0
      const waitMs = options.watch * 60_000;
      while (!stop()) {
        const report = await run();
        printReport(report, io.out, true);
        if (stop()) break;
        io.out(`Next sync in ${options.watch} minute(s).`);
        const until = Date.now() + waitMs;
        while (!stop() && Date.now() < until) await sleep(Math.min(500, until - Date.now()));
      }
      io.out('Stopped.');
    });
}
