import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { CommanderError } from 'commander';
import { ConfigError, readConfig } from '../config/app-config.js';
import { TecImporter } from '../importer/tec-importer.js';
import { LoginLocks } from '../limits/login-locks.js';
import { FeedTokensService } from '../users/feed-tokens.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { SourcesService } from '../sources/sources.service.js';
import { UsersService } from '../users/users.service.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { CliModule } from './cli.module.js';
import { buildProgram } from './commands.js';
import { importProgress } from './import-progress.js';

/** `npm run cli -- <command> [options]`: exit 0 on success, one line on stderr and exit 1 on failure. */
let context: Awaited<ReturnType<typeof NestFactory.createApplicationContext>> | undefined;
const started = async () =>
  (context ??= await NestFactory.createApplicationContext(CliModule.forRoot(readConfig()), { logger: false, abortOnError: false }));
// SIGTERM and SIGINT ask a running import to finish its page and stop; a second one ends at once
let stopRequested = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopRequested) process.exit(1);
    stopRequested = true;
  });
}
const out = (line: string) => process.stdout.write(`${line}\n`);
const program = buildProgram(
  {
    users: async () => (await started()).get(UsersService),
    loginLocks: async () => (await started()).get(LoginLocks),
    feedTokens: async () => (await started()).get(FeedTokensService),
    webhooks: async () => (await started()).get(WebhooksService),
    importer: async () => (await started()).get(TecImporter),
    sources: async () => (await started()).get(SourcesService),
  },
  { out, stopRequested: () => stopRequested, importProgress: () => importProgress({ tty: process.stderr.isTTY === true, out }) },
);

let code = 0;
try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')) {
    code = 0;
  } else {
    const message =
      error instanceof ApiError
        ? describeApiError(error)
        : error instanceof ConfigError || error instanceof CommanderError || error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`${message.replace(/^error: /, '').split('\n')[0]}\n`);
    code = 1;
  }
} finally {
  await context?.close();
}
process.exit(code);

/** An answer of the API's rules as one line: the code, and each bad parameter with the reason's key. */
function describeApiError(error: ApiError): string {
  const problems = error.extra.problems?.map((problem) => `${problem.param} (${problem.key})`) ?? error.extra.missing ?? [];
  return problems.length > 0
    ? `${error.code}: ${problems.join(', ')}`
    : `${error.code}${error.args.id !== undefined ? ` (id ${error.args.id})` : ''}`;
}
