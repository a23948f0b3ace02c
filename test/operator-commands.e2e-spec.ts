import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config/app-config.js';
import { startupLines } from '../src/startup-banner.js';
import { freePort, portIsFree } from './support/free-port.js';
import { alive } from './support/server-process.js';

/** The commands an operator copies from the README and the start-up banner, run as written on a SQLite file. */
const run = promisify(execFile);
let dir: string;
/** The environment of a fresh SQLite install: no database URL from the test run's own environment. */
const sqliteEnv = (extra: Record<string, string> = {}) => {
  const env: NodeJS.ProcessEnv = { ...process.env, SQLITE_PATH: join(dir, 'calendar.sqlite'), ...extra };
  delete env.DATABASE_URL;
  return env;
};

/** Polls `check` until it holds or `ms` have passed. */
async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await sleep(100);
  }
}

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/ensure-built.mjs'], { stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'calendar-operator-'));
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the lost-password command of the start-up banner and the README', () => {
  const config = loadConfig({ PUBLIC_URL: 'http://localhost:3000' });
  const { banner, password } = startupLines(config, { login: 'admin', generatedPassword: 'Abc123Abc123Abc123Abc123' });
  const printed = /Lost it\? (npm run cli -- .*)$/.exec(
    banner
      .join('\n')
      .split('\n')
      .find((line) => line.includes('Lost it?')) ?? '',
  )?.[1];

  it('is the same command in the banner, its log line and the README', () => {
    expect(printed).toBe('npm run cli -- app-password:create --login admin');
    expect(password).toContain(`replaced with: ${printed}).`);
    expect(readFileSync('README.md', 'utf8')).toContain(`\`${printed}\``);
  });

  it('works exactly as printed, also when the administrator has a password named "default" already', async () => {
    await run(process.execPath, ['dist/src/cli/main.js', 'user:create', '--login', 'admin', '--role', 'administrator'], {
      env: sqliteEnv(),
    });
    for (const expected of ['default-2', 'default-3']) {
      const { stdout } = await run('sh', ['-c', printed as string], { env: sqliteEnv() });
      const lines = stdout.trim().split('\n');
      expect(lines.at(-1)).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(lines.at(-2)).toBe(`Application password "${expected}" for admin (shown only now):`);
    }
    const { stdout } = await run(process.execPath, ['dist/src/cli/main.js', 'app-password:list', '--login', 'admin'], { env: sqliteEnv() });
    expect(stdout.split('\n').map((line) => line.split('\t')[0])).toEqual(['default', 'default-2', 'default-3', '']);
  }, 120_000);
});

describe('npm start', () => {
  let npm: ChildProcess | undefined;
  afterAll(() => {
    // whatever is left of the process group, so that a failure leaves nothing running
    if (npm?.pid !== undefined && alive(-npm.pid)) process.kill(-npm.pid, 'SIGKILL');
  });

  it("is the second half of the README's one command that installs and starts the service", () => {
    const quickStart = /## Quick start\n([\s\S]*?)\n## /.exec(readFileSync('README.md', 'utf8'))?.[1] ?? '';
    const blocks = [...quickStart.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1].trim());
    expect(blocks[0]).toBe('npm ci && npm start');
  });

  it('stops its server on SIGTERM: no orphan, the port is free within the grace period', async () => {
    const port = await freePort();
    npm = spawn('npm', ['start'], {
      env: sqliteEnv({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SHUTDOWN_GRACE_MS: '5000', LOG_LEVEL: 'warn' }),
      stdio: 'ignore',
      detached: true, // its own process group: every process `npm start` made can be found and cleaned up
    });
    let exited = false;
    npm.once('exit', () => (exited = true));
    const group = npm.pid as number;
    const ready = await within(60_000, () =>
      fetch(`http://127.0.0.1:${port}/health/ready`)
        .then((res) => res.status === 200)
        .catch(() => false),
    );
    expect(ready).toBe(true);
    const servers = execFileSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([, pgid, command, ...args]) => Number(pgid) === group && /(^|\/)node$/.test(command) && args.includes('dist/src/main.js'))
      .map(([pid]) => Number(pid));
    expect(servers).toHaveLength(1);

    process.kill(group, 'SIGTERM'); // the npm process, as a supervisor stops it
    expect(await within(15_000, () => !alive(servers[0]))).toBe(true);
    expect(await within(5_000, () => portIsFree(port))).toBe(true);
    expect(await within(5_000, () => exited)).toBe(true);
    expect(alive(-group)).toBe(false);
  }, 120_000);
});
