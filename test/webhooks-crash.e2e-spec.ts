import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ADMIN, API, basic, startTestApp } from './support/test-app.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';
import { freePort } from './support/free-port.js';

const admin = basic(ADMIN);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The built server as a real child process, killed with SIGKILL in the middle of a write burst
 * while its deliveries are in flight: after a restart on the same database, every write it
 * acknowledged is delivered (the outbox is the change log, written in each write's transaction).
 */
describe('webhooks across a crash (kill -9)', () => {
  let dir: string;
  let rx: Receiver;
  let port: number;
  let child: ChildProcess | null = null;
  const env = (): NodeJS.ProcessEnv => ({
    ...process.env,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ADMIN_LOGIN: ADMIN.login,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    LOGIN_FAILURE_LIMIT: '100000',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    CHANGES_POLL_INTERVAL_MS: '100',
    WEBHOOK_RETRY_BASE_MS: '200',
    WEBHOOK_TIMEOUT_MS: '1500',
    ...(process.env.DATABASE_URL ? {} : { SQLITE_PATH: join(dir, 'crash.sqlite') }),
  });
  const http = () => request(`http://127.0.0.1:${port}`);
  const start = async () => {
    child = spawn(process.execPath, ['dist/src/main.js'], { env: env(), stdio: ['ignore', 'ignore', 'inherit'] });
    const until = Date.now() + 30000;
    for (;;) {
      try {
        // the administrator is created right after the port opens
        if ((await http().get(`${API}/webhooks`).set('Authorization', admin)).status === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > until) throw new Error('the server did not start');
      await sleep(100);
    }
  };

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/ensure-built.mjs'], { stdio: 'inherit' });
    dir = mkdtempSync(join(tmpdir(), 'calendar-crash-'));
    if (process.env.DATABASE_URL) await (await startTestApp()).close(); // empties the database
    rx = await startReceiver();
    port = await freePort();
  }, 240_000);
  afterAll(async () => {
    child?.kill('SIGKILL');
    await rx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers every acknowledged write after a restart, and nothing that did not commit', async () => {
    await start();
    const hook = (
      await http()
        .post(`${API}/webhooks`)
        .set('Authorization', admin)
        .send({ url: rx.url('/crash'), events: ['tag.created'] })
    ).body;
    expect(hook.secret).toMatch(/^whsec_/);
    // the receiver does not answer before the crash: every delivery is in flight or waiting
    let crashed = false;
    rx.answer(() => (crashed ? { status: 200, body: 'ok' } : 'hang'));

    const acknowledged: number[] = [];
    let next = 0;
    const writer = async () => {
      while (next < 200) {
        const name = `crash-${next++}`;
        try {
          const res = await http().post(`${API}/tags`).set('Authorization', admin).send({ name });
          if (res.status === 201) acknowledged.push(res.body.id as number);
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    while (acknowledged.length < 25) await sleep(5);
    child!.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    await Promise.all(writers);
    crashed = true;
    expect(acknowledged.length).toBeGreaterThanOrEqual(25);

    await start();
    const delivered = () => new Set(rx.verified('/crash', hook.secret).map((entry) => entry.json.data.id as number));
    await rx.waitFor(() => acknowledged.every((id) => delivered().has(id)), 45000, 'every acknowledged write');
    // whatever else arrived is a write that committed (its reply was lost in the crash), never one that did not
    for (const id of delivered()) {
      if (!acknowledged.includes(id)) expect((await http().get(`${API}/tags/${id}`)).status).toBe(200);
    }
    child!.kill('SIGTERM');
    await new Promise((resolve) => child!.once('exit', resolve));
    child = null;
  }, 120_000);
});
