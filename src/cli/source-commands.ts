import { CommanderError, type Command } from 'commander';
import { SOURCE_STATUSES, UPDATE_AUTHORITIES, type SourceStatus, type UpdateAuthority } from '../sources/calendar-source.entity.js';
import { SOURCES_CHECK_INTERVAL_MS } from '../sources/source-scheduler.js';
import type { SourceResponse, SourceRunResponse } from '../sources/source.response.js';
import type { SourcesService } from '../sources/sources.service.js';
import type { UsersService } from '../users/users.service.js';
import type { CliIo } from './cli-io.js';

const ids = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      if (!/^\d+$/.test(item)) throw new CommanderError(1, 'cli.usage', `Not an id: ${item}`);
      return Number(item);
    });
const id = (value: string) => ids(value)[0] ?? 0;

const counts = (run: SourceRunResponse) =>
  `${run.status}${run.error ? ` (${run.error})` : ''}: ${Object.entries(run.counts)
    .map(([name, count]) => `${count} ${name}`)
    .join(', ')}`;

const describe = (source: SourceResponse) =>
  `${source.id}\t${source.paused ? 'paused' : 'active'}\t${source.update_authority}\tevery ${source.refresh_minutes} min\t${source.url}\t${
    source.last_run ? `${source.last_run.started_utc} ${counts(source.last_run)}` : 'never run'
  }`;

/** `source:add|list|run|runs|delete`: the calendar sources of the routes, as an administrator. */
export function addSourceCommands(
  program: Command,
  sources: () => Promise<SourcesService>,
  users: () => Promise<UsersService>,
  io: CliIo,
): void {
  program
    .command('source:add')
    .description('Subscribe to an iCalendar feed; a running server imports it at once and keeps it in sync.')
    .requiredOption('--url <url>', 'https, http or webcal URL of the feed')
    .option('--refresh <minutes>', 'minutes between runs (5-10080)', '60')
    .option('--authority <authority>', `who wins on a conflict: ${UPDATE_AUTHORITIES.join(', ')}`, 'keep-local-edits')
    .option('--status <status>', `status of the imported events: ${SOURCE_STATUSES.join(', ')}`, 'publish')
    .option('--categories <ids>', 'comma-separated category ids every event gets')
    .option('--tags <ids>', 'comma-separated tag ids every event gets')
    .option('--organizer <id>', 'organizer of events whose feed names none')
    .option('--venue <id>', 'venue of events whose feed gives no location')
    .option('--keep-missing', 'do not trash events that leave the feed')
    .option('--paused', 'add it paused')
    .option('--author <login>', 'the administrator or editor the events are written as (default: the first administrator)')
    .action(
      async (options: {
        url: string;
        refresh: string;
        authority: string;
        status: string;
        categories?: string;
        tags?: string;
        organizer?: string;
        venue?: string;
        keepMissing?: boolean;
        paused?: boolean;
        author?: string;
      }) => {
        const accounts = await users();
        const author = options.author
          ? await accounts.requireUser(options.author)
          : (await accounts.listUsers()).map(({ user }) => user).find((user) => user.role === 'administrator');
        if (!author) throw new CommanderError(1, 'cli.usage', 'There is no administrator: give --author.');
        if (author.role !== 'administrator' && author.role !== 'editor')
          throw new CommanderError(1, 'cli.usage', `${author.login} may not edit every event: give an administrator or editor.`);
        const created = await (
          await sources()
        ).create(
          {
            url: options.url,
            refresh_minutes: Number(options.refresh),
            update_authority: options.authority as UpdateAuthority,
            default_status: options.status as SourceStatus,
            default_categories: options.categories === undefined ? undefined : ids(options.categories),
            default_tags: options.tags === undefined ? undefined : ids(options.tags),
            default_organizer: options.organizer === undefined ? undefined : id(options.organizer),
            default_venue: options.venue === undefined ? undefined : id(options.venue),
            trash_missing: !options.keepMissing,
            paused: options.paused === true,
          },
          null,
          { id: author.id, login: author.login, role: author.role },
        );
        io.out(`Added source ${describe(created)}`);
      },
    );

  program
    .command('source:list')
    .description('List calendar sources: id, state, update authority, refresh, URL, last run.')
    .action(async () => {
      const all = await (await sources()).all();
      if (all.length === 0) io.out('No calendar source.');
      for (const source of all) io.out(describe(source));
    });

  program
    .command('source:run')
    .description('Run a source now: a running server runs it at its next look at the schedule.')
    .requiredOption('--id <id>', 'id of the source')
    .action(async (options: { id: string }) => {
      const source = await (await sources()).markDue(id(options.id));
      io.out(
        `Source ${source.id} is due now; a running server runs it within ${SOURCES_CHECK_INTERVAL_MS / 1000} s (source:runs shows it).`,
      );
    });

  program
    .command('source:runs')
    .description('List the newest runs of a source: id, started, status, counts, problems.')
    .requiredOption('--id <id>', 'id of the source')
    .option('--limit <n>', 'how many, newest first', '10')
    .action(async (options: { id: string; limit: string }) => {
      const runs = await (await sources()).recentRuns(id(options.id), Math.min(100, id(options.limit) || 10));
      if (runs.length === 0) io.out('No run.');
      for (const run of runs) {
        io.out(`${run.id}\t${run.started_utc}\t${run.started_by}\t${counts(run)}`);
        for (const problem of run.problems)
          io.out(`\t${problem.uid ?? '-'}${problem.recurrence_id ? ` (${problem.recurrence_id})` : ''}: ${problem.reason}`);
      }
    });

  program
    .command('source:delete')
    .description('Delete a source and its runs; the events it imported stay.')
    .requiredOption('--id <id>', 'id of the source')
    .action(async (options: { id: string }) => {
      const removed = await (await sources()).remove(id(options.id), null);
      io.out(`Deleted source ${removed.id} (${removed.url}).`);
    });
}
