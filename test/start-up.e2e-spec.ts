import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import mysql from 'mysql2/promise';
import request from 'supertest';
import { shortCommit } from '../src/build-info.js';
import { freePort } from './support/free-port.js';
import { ensureBuilt, parseJsonLines, startServer, type ServerProcess } from './support/server-process.js';
import { API, basic } from './support/test-app.js';

/**
 * The built server's start-up as an operator meets it (docs/OPERATIONS.md, "Logs"): with
 * `LOG_FORMAT=json` every line it writes is a JSON object, from the first connection attempt to the
 * fatal line of a start that fails; each attempt is written when it happens; the attempts and their
 * delay are settings; secrets may come from files; the release is named in the start-up line and
 * in `GET /health`.
 */

/** A port where nothing listens (below the ephemeral range, so no other test's server takes it). */
const CLOSED_PORT = 9;
const UNREACHABLE = `mysql://calendar:not-to-be-printed@127.0.0.1:${CLOSED_PORT}/calendar`;

let dir: string;
let server: ServerProcess | undefined;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'calendar-start-up-'));
}, 240_000);
afterEach(() => server?.stop());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refused(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(false);
    });
    socket.once('error', () => done(true));
  });
}

/** The lines of a start against the unreachable database, all parsed; fails on any line that is not JSON. */
async function failedStart(extra: Record<string, string>) {
  expect(await refused(CLOSED_PORT)).toBe(true);
  server = startServer({ DATABASE_URL: UNREACHABLE, LOG_FORMAT: 'json', PORT: String(await freePort()), ...extra });
  const exit = await server.exited;
  const { records, notJson } = parseJsonLines(server.lines);
  expect(notJson).toEqual([]);
  expect(server.lines.map((line) => line.text).join('\n')).not.toContain('not-to-be-printed');
  const attempts = records.filter((record) => record.context === 'Database');
  return { exit, records, attempts, startedAt: server.startedAt };
}

describe('a start against a database that refuses connections, LOG_FORMAT=json', () => {
  it('with the defaults: five attempts two seconds apart, each logged when it happens, then one fatal line and exit 1', async () => {
    const { exit, records, attempts, startedAt } = await failedStart({});

    expect(exit.code).toBe(1);
    expect(attempts.map((record) => [record.level, record.msg])).toEqual(
      [1, 2, 3, 4, 5].map((n) => [
        n < 5 ? 40 : 50,
        expect.stringMatching(
          new RegExp(
            `^Database connection attempt ${n} of 5 failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${CLOSED_PORT}\\. ${n < 5 ? 'Next attempt in 2000 ms' : 'Giving up'}\\.$`,
          ),
        ),
      ]),
    );
    // the child's own clock: two seconds between attempts
    for (const [i, record] of attempts.entries()) {
      if (i > 0) expect((record.time as number) - (attempts[i - 1].time as number)).toBeGreaterThanOrEqual(1900);
    }
    // each line reached the output when its attempt ended, not held back until the end: it was read
    // here before the attempt after the next one was made (four seconds of margin for a busy machine)
    for (let i = 0; i + 2 < attempts.length; i++) {
      expect(startedAt + attempts[i].at).toBeLessThan(attempts[i + 2].time as number);
    }
    expect(records.at(-1)).toMatchObject({
      level: 60,
      context: 'Startup',
      msg: `Start-up failed: no connection to the database in 5 attempts (last error: connect ECONNREFUSED 127.0.0.1:${CLOSED_PORT})`,
    });
    // the whole wait: four pauses of two seconds after the first attempt, and the fatal line right after the last
    const fatalTime = records.at(-1)!.time as number;
    expect(fatalTime - (attempts[0].time as number)).toBeGreaterThanOrEqual(4 * 2000 - 100);
    expect(fatalTime - (attempts[4].time as number)).toBeLessThan(1000);
  }, 90_000);

  it('takes the number of attempts and the delay from DB_CONNECT_ATTEMPTS and DB_CONNECT_RETRY_DELAY_MS', async () => {
    const { exit, records, attempts } = await failedStart({ DB_CONNECT_ATTEMPTS: '2', DB_CONNECT_RETRY_DELAY_MS: '300' });

    expect(exit.code).toBe(1);
    expect(attempts.map((record) => record.msg)).toEqual([
      expect.stringMatching(/^Database connection attempt 1 of 2 failed: .*ECONNREFUSED.*\. Next attempt in 300 ms\.$/),
      expect.stringMatching(/^Database connection attempt 2 of 2 failed: .*ECONNREFUSED.*\. Giving up\.$/),
    ]);
    expect((attempts[1].time as number) - (attempts[0].time as number)).toBeGreaterThanOrEqual(250);
    expect((records.at(-1)!.time as number) - (attempts[0].time as number)).toBeLessThan(300 + 1500);
    expect(records.at(-1)).toMatchObject({
      level: 60,
      msg: expect.stringMatching(/^Start-up failed: no connection to the database in 2 attempts /),
    });
  }, 60_000);
});

