import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDataSourceToken } from '@nestjs/typeorm';
import request, { type Response } from 'supertest';
import { type DataSource, In } from 'typeorm';
import ts from 'typescript';
import { EventEntity } from '../src/events/event.entity.js';
import { TagEntity } from '../src/tags/tag.entity.js';
import { ADMIN_AUTH, eventBody } from './support/events.js';
import { OneWayInModule, Sightings } from './support/one-way-in-extension.js';
import { ADMIN as ADMIN_LOGIN, API, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app.js';
import { freePort } from './support/free-port.js';

/**
 * One way in (docs/EXTENDING.md, "Every request passes the lifecycle"): an extension's middleware,
 * global guard and global interceptor see every request — read or write, cached or not, 200 or
 * 304 — and the guard's refusals hold, in the default settings and in the recommended production
 * settings (docs/OPERATIONS.md, deploy/compose.yaml).
 */
const SETTINGS: Array<[string, Record<string, string>]> = [
  ['the default settings', {}],
  [
    'the recommended production settings',
    // a request limit far above what this file sends: it must count, never refuse
    { TRUST_PROXY: '1', RATE_LIMIT_PER_MINUTE: '1000000', RESPONSE_CACHE: 'on' },
  ],
];

const TENANT = { 'X-Tenant': 'ok' };
const KEY = { 'X-Key': 'k' };
const ADMIN = { Authorization: ADMIN_AUTH };
/** The administrator with everything the extension asks for: how records are read back. */
const ADMIN_WITH_ALL = { ...ADMIN, ...TENANT, ...KEY };
const FORBIDDEN = { code: 'rest_forbidden', message: 'You are not allowed to do this.', data: { status: 403 } };
/** What the administrator reads of a trashed event (docs/API.md §5.7). */
const IN_TRASH = { code: 'event-no-longer-available', message: 'This event has been moved to the trash.', data: { status: 403 } };

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Call {
  headers?: Record<string, string>;
  body?: Record<string, unknown>;
  /** The answer expected: a status (`403`: the guard's refusal, in the error contract), or an error answer of the core. */
  expect: number | { status: number; body: unknown };
  /** A repeat of an anonymous read answered just before: from the response cache (`X-Cache: HIT`; on in both settings). */
  cached?: boolean;
}

interface Sent {
  line: string;
  permitted: boolean;
  outcome: string;
  expected: string;
}

type Seen = Pick<Sightings, 'middleware' | 'guard' | 'interceptor'>;

/** Requests sent one at a time, with what the extension should have seen of each and how each was answered. */
function requestLog(http: () => ReturnType<typeof request>) {
  let sent: Sent[] = [];
  return {
    clear: () => {
      sent = [];
    },

    send: async (method: Method, path: string, call: Call): Promise<Response> => {
      let req = http()
        [method.toLowerCase() as 'get'](path)
        .set(call.headers ?? {});
      if (call.body) req = req.send(call.body);
      const res = await req;
      const cache = call.cached ? ` X-Cache: ${String(res.headers['x-cache'])}` : '';
      const expected =
        typeof call.expect === 'number' ? { status: call.expect, body: call.expect === 403 ? FORBIDDEN : null } : call.expect;
      const answer = (status: number, body: unknown) => `${method} ${path} → ${status}${status >= 400 ? ` ${JSON.stringify(body)}` : ''}`;
      sent.push({
        line: `${method} ${path}`,
        // the guard's refusals are the calls expecting a bare 403; the interceptor sees every other one
        permitted: call.expect !== 403,
        outcome: `${answer(res.status, res.body)}${cache}`,
        expected: `${answer(expected.status, expected.body)}${call.cached ? ' X-Cache: HIT' : ''}`,
      });
      return res;
    },

    /**
     * Every request answered as expected (refusals: the guard's 403 in the error contract), and seen
     * by the middleware and the guard, and by the interceptor when the guard let it through: the same
     * requests, in the order they were sent. `records`: what the requests must have left as it was.
     * One comparison, so that a failure shows every request that went wrong at once.
     */
    expectEveryRequestSeen: (seen: Seen, records: { now: unknown; before: unknown } = { now: null, before: null }): void => {
      const lines = sent.map((request) => request.line);
      expect({
        answers: sent.map((request) => request.outcome),
        seen: { middleware: seen.middleware, guard: seen.guard, interceptor: seen.interceptor },
        records: records.now,
      }).toEqual({
        answers: sent.map((request) => request.expected),
        seen: { middleware: lines, guard: lines, interceptor: sent.filter((request) => request.permitted).map((request) => request.line) },
        records: records.before,
      });
    },
  };
}

describe.each(SETTINGS)('one way in: an extension sees every request and its guard holds, in %s', (_name, env) => {
  const sightings = new Sightings();
  let t: TestApp;
  const log = requestLog(() => t.http());
  const send = log.send;
  const expectEveryRequestSeen = (records?: { now: unknown; before: unknown }) => log.expectEveryRequestSeen(sightings, records);
  const reads: number[] = [];

  /** An event as the administrator reads it, with everything the extension asks for. */
  async function readBack(id: number, expected: Call['expect'] = 200): Promise<{ status: number; body: unknown }> {
    const res = await send('GET', `${API}/events/${id}`, { headers: ADMIN_WITH_ALL, expect: expected });
    return { status: res.status, body: res.body };
  }

  async function create(title: string): Promise<number> {
    const res = await send('POST', `${API}/events`, { headers: { ...ADMIN, ...TENANT }, body: eventBody({ title }), expect: 201 });
    return res.body.id as number;
  }

  beforeAll(async () => {
    t = await startTestApp(env, { modules: [OneWayInModule.with(sightings)] });
    for (const title of ['Lantern Walk', 'Harbour Concert', 'Night Market']) reads.push(await create(title));
  });
  afterAll(() => t.close());
  beforeEach(() => {
    sightings.clear();
    sightings.readsNeedKey = false;
    log.clear();
  });

  it('refuses every write without X-Tenant, whatever went through before, and changes nothing', async () => {
    const [a, b, c, d] = [await create('Kept A'), await create('Kept B'), await create('Kept C'), await create('Kept D')];
    const withTenant = { ...ADMIN, ...TENANT };
    const tag = async (name: string) =>
      (await send('POST', `${API}/tags`, { headers: withTenant, body: { name }, expect: 201 })).body.id as number;
    const [gone, kept] = [await tag('Gone tag'), await tag('Kept tag')];
    const refused = { headers: ADMIN, expect: 403 };

    const refusedTitles = ['Refused create 1', 'Refused create 2', 'Refused create 3'];
    for (const title of refusedTitles) await send('POST', `${API}/events`, { ...refused, body: eventBody({ title }) });
    await send('POST', `${API}/tags`, { ...refused, body: { name: 'Refused tag' } });

    await send('POST', `${API}/events/${a}`, { headers: withTenant, body: { title: 'Kept A (edited)' }, expect: 200 });
    await send('DELETE', `${API}/events/${b}`, { headers: withTenant, expect: 200 });
    // `force` is ignored on events (docs/API.md §5.7: trashed, never removed); tags are deleted for good
    await send('DELETE', `${API}/events/${d}?force=true`, { headers: withTenant, expect: 200 });
    await send('DELETE', `${API}/tags/${gone}?force=true`, { headers: withTenant, expect: 200 });
    const db = t.app.get<DataSource>(getDataSourceToken());
    const records = async () => ({
      // as the administrator reads them and as stored
      read: [await readBack(a), await readBack(b, { status: 403, body: IN_TRASH }), await readBack(c)],
      events: (await db.getRepository(EventEntity).find({ where: { id: In([a, b, c, d]) }, order: { id: 'ASC' } })).map((row) => [
        row.title,
        row.status,
        row.modifiedUtc,
      ]),
      tag: (await send('GET', `${API}/tags/${kept}`, { headers: ADMIN_WITH_ALL, expect: 200 })).body,
      refusedEvents: await db.getRepository(EventEntity).countBy({ title: In([...refusedTitles, 'Refused edit']) }),
      refusedTags: await db.getRepository(TagEntity).countBy({ name: 'Refused tag' }),
    });
    const before = await records();
    expect(before.read.map((record) => record.status)).toEqual([200, 403, 200]);
    expect(before.events.map(([title, status]) => [title, status])).toEqual([
      ['Kept A (edited)', 'publish'],
      ['Kept B', 'trash'],
      ['Kept C', 'publish'],
      ['Kept D', 'trash'],
    ]);
    expect(before.tag).toMatchObject({ id: kept, name: 'Kept tag' });

    for (const id of [a, a, b, c]) await send('POST', `${API}/events/${id}`, { ...refused, body: { title: 'Refused edit' } });
    await send('PUT', `${API}/events/${c}`, { ...refused, body: { title: 'Refused edit' } });
    for (const id of [c, c, a]) await send('DELETE', `${API}/events/${id}`, refused);
    for (const id of [c, c, b]) await send('DELETE', `${API}/events/${id}?force=true`, refused);
    await send('POST', `${API}/tags/${kept}`, { ...refused, body: { name: 'Refused tag' } });
    for (let i = 0; i < 2; i++) await send('DELETE', `${API}/tags/${kept}?force=true`, refused);

    expectEveryRequestSeen({ now: await records(), before: { ...before, refusedEvents: 0, refusedTags: 0 } });
  });

  it('sees every read: cached and uncached, 200 and 304, anonymous and with credentials', async () => {
    const [first, second, third] = reads;
    const list = await send('GET', `${API}/events`, { expect: 200 });
    for (let i = 0; i < 3; i++) await send('GET', `${API}/events`, { expect: 200, cached: true });
    const single = await send('GET', `${API}/events/${first}`, { expect: 200 });
    for (let i = 0; i < 3; i++) await send('GET', `${API}/events/${first}`, { expect: 200, cached: true });
    for (const id of [second, third]) await send('GET', `${API}/events/${id}`, { expect: 200 });
    for (const query of ['per_page=1', 'per_page=2', 'per_page=3', 'search=Harbour', 'page=1&per_page=2']) {
      await send('GET', `${API}/events?${query}`, { expect: 200 });
    }
    for (const [path, etag] of [
      [`${API}/events`, list.headers.etag],
      [`${API}/events`, list.headers.etag],
      [`${API}/events/${first}`, single.headers.etag],
      [`${API}/events/${first}`, single.headers.etag],
    ]) {
      await send('GET', path, { headers: { 'If-None-Match': etag }, expect: 304 });
    }
    for (const path of [`${API}/events/${first}`, `${API}/events/${first}`, `${API}/events`]) {
      await send('GET', path, { headers: ADMIN, expect: 200 });
    }
    expect([list.headers.etag, single.headers.etag]).toEqual([expect.any(String), expect.any(String)]);
    expectEveryRequestSeen();
  });

  it('refuses every read without X-Key while reads need it, also those the response cache holds from a permitted read', async () => {
    sightings.readsNeedKey = true;
    const [first, second] = reads;
    const list = await send('GET', `${API}/events`, { headers: KEY, expect: 200 });
    await send('GET', `${API}/events`, { headers: KEY, expect: 200, cached: true });
    const single = await send('GET', `${API}/events/${first}`, { headers: KEY, expect: 200 });
    await send('GET', `${API}/events/${first}`, { headers: KEY, expect: 200, cached: true });
    await send('GET', `${API}/events?per_page=2`, { headers: KEY, expect: 200 });

    for (let i = 0; i < 3; i++) await send('GET', `${API}/events`, { expect: 403 });
    for (let i = 0; i < 3; i++) await send('GET', `${API}/events/${first}`, { expect: 403 });
    await send('GET', `${API}/events/${second}`, { expect: 403 });
    await send('GET', `${API}/events?per_page=2`, { expect: 403 });
    await send('GET', `${API}/events`, { headers: { 'If-None-Match': list.headers.etag }, expect: 403 });
    await send('GET', `${API}/events/${first}`, { headers: { 'If-None-Match': single.headers.etag }, expect: 403 });
    await send('GET', `${API}/events/${first}`, { headers: ADMIN, expect: 403 });

    await send('GET', `${API}/events`, { headers: KEY, expect: 200, cached: true });
    await send('GET', `${API}/events`, { headers: { ...KEY, 'If-None-Match': list.headers.etag }, expect: 304 });
    const before = await readBack(first);
    await send('POST', `${API}/events/${first}`, { headers: { ...ADMIN, ...KEY }, body: { title: 'Refused edit' }, expect: 403 });
    expectEveryRequestSeen({ now: await readBack(first), before });
  });
});

/**
 * Where the extension and its server entry are compiled: beside the built service in dist/ (the
 * entry imports `../../src/lifecycle.js`), in a folder of this process's own, since the SQLite and
 * MariaDB runs of the suite may run side by side.
 */
const ENTRY_ROOT = `dist/one-way-in-${process.pid}`;

/** Compiles the extension and its server entry (test/support/one-way-in-*.ts) into {@link ENTRY_ROOT}. */
function buildServerEntry(): string {
  execFileSync(process.execPath, ['scripts/ensure-built.mjs'], { stdio: 'inherit' });
  const { options } = ts.parseJsonConfigFileContent(
    ts.readConfigFile('tsconfig.json', (path) => ts.sys.readFile(path)).config,
    ts.sys,
    '.',
  );
  mkdirSync(`${ENTRY_ROOT}/support`, { recursive: true });
  for (const name of ['one-way-in-extension', 'one-way-in-server']) {
    const source = readFileSync(`test/support/${name}.ts`, 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { ...options, module: ts.ModuleKind.ES2022, sourceMap: false },
      fileName: `${name}.ts`,
    });
    writeFileSync(`${ENTRY_ROOT}/support/${name}.js`, outputText);
  }
  return `${ENTRY_ROOT}/support/one-way-in-server.js`;
}

