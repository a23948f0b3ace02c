import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { CommanderError } from 'commander';
import { ConfigError, readConfig } from '../config/app-config.js';
import { LoginLocks } from '../limits/login-locks.js';
import { UsersService } from '../users/users.service.js';
import { CliModule } from './cli.module.js';
import { buildProgram } from './commands.js';

/** `npm run cli -- <command> [options]`: exit 0 on success, one line on stderr and exit 1 on failure. */
let context: Awaited<ReturnType<typeof NestFactory.createApplicationContext>> | undefined;
const started = async () =>
  (context ??= await NestFactory.createApplicationContext(CliModule.forRoot(readConfig()), { logger: false, abortOnError: false }));
const program = buildProgram(
  async () => (await started()).get(UsersService),
  { out: (line) => process.stdout.write(`${line}\n`) },
  async () => (await started()).get(LoginLocks),
);

let code = 0;
try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')) {
    code = 0;
  } else {
    const message =
      error instanceof ConfigError || error instanceof CommanderError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message.replace(/^error: /, '').split('\n')[0]}\n`);
    code = 1;
  }
} finally {
  await context?.close();
}
process.exit(code);
