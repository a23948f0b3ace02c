import { Command } from 'commander';
import type { TecImporter } from '../importer/tec-importer.js';
import type { LoginLocks } from '../limits/login-locks.js';
import type { FeedTokensService } from '../users/feed-tokens.service.js';
import type { UsersService } from '../users/users.service.js';
import type { SourcesService } from '../sources/sources.service.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import type { CliIo } from './cli-io.js';
import { addFeedTokenCommands } from './feed-token-commands.js';
import { addImportCommand } from './import-command.js';
import { addLoginLockCommands } from './login-lock-commands.js';
import { addSourceCommands } from './source-commands.js';
import { addUserCommands } from './user-commands.js';
import { addWebhookCommands } from './webhook-commands.js';

/** The services the commands use, each started only when a command needs it. */
export interface CliServices {
  users: () => Promise<UsersService>;
  loginLocks: () => Promise<LoginLocks>;
  feedTokens: () => Promise<FeedTokensService>;
  /** Absent where a caller builds the program without the webhook commands. */
  webhooks?: () => Promise<WebhooksService>;
  /** Absent where a caller builds the program without `import:tec`. */
  importer?: () => Promise<TecImporter>;
  /** Absent where a caller builds the program without the calendar source commands. */
  sources?: () => Promise<SourcesService>;
}

/**
 * The commands of spec §4.4, the failed-login locks (docs/SECURITY.md), the feed tokens, the webhooks and the importer. Each
 * prints its result; the caller turns thrown errors into one line on stderr.
 */
export function buildProgram({ users, loginLocks, feedTokens, webhooks, importer, sources }: CliServices, io: CliIo): Command {
  const program = new Command('cli')
    .description(
      'Manage the users, application passwords, feed tokens, webhooks, calendar sources and login locks of the event calendar; import a site of The Events Calendar.',
    )
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text.trimEnd()), writeErr: () => undefined });

  addUserCommands(program, users, io);
  addLoginLockCommands(program, loginLocks, io);
  addFeedTokenCommands(program, feedTokens, io);
  if (webhooks) addWebhookCommands(program, webhooks, io);
  if (sources) addSourceCommands(program, sources, users, io);
  addImportCommand(program, importer, io);
  return program;
}
