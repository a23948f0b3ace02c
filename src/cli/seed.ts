import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { SingleBar, Presets } from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import type { DataSource } from 'typeorm';
import { readConfig } from '../config/app-config.js';
import { Seeder, type SeedProgress } from '../database/seed/seeder.js';
import { UsersService } from '../users/users.service.js';
import { CliModule } from './cli.module.js';

/** `npm run seed -- --events N [--run-id ID] [--batch N] [--translations de,fr,es]`: bulk test data, resumable per run id. */
const positive = (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
};
const program = new Command('seed')
  .option('--events <n>', 'number of events', positive, 1000)
  .option('--run-id <id>', 'name of this data set; running again with the same id only adds what is missing', 'bench')
  .option('--batch <n>', 'rows per insert batch', positive, 2000)
  .option('--translations <languages>', 'editions (comma-separated) every record of the run gets a translation into', '')
  .parse(process.argv);
const options = program.opts<{ events: number; runId: string; batch: number; translations: string }>();
if (!/^[a-z0-9-]{1,40}$/.test(options.runId)) {
  process.stderr.write('--run-id must be 1-40 characters of a-z, 0-9 and -\n');
  process.exit(1);
}
const config = readConfig();
const translations = options.translations
  .split(',')
  .map((code) => code.trim().toLowerCase())
  .filter(Boolean);
// an edition served under its own path, other than the language of the records' own text
const translatable = config.api.editions.slice(1).filter((code) => code !== config.api.contentLanguage);
if (translations.some((code) => !translatable.includes(code))) {
  process.stderr.write(`--translations takes editions among ${translatable.join(', ')}\n`);
  process.exit(1);
}

const context = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: false });
try {
  const users = context.get(UsersService);
  const listed = await users.listUsers();
  const author =
    listed.find(({ user }) => user.role === 'administrator' || user.role === 'editor')?.user ??
    (await users.createUser('seed-editor', 'editor')).user;
  const started = Date.now();
  const result = await new Seeder(
    context.get<DataSource>(getDataSourceToken()),
    process.stderr.isTTY ? terminalBar() : progressLines(),
  ).run({ events: options.events, runId: options.runId, batchSize: options.batch, authorId: author.id, translations });
  const translated = translations.length > 0 ? `, ${result.translated} translated texts added (${translations.join(', ')})` : '';
  process.stdout.write(
    `Run "${options.runId}": ${result.total} events (${result.created} created${translated}) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
} catch (error) {
  process.stderr.write(`Seeding failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await context.close();
}

/** On a terminal: a bar redrawn in place. */
function terminalBar(): SeedProgress {
  const bar = new SingleBar(
    { format: 'events {bar} {value}/{total} {percentage}% | {eta_formatted} left', hideCursor: true, stream: process.stderr },
    Presets.shades_classic,
  );
  return { start: (total, done) => bar.start(total, done), update: (done) => bar.update(done), stop: () => bar.stop() };
}

/** Elsewhere (CI, a log file): a plain line at the start, after every 2 s of work, and at the end. */
function progressLines(everyMs = 2000): SeedProgress {
  let total = 0;
  let first = 0;
  let latest = 0;
  let startedAt = 0;
  let lastLineAt = 0;
  const line = (done: number) => {
    const seconds = (Date.now() - startedAt) / 1000;
    const rate = seconds > 0 ? Math.round((done - first) / seconds) : 0;
    const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
    process.stderr.write(`events ${done}/${total} (${percent}%), ${rate} per second\n`);
    lastLineAt = Date.now();
  };
  return {
    start: (all, done) => {
      total = all;
      first = done;
      latest = done;
      startedAt = Date.now();
      line(done);
    },
    update: (done) => {
      latest = done;
      if (Date.now() - lastLineAt >= everyMs) line(done);
    },
    stop: () => line(latest),
  };
}
