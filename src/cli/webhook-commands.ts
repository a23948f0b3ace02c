import { CommanderError, type Command } from 'commander';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import type { CliIo } from './cli-io.js';

const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** `webhook:create|list|update|delete|deliveries|retry`: the routes' operations, as an administrator. */
export function addWebhookCommands(program: Command, webhooks: () => Promise<WebhooksService>, io: CliIo): void {
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
