import { CommanderError, type Command } from 'commander';
import type { LoginLocks } from '../limits/login-locks.js';
import type { CliIo } from './cli-io.js';

/** `login:locks` and `login:unlock`: the failed-login locks (docs/SECURITY.md). */
export function addLoginLockCommands(program: Command, loginLocks: () => Promise<LoginLocks>, io: CliIo): void {
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
}
