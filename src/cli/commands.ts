import { Command, CommanderError, InvalidArgumentError } from 'commander';
import type { ImportObserver } from '../importer/import-options.js';
import { summaryLines, type ImportReport } from '../importer/import-report.js';
import type { ConflictPolicy } from '../importer/import-outcome.js';
import { sleep } from '../importer/source-client.js';
import { importProgress } from './import-progress.js';
import type { TecImporter } from '../importer/tec-importer.js';
import type { LoginLocks } from '../limits/login-locks.js';
import type { FeedTokensService } from '../users/feed-tokens.service.js';
import type { UsersService } from '../users/users.service.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';

export interface CliIo {
  out: (line: string) => void;
  /** True once the process was asked to stop (SIGTERM, SIGINT): a running import finishes its page. */
  stopRequested?: () => boolean;
  /** Progress display of `import:tec` (bars on a terminal, lines elsewhere); plain lines through `out` when absent. */
  importProgress?: () => ImportObserver & { close(): void };
}

/** `import:tec` ended with exit code 1; the message is the one-line reason. */
export class ImportFailed extends Error {}

function positiveNumber(name: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError(`${name} must be a positive number`);
    return number;
  };
}

interface ImportCommandOptions {
  from: string;
  user?: string;
  password?: string;
  dryRun?: boolean;
  since?: string;
  author?: string;
  onConflict: string;
  watch?: number;
  restart?: boolean;
  concurrency?: number;
  timeout?: number;
  retries?: number;
  retryBase?: number;
}

function printReport(report: ImportReport, out: (line: string) => void): void {
  const seconds = (report.durationMs / 1000).toFixed(1);
  const verb = report.dryRun ? 'Dry run' : 'Import';
  const state = report.status === 'completed' ? 'finished' : report.status === 'interrupted' ? 'was interrupted' : 'failed';
  out(
    `${verb}${report.runId !== null ? ` (run ${report.runId})` : ''} of ${report.source ?? 'the source'} ${state} in ${seconds} s, ${report.requests} request(s).`,
  );
  if (report.runId !== null) for (const line of summaryLines(report.tally, { dryRun: report.dryRun, since: report.since })) out(line);
  if (report.reason) out(`Exit code 1: ${report.reason}`);
}

/** The services the commands use, each started only when a command needs it. */
export interface CliServices {
  users: () => Promise<UsersService>;
  loginLocks: () => Promise<LoginLocks>;
  feedTokens: () => Promise<FeedTokensService>;
  /** Absent where a caller builds the program without the webhook commands. */
  webhooks?: () => Promise<WebhooksService>;
  /** Absent where a caller builds the program without `import:tec`. */
  importer?: () => Promise<TecImporter>;
}

/**
 * The commands of spec §4.4, the failed-login locks (docs/SECURITY.md), the feed tokens, the webhooks and the importer. Each
 * prints its result; the caller turns thrown errors into one line on stderr.
 */
