import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import request from 'supertest';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app.js';
import { freePort } from './support/free-port.js';

const admin = basic(ADMIN);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const event = (title: string) => ({ title, start_date: '2027-05-01 18:00:00', end_date: '2027-05-01 20:00:00' });

/**
 * Another process's writer, on its own thread: it takes the write lock of the file and gives it up
 * once this thread has stopped running for 250 ms — which it does while the app waits inside SQLite
 * for that lock (the driver waits synchronously) — or when told to, or after 10 s at most.
 */
const LOCK_HOLDER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const beat = new Int32Array(workerData.beat);
const db = new Database(workerData.file);
db.exec('BEGIN IMMEDIATE');
db.prepare('SELECT COUNT(*) FROM schema_migrations').get();
let last = Atomics.load(beat, 0);
let since = Date.now();
const started = since;
const release = (stalled) => {
  clearInterval(watch);
  db.exec('COMMIT');
  db.close();
  parentPort.postMessage({ released: true, stalled });
  parentPort.close();
};
const watch = setInterval(() => {
  const now = Atomics.load(beat, 0);
  if (now !== last) { last = now; since = Date.now(); }
  else if (Date.now() - since >= 250) release(true);
  else if (Date.now() - started >= 10000) release(false);
}, 10);
parentPort.once('message', () => release(false));
parentPort.postMessage({ locked: true });
`;

const describeSqlite = process.env.DATABASE_URL ? describe.skip : describe;

describeSqlite('processes sharing the SQLite file', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SQLITE_BUSY_TIMEOUT_MS: '20000' });
  });
  afterAll(async () => {
    await t.close();
  });
  const file = () => (t.config.database.kind === 'sqlite' ? t.config.database.path : '');

  it('a write waits for another process that holds the write lock, then succeeds', async () => {
    const created = await t.http().post(`${API}/events`).set('Authorization', admin).send(event('Before the wait'));
    expect(created.status).toBe(201);
    const beat = new SharedArrayBuffer(4);
    const heartbeat = setInterval(() => Atomics.add(new Int32Array(beat), 0, 1), 5);
    const holder = new Worker(LOCK_HOLDER, {
      eval: true,
      workerData: { beat, file: file(), driver: join(process.cwd(), 'node_modules/better-sqlite3') },
    });
    const messages: Array<{ locked?: boolean; released?: boolean; stalled?: boolean }> = [];
    const released = new Promise<{ stalled: boolean }>((resolve, reject) => {
      holder.on('message', (message) => {
        messages.push(message);
        if (message.released) resolve(message);
      });
      holder.on('error', reject);
    });
    try {
      await once(holder, 'message');
      expect(messages[0]).toEqual({ locked: true });
      // an update reads the event, then writes it, in one transaction
      const res = await t
        .http()
        .post(`${API}/events/${created.body.id}`)
        .set('Authorization', admin)
        .send({ title: 'Written after the wait' });
      holder.postMessage('release'); // when the app did not wait
      const { stalled } = await released;
      expect([res.status, res.body.code]).toEqual([200, undefined]);
      // the app really met the lock: it waited for it instead of getting there after it was released
      expect(stalled).toBe(true);
      const read = await t.http().get(`${API}/events/${res.body.id}`).set('Authorization', admin);
      expect(read.body.title).toBe('Written after the wait');
    } finally {
      clearInterval(heartbeat);
      await holder.terminate();
    }
  });

  describe('with a second server process on the same file', () => {
    let child: ChildProcess;
    let port: number;
    const other = () => request(`http://127.0.0.1:${port}`);

    beforeAll(async () => {
      execFileSync(process.execPath, ['scripts/ensure-built.mjs'], { stdio: 'inherit' });
      port = await freePort();
      child = spawn(process.execPath, ['dist/src/main.js'], {
        env: {
          ...process.env,
          PORT: String(port),
          PUBLIC_URL,
          SQLITE_PATH: file(),
          SQLITE_BUSY_TIMEOUT_MS: '20000',
          LOG_LEVEL: 'warn',
          LOGIN_FAILURE_LIMIT: '100000',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const until = Date.now() + 60000;
      for (;;) {
        const answer = await other()
          .get(`${API}/events`)
          .then((res) => res.status)
          .catch(() => 0);
        if (answer === 200) break;
        if (Date.now() > until) throw new Error('the second server did not start');
        await sleep(100);
      }
    }, 240_000);
    afterAll(() => {
      child?.kill('SIGKILL');
    });

    it('takes 50 writes on each server at once (creates and updates): every one succeeds, none is lost', async () => {
      const existing: number[] = [];
      for (let i = 0; i < 50; i++) {
        existing.push(
          (
            await t
              .http()
              .post(`${API}/events`)
              .set('Authorization', admin)
              .send(event(`draft ${i}`))
          ).body.id,
        );
      }
      const titles = (server: string) => Array.from({ length: 25 }, (_, i) => `${server} ${i}`);
      const answers = await Promise.all([
        ...titles('alpha').map((title) => t.http().post(`${API}/events`).set('Authorization', admin).send(event(title))),
        ...titles('beta').map((title) => other().post(`${API}/events`).set('Authorization', admin).send(event(title))),
        ...existing.map((id, i) =>
          (i % 2 ? t.http() : other())
            .post(`${API}/events/${id}`)
            .set('Authorization', admin)
            .send({ title: i % 2 ? `alpha renamed ${i}` : `beta renamed ${i}` }),
        ),
      ]);
      expect(answers.filter((res) => res.status >= 300).map((res) => [res.status, res.body.code])).toEqual([]);
      expect(new Set(answers.map((res) => res.body.id as number)).size).toBe(100);
      const listed = await t.http().get(`${API}/events?per_page=50&search=alpha`).set('Authorization', admin);
      const listedThere = await other().get(`${API}/events?per_page=50&search=beta`).set('Authorization', admin);
      expect([listed.headers['x-wp-total'], listedThere.headers['x-wp-total']]).toEqual(['50', '50']);
    }, 120_000);
  });
});