/**
 * The same property in the server process started the way docs/EXTENDING.md shows
 * (`serve({ modules: [...] })`, test/support/one-way-in-server.ts), with reads needing `X-Key`:
 * the extension writes each sighting to a file before the request goes on.
 */
describe('one way in: the server process of docs/EXTENDING.md (serve({ modules }))', () => {
  let dir: string;
  let file: string;
  let port: number;
  let child: ChildProcess | null = null;
  const log = requestLog(() => request(`http://127.0.0.1:${port}`));
  const send = log.send;
  const seen = (): Seen => {
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const by = (name: string) => lines.filter((line) => line.startsWith(`${name} `)).map((line) => line.slice(name.length + 1));
    return { middleware: by('middleware'), guard: by('guard'), interceptor: by('interceptor') };
  };

  beforeAll(async () => {
    const entry = buildServerEntry();
    dir = mkdtempSync(join(tmpdir(), 'one-way-in-'));
    file = join(dir, 'sightings.txt');
    writeFileSync(file, '');
    if (process.env.DATABASE_URL) await (await startTestApp()).close(); // empties the database
    port = await freePort();
    child = spawn(process.execPath, [entry], {
      env: {
        ...process.env,
        PORT: String(port),
        PUBLIC_URL,
        ADMIN_LOGIN: ADMIN_LOGIN.login,
        ADMIN_PASSWORD: ADMIN_LOGIN.password,
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        SIGHTINGS_FILE: file,
        READS_NEED_KEY: '1',
        ...(process.env.DATABASE_URL ? {} : { SQLITE_PATH: join(dir, 'server.sqlite') }),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    let exited = false;
    child.once('exit', () => (exited = true));
    // started once the administrator answers (it is created right after the port opens)
    for (const until = Date.now() + 60_000; ;) {
      const ready = await request(`http://127.0.0.1:${port}`)
        .get(`${API}/webhooks`)
        .set({ ...ADMIN, ...KEY })
        .then((res) => res.status === 200)
        .catch(() => false);
      if (ready) break;
      if (exited || Date.now() > until) throw new Error('the server did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    writeFileSync(file, ''); // the sightings of the start-up probes
  }, 240_000);
  afterAll(() => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    rmSync(ENTRY_ROOT, { recursive: true, force: true });
  });

  it('sees every request, and refuses writes without X-Tenant and reads without X-Key every time, cached or not', async () => {
    const withTenant = { ...ADMIN, ...TENANT };
    const created = async (title: string) =>
      (await send('POST', `${API}/events`, { headers: withTenant, body: eventBody({ title }), expect: 201 })).body.id as number;
    const [a, b] = [await created('Process A'), await created('Process B')];
    for (let i = 0; i < 3; i++) await send('POST', `${API}/events`, { headers: ADMIN, body: eventBody({ title: 'Refused' }), expect: 403 });
    await send('POST', `${API}/events/${a}`, { headers: withTenant, body: { title: 'Process A (edited)' }, expect: 200 });
    for (const id of [a, b]) await send('POST', `${API}/events/${id}`, { headers: ADMIN, body: { title: 'Refused' }, expect: 403 });
    await send('DELETE', `${API}/events/${b}`, { headers: withTenant, expect: 200 });
    for (let i = 0; i < 2; i++) await send('DELETE', `${API}/events/${a}`, { headers: ADMIN, expect: 403 });

    const list = await send('GET', `${API}/events`, { headers: KEY, expect: 200 });
    await send('GET', `${API}/events`, { headers: KEY, expect: 200, cached: true });
    await send('GET', `${API}/events/${a}`, { headers: KEY, expect: 200 });
    await send('GET', `${API}/events/${a}`, { headers: KEY, expect: 200, cached: true });
    for (let i = 0; i < 3; i++) await send('GET', `${API}/events`, { expect: 403 });
    for (let i = 0; i < 2; i++) await send('GET', `${API}/events/${a}`, { expect: 403 });
    await send('GET', `${API}/events`, { headers: { 'If-None-Match': list.headers.etag }, expect: 403 });
    await send('GET', `${API}/events`, { headers: { ...KEY, 'If-None-Match': list.headers.etag }, expect: 304 });

    const record = await send('GET', `${API}/events/${a}`, { headers: { ...ADMIN, ...KEY }, expect: 200 });
    log.expectEveryRequestSeen(seen(), {
      now: { title: record.body.title, status: record.body.status },
      before: { title: 'Process A (edited)', status: 'publish' },
    });
  });
});