export function buildProgram({ users, loginLocks, feedTokens, webhooks, importer }: CliServices, io: CliIo): Command {
  const program = new Command('cli')
    .description(
      'Manage the users, application passwords, feed tokens, webhooks and login locks of the event calendar; import a site of The Events Calendar.',
    )
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text.trimEnd()), writeErr: () => undefined });

  program
    .command('user:create')
    .description('Create a user with an application password named "default"; the password is the last line.')
    .requiredOption('--login <login>', 'login name')
    .requiredOption('--role <role>', 'administrator, editor, author, contributor or subscriber')
    .option('--password <password>', 'application password to register instead of a generated one')
    .action(async (options: { login: string; role: string; password?: string }) => {
      const created = await (await users()).createUser(options.login, options.role, options.password);
      io.out(`Created user ${created.user.login} (id ${created.user.id}, role ${created.user.role}).`);
      io.out(`Application password "${created.name}" (shown only now):`);
      io.out(created.password);
    });

  program
    .command('user:list')
    .description('List users, oldest first.')
    .action(async () => {
      for (const { user, passwords } of await (await users()).listUsers()) {
        io.out(`${user.id}\t${user.login}\t${user.role}\tapplication passwords: ${passwords}`);
      }
    });

  program
    .command('user:set-role')
    .description("Change a user's role.")
    .requiredOption('--login <login>', 'login name')
    .requiredOption('--role <role>', 'administrator, editor, author, contributor or subscriber')
    .action(async (options: { login: string; role: string }) => {
      const user = await (await users()).setRole(options.login, options.role);
      io.out(`${user.login} is now ${user.role}.`);
    });

  program
    .command('app-password:create')
    .description('Add an application password; the password is the last line.')
    .requiredOption('--login <login>', 'login name')
    .requiredOption('--name <name>', 'name of the new password, unique for the user')
    .option('--password <password>', 'application password to register instead of a generated one')
    .action(async (options: { login: string; name: string; password?: string }) => {
      const created = await (await users()).createAppPassword(options.login, options.name, options.password);
      io.out(`Application password "${created.name}" for ${created.user.login} (shown only now):`);
      io.out(created.password);
    });

  program
    .command('app-password:list')
    .description("List a user's application passwords (never their values).")
    .requiredOption('--login <login>', 'login name')
    .action(async (options: { login: string }) => {
      for (const password of await (await users()).listAppPasswords(options.login)) {
        io.out(`${password.name}\t${password.createdUtc}\t${password.lastUsedUtc ?? '-'}`);
      }
    });

  program
    .command('app-password:revoke')
    .description('Delete an application password by name, or all of them with --all.')
    .requiredOption('--login <login>', 'login name')
    .option('--name <name>', 'name of the password to delete')
    .option('--all', 'delete every application password of the user')
    .action(async (options: { login: string; name?: string; all?: boolean }) => {
      if (options.all === undefined && options.name === undefined) throw new CommanderError(1, 'cli.usage', 'Give --name <name> or --all.');
      const removed = await (await users()).revokeAppPassword(options.login, options.all ? null : (options.name as string));
      io.out(
        options.all
          ? `Revoked ${removed} application password(s) of ${options.login}.`
          : `Revoked the application password "${options.name}" of ${options.login}.`,
      );
    });

  program
    .command('login:locks')
    .description('List the failed-login locks in force: scope, address, login, failures, seconds left.')
    .action(async () => {
      const locks = await (await loginLocks()).locks();
      if (locks.length === 0) io.out('No login is locked.');
      for (const lock of locks) {
        io.out(`${lock.scope}\t${lock.address ?? '*'}\t${lock.login ?? '*'}\t${lock.failures} failures\t${lock.secondsLeft}s left`);
      }
    });

  program
    .command('login:unlock')
    .description('Forget the failed logins of a login (every address), of an address (every login), or of one pair with both.')
    .option('--login <login>', 'login name, as sent (case does not matter)')
    .option('--address <address>', 'client address, as `login:locks` shows it')
    .action(async (options: { login?: string; address?: string }) => {
      if (options.login === undefined && options.address === undefined) {
        throw new CommanderError(1, 'cli.usage', 'Give --login <login>, --address <address> or both.');
      }
      const removed = await (await loginLocks()).remove(options);
      const target = [options.login && `login ${options.login}`, options.address && `address ${options.address}`]
        .filter(Boolean)
        .join(' from ');
      io.out(`Unlocked ${target} (${removed} failed login(s) forgotten).`);
    });

  program
    .command('feed-token:create')
    .description(
      "Create a feed token that lets a calendar app read the .ics feeds with the user's rights; the subscription URL is the last line.",
    )
    .requiredOption('--login <login>', 'login name')
    .option('--label <label>', 'what the token is for, shown by feed-token:list')
    .action(async (options: { login: string; label?: string }) => {
      const created = await (await feedTokens()).create(options.login, options.label);
      const label = created.label === null ? '' : ` "${created.label}"`;
      io.out(`Created feed token${label} for ${created.login} (id ${created.id}).`);
      io.out(`Subscription URL (shown only now; it reads the calendar as ${created.login} until revoked):`);
      io.out(created.url);
    });

  program
    .command('feed-token:list')
    .description('List feed tokens, oldest first: id, login, label, created, last used (never the secret).')
    .option('--login <login>', 'only the tokens of this login')
    .action(async (options: { login?: string }) => {
      const tokens = await (await feedTokens()).list(options.login);
      if (tokens.length === 0) io.out('No feed token.');
      for (const token of tokens) {
        io.out(`${token.id}\t${token.login}\t${token.label ?? '-'}\t${token.createdUtc}\t${token.lastUsedUtc ?? '-'}`);
      }
    });

  program
    .command('feed-token:revoke')
    .description('Revoke a feed token by id, or every token of a login; it stops working at once.')
    .option('--id <id>', 'id of the token, as feed-token:list shows it')
    .option('--login <login>', 'login name: every token of that user (with --id: that token, which must be theirs)')
    .action(async (options: { id?: string; login?: string }) => {
      if (options.id === undefined && options.login === undefined) {
        throw new CommanderError(1, 'cli.usage', 'Give --id <id>, --login <login> or both.');
      }
      const removed = await (await feedTokens()).revoke(options);
      io.out(options.id === undefined ? `Revoked ${removed} feed token(s) of ${options.login}.` : `Revoked the feed token ${options.id}.`);
    });

  if (webhooks) addWebhookCommands(program, webhooks, io);

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
      const password = options.password ?? (options.user !== undefined ? process.env.TEC_PASSWORD : undefined);
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
        printReport(report, io.out);
        if (report.exitCode !== 0) throw new ImportFailed(report.reason ?? 'the import did not complete');
        return;
      }
      // --watch: sync, wait, sync again; a stop request ends it with exit code 0
      const waitMs = options.watch * 60_000;
      while (!stop()) {
        const report = await run();
        printReport(report, io.out);
        if (stop()) break;
        io.out(`Next sync in ${options.watch} minute(s).`);
        const until = Date.now() + waitMs;
        while (!stop() && Date.now() < until) await sleep(Math.min(500, until - Date.now()));
      }
      io.out('Stopped.');
    });

  return program;
}

