import { CommanderError, type Command } from 'commander';
import type { UsersService } from '../users/users.service.js';
import type { CliIo } from './cli-io.js';

/** `user:create|list|set-role` and `app-password:create|list|revoke`. */
export function addUserCommands(program: Command, users: () => Promise<UsersService>, io: CliIo): void {
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
    .option('--name <name>', 'name of the new password, unique for the user (default: "default", else the first free "default-N")')
    .option('--password <password>', 'application password to register instead of a generated one')
    .action(async (options: { login: string; name?: string; password?: string }) => {
      const service = await users();
      const name = options.name ?? (await freeName(service, options.login));
      const created = await service.createAppPassword(options.login, name, options.password);
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
}

/** The first of `default`, `default-2`, `default-3`, … that the user's application passwords do not use. */
async function freeName(users: UsersService, login: string): Promise<string> {
  const taken = new Set((await users.listAppPasswords(login)).map((password) => password.name));
  let name = 'default';
  for (let n = 2; taken.has(name); n += 1) name = `default-${n}`;
  return name;
}