describe('a configuration that cannot be used, LOG_FORMAT=json', () => {
  const cases: Array<[string, () => Record<string, string>, string, () => string]> = [
    [
      'a secret given twice',
      () => ({
        ADMIN_LOGIN: 'admin',
        ADMIN_PASSWORD: 'from-the-environment',
        ADMIN_PASSWORD_FILE: secretFile('admin-twice', 'from-a-file\n'),
      }),
      'ADMIN_PASSWORD_FILE',
      () => 'Invalid configuration: ADMIN_PASSWORD_FILE is set together with ADMIN_PASSWORD: give the value one way, not both',
    ],
    [
      'a secret file that is not there',
      () => ({ DATABASE_URL_FILE: join(dir, 'missing') }),
      'DATABASE_URL_FILE',
      () => `Invalid configuration: DATABASE_URL_FILE names a file that cannot be read (ENOENT: ${join(dir, 'missing')})`,
    ],
    [
      'an invalid setting',
      () => ({ DB_CONNECT_ATTEMPTS: '0', DATABASE_URL: UNREACHABLE }),
      'DB_CONNECT_ATTEMPTS',
      () => 'Invalid configuration: DB_CONNECT_ATTEMPTS must be a whole number between 1 and 1000',
    ],
  ];
  it.each(cases)(
    '%s: one JSON line at level fatal naming the variable, exit 1 without touching the database',
    async (_name, env, variable, msg) => {
      server = startServer({ LOG_FORMAT: 'json', SQLITE_PATH: join(dir, 'never.sqlite'), ...env() });
      const exit = await server.exited;
      const { records, notJson } = parseJsonLines(server.lines);
      expect({
        code: exit.code,
        notJson,
        records: records.map(({ level, context, variable: named, msg: text }) => ({ level, context, variable: named, msg: text })),
      }).toEqual({
        code: 1,
        notJson: [],
        records: [{ level: 60, context: 'Config', variable, msg: msg() }],
      });
    },
    60_000,
  );
});

