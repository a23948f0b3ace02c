import { CommanderError, type Command } from 'commander';
import type { FeedTokensService } from '../users/feed-tokens.service.js';
import type { CliIo } from './cli-io.js';

/** `feed-token:create|list|revoke`. */
export function addFeedTokenCommands(program: Command, feedTokens: () => Promise<FeedTokensService>, io: CliIo): void {
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
}