const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** `webhook:create|list|update|delete|deliveries|retry`: the routes' operations, as an administrator. */
function addWebhookCommands(program: Command, webhooks: () => Promise<WebhooksService>, io: CliIo): void {
  const describe = (hook: {
    id: number;
    active: boolean;
    url: string;
    events: string[];
    edition: string;
    deactivated_reason: string | null;
  }) =>
    `${hook.id}\t${hook.active ? 'active' : 'inactive'}\t${hook.url}\t${hook.events.join(',')}\t${hook.edition}${hook.deactivated_reason ? `\t${hook.deactivated_reason}` : ''}`;
  const id = (value: string) => {
    if (!/^\d+$/.test(value)) throw new CommanderError(1, 'cli.usage', `Not an id: ${value}`);
    return Number(value);
  };

  program
    .command('webhook:create')
    .description('Subscribe a URL to event types; the signing secret is the last line (shown only now).')
    .requiredOption('--url <url>', 'http or https URL of the receiver')
    .requiredOption('--events <types>', 'comma-separated types or patterns: event.created, event.*, *')
    .option('--description <text>', 'a note for administrators')
    .option('--edition <lang>', 'language edition of the URLs in the payloads')
    .option('--inactive', 'create it deactivated')
    .action(async (options: { url: string; events: string; description?: string; edition?: string; inactive?: boolean }) => {
      const created = await (
        await webhooks()
      ).create(
        {
          url: options.url,
          events: list(options.events),
          description: options.description,
          edition: options.edition,
          active: !options.inactive,
        },
        null,
      );
      io.out(`Created webhook ${describe(created)}`);
      io.out('Signing secret (shown only now):');
      io.out(created.secret as string);
    });

  program
    .command('webhook:list')
    .description('List webhook subscriptions: id, state, URL, event types, edition, why deactivated.')
    .action(async () => {
      const all = await (await webhooks()).all();
      if (all.length === 0) io.out('No webhook subscription.');
      for (const hook of all) {
        io.out(describe({ ...hook, deactivated_reason: hook.deactivatedReason }));
      }
    });

  program
    .command('webhook:update')
    .description('Change a webhook subscription; --rotate-secret prints the new secret as the last line.')
    .requiredOption('--id <id>', 'id of the subscription')
    .option('--url <url>', 'http or https URL of the receiver')
    .option('--events <types>', 'comma-separated types or patterns')
    .option('--description <text>', 'a note for administrators')
    .option('--edition <lang>', 'language edition of the URLs in the payloads')
    .option('--active <bool>', 'true or false')
    .option('--rotate-secret', 'replace the signing secret')
    .action(
      async (options: {
        id: string;
        url?: string;
        events?: string;
        description?: string;
        edition?: string;
        active?: string;
        rotateSecret?: boolean;
      }) => {
        if (options.active !== undefined && !['true', 'false'].includes(options.active)) {
          throw new CommanderError(1, 'cli.usage', 'Give --active true or --active false.');
        }
        const updated = await (
          await webhooks()
        ).update(
          id(options.id),
          {
            url: options.url,
            events: options.events === undefined ? undefined : list(options.events),
            description: options.description,
            edition: options.edition,
            active: options.active === undefined ? undefined : options.active === 'true',
            rotate_secret: options.rotateSecret,
          },
          null,
        );
        io.out(`Updated webhook ${describe(updated)}`);
        if (updated.secret) {
          io.out('New signing secret (shown only now):');
          io.out(updated.secret);
        }
      },
    );

  program
    .command('webhook:delete')
    .description('Delete a webhook subscription with its deliveries.')
    .requiredOption('--id <id>', 'id of the subscription')
    .action(async (options: { id: string }) => {
      const removed = await (await webhooks()).remove(id(options.id), null);
      io.out(`Deleted webhook ${removed.id} (${removed.url}).`);
    });

  program
    .command('webhook:deliveries')
    .description('List the newest deliveries of a subscription: id, type, status, attempts, last status or error.')
    .requiredOption('--id <id>', 'id of the subscription')
    .option('--limit <n>', 'how many, newest first', '20')
    .action(async (options: { id: string; limit: string }) => {
      const deliveries = await (await webhooks()).recentDeliveries(id(options.id), Math.min(500, id(options.limit)));
      if (deliveries.length === 0) io.out('No delivery.');
      for (const delivery of deliveries) {
        const last = delivery.attempt_log.at(-1);
        const outcome = last ? (last.error ?? String(last.status_code)) : '-';
        io.out(
          `${delivery.id}\t${delivery.type}\t${delivery.status}\t${delivery.attempts} attempt(s)\t${delivery.created_utc}\t${outcome}`,
        );
      }
    });

  program
    .command('webhook:retry')
    .description('Send a delivery again, under the same webhook-id (a running server sends it).')
    .requiredOption('--id <id>', 'id of the subscription')
    .requiredOption('--delivery <id>', 'id of the delivery')
    .action(async (options: { id: string; delivery: string }) => {
      const delivery = await (await webhooks()).retry(id(options.id), id(options.delivery), null);
      // a running server may have claimed it already: say what was done, not a status that may be stale
      io.out(`Delivery ${delivery.id} (${delivery.type}) is queued again; a running server sends it within its poll interval.`);
    });
}