describe('a start that succeeds, LOG_FORMAT=json, with secrets from files', () => {
  const password = 'password-from-a-file';
  let database: { url: string; drop: () => Promise<void> } | undefined;

  beforeAll(async () => {
    database = await ownDatabase('start_up');
  });
  afterAll(() => database?.drop());

  it('writes only JSON lines, names the release in the start-up line and in /health, and reads the secrets from their files', async () => {
    const port = await freePort();
    const build = JSON.parse(readFileSync('dist/build-info.json', 'utf8')) as { version: string; commit: string | null };
    server = startServer({
      PORT: String(port),
      LOG_FORMAT: 'json',
      ADMIN_LOGIN: 'admin',
      ADMIN_PASSWORD_FILE: secretFile('admin-password', `${password}\n`),
      ...(database
        ? { DATABASE_URL_FILE: secretFile('database-url', `${database.url}\r\n`) }
        : { SQLITE_PATH: join(dir, 'start-up.sqlite') }),
    });
    const started = await server.waitForLine((line) => line.text.includes('"context":"Startup"'), 60_000);
    const base = `http://127.0.0.1:${port}`;

    expect(JSON.parse(started.text)).toMatchObject({
      level: 30,
      msg: expect.stringContaining(`; version ${build.version}, commit ${shortCommit(build)}; `),
      version: build.version,
      commit: build.commit,
    });
    const health = await request(base).get('/health');
    expect(health.body).toEqual({ status: 'ok', info: {}, error: {}, details: {}, version: build.version, commit: build.commit });
    expect(build.version).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);

    // the administrator's password is the file's contents without the line break; the database was found through its file
    const asAdmin = (secret: string) =>
      request(base)
        .get(`${API}/webhooks`)
        .set('Authorization', basic({ login: 'admin', password: secret }));
    expect((await asAdmin(password)).status).toBe(200);
    expect((await asAdmin('another-password')).status).toBe(401);
    expect(JSON.parse(started.text).msg).toContain(database ? 'database: MySQL/MariaDB' : 'database: SQLite file');

    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    const { records, notJson } = parseJsonLines(server.lines);
    expect(notJson).toEqual([]);
    expect(records.map((record) => record.context)).toEqual(expect.arrayContaining(['Migrations', 'Startup', 'Shutdown']));
    expect(server.lines.map((line) => line.text).join('\n')).not.toContain(password);
  }, 120_000);
});

describe('the build records its release (scripts/build-info.mjs)', () => {
  const script = resolve('scripts/build-info.mjs');
  /** Runs the script in a folder of its own with a package.json of version 3.4.5; returns what it wrote. */
  const build = (folder: string, env: Record<string, string> = {}) => {
    mkdirSync(join(folder, 'dist'), { recursive: true });
    writeFileSync(join(folder, 'package.json'), '{"version":"3.4.5"}\n');
    execFileSync(process.execPath, [script], { cwd: folder, env: { PATH: process.env.PATH ?? '', HOME: folder, ...env } });
    return JSON.parse(readFileSync(join(folder, 'dist/build-info.json'), 'utf8')) as { version: string; commit: string | null };
  };
  const git = (folder: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], { cwd: folder, encoding: 'utf8' }).trim();

  it('takes the commit from git, marks uncommitted changes, prefers APP_COMMIT, and says null when it cannot know', () => {
    const repository = join(dir, 'repository');
    mkdirSync(repository);
    git(repository, 'init', '-q');
    writeFileSync(join(repository, 'tracked.txt'), 'one\n');
    git(repository, 'add', 'tracked.txt');
    git(repository, 'commit', '-q', '-m', 'first');
    const head = git(repository, 'rev-parse', 'HEAD');

    expect(build(repository)).toMatchObject({ version: '3.4.5', commit: head });
    writeFileSync(join(repository, 'tracked.txt'), 'two\n');
    expect(build(repository).commit).toBe(`${head}-dirty`);
    expect(build(repository, { APP_COMMIT: 'abc123' }).commit).toBe('abc123');

    const plain = join(dir, 'no-repository');
    expect(build(plain)).toMatchObject({ version: '3.4.5', commit: null });
  });
});

function secretFile(name: string, contents: string): string {
  const path = join(dir, name);
  writeFileSync(path, contents, { mode: 0o600 });
  return path;
}

/** A database of this file's own beside the one of `DATABASE_URL` (MySQL/MariaDB runs), dropped afterwards. */
async function ownDatabase(suffix: string): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const given = process.env.DATABASE_URL?.trim();
  if (!given) return undefined;
  const url = new URL(given);
  const name = `${url.pathname.replace(/^\//, '')}_${suffix}`;
  url.pathname = '/';
  const admin = await mysql.createConnection(url.toString());
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const connection = await mysql.createConnection(given);
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
  };
}
