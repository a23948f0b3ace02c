// The benchmark. Starts the built service against MySQL/MariaDB in the recommended production
// settings and in the defaults, seeds the calendar to each size, and drives every scenario with
// autocannon (loopback only, bounded duration and connections, pipelining off), each beside its
// yardsticks measured in the same run: node:http serving the service's own answers from memory
// (bench/memory-server.mjs), the framework floor, a bare Nest + Express app serving the same answers
// from one controller (bench/framework-floor.mjs), and for uncached reads and writes a hand-written
// node:http + mysql2 handler doing the same reads and transactions (bench/baseline.mjs). Prints
// the table and the targets (bench/report.mjs); a full run writes bench/results/latest.json and
// docs/bench.svg. docs/PERFORMANCE.md describes the method.
//
//   npm run bench -- [--quick] [--sizes 1000,100000,1000000] [--settings production|default|both]
//                    [--only <text>] [--duration 10] [--connections 32] [--keep] [--port 3900] [--node-flags "..."]
//                    [--rounds 3]
//   node bench/bench.mjs --chart-only        (redraws docs/bench.svg from bench/results/latest.json)
//   npm run bench -- --edge [options of bench/edge.mjs]   (reads through the cache in front of deploy/ beside node:http)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { answerOf, API_PREFIX } from './answers.mjs';
import { chart, checkLines, labelOf, pairLines, sideBySide, targets } from './report.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (process.argv.includes('--edge')) {
  const edge = spawnSync(process.execPath, [join(root, 'bench/edge.mjs'), ...process.argv.slice(2).filter((arg) => arg !== '--edge')], {
    stdio: 'inherit',
  });
  process.exit(edge.status ?? 1);
}
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    settings: { type: 'string', default: 'both' },
    only: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string', default: '32' },
    keep: { type: 'boolean', default: false },
    port: { type: 'string', default: '3900' },
    'node-flags': { type: 'string' },
    rounds: { type: 'string' },
    'chart-only': { type: 'boolean', default: false },
  },
});

if (args['chart-only']) {
  const latest = JSON.parse(readFileSync(join(root, 'bench/results/latest.json'), 'utf8'));
  writeFileSync(join(root, 'docs/bench.svg'), chart(latest.results, latest));
  process.exit(0);
}

const quick = args.quick;
const sizes = (args.sizes ?? (quick ? '1000,100000' : '1000,100000,1000000')).split(',').map(Number);
const settingsModes = args.settings === 'both' ? ['production', 'default'] : [args.settings];
if (!settingsModes.every((mode) => ['production', 'default'].includes(mode))) throw new Error('--settings is production, default or both');
const connections = Number(args.connections);
// Seconds per measurement and of warm-up: reads get a fixed warm-up; writes through a database get
// slices until one runs within 5 % of the one before (a fresh server's write path takes some
// seconds of load to reach its rate, and the first second of a cold create has p99s of seconds).
const timing = quick
  ? { duration: Number(args.duration ?? 3), readWarmUp: 1, writeSlice: 3, writeSlices: 2, trashReserve: 10000 }
  : { duration: Number(args.duration ?? 10), readWarmUp: 2, writeSlice: 5, writeSlices: 4, trashReserve: 30000 };
const only = args.only;
// Every program is started as `npm run start:prod` starts the service (its Node flags), unless --node-flags says otherwise.
const nodeFlags = (
  args['node-flags'] ??
  /^(?:exec )?node ((?:--\S+ )*)dist\/src\/main\.js$/.exec(
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts['start:prod'] ?? '',
  )?.[1] ??
  ''
)
  .split(' ')
  .filter(Boolean);
const databaseUrl = process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/calendar_bench';
const port = Number(args.port);
const admin = { login: 'bench-admin', password: 'bench-password-1' };
const authorization = `Basic ${Buffer.from(`${admin.login}:${admin.password}`).toString('base64')}`;
// Every request comes as through a reverse proxy on the same machine, from one client address. In
// the production settings the service trusts the proxy (TRUST_PROXY=loopback) and counts this
// client's requests against a limit it never reaches in a run, so that the limiter runs on every
// request and refuses none (a 429 would show as an unexpected status).
const clientHeaders = { 'x-forwarded-for': '203.0.113.10' };
// Content in every edition (issue 48): the calendar's records are translated into these editions
// when seeded, and the lists through an edition are read through the first of them.
const TRANSLATED_EDITIONS = ['de', 'fr', 'es'];
const EDITION_PREFIX = `/${TRANSLATED_EDITIONS[0]}${API_PREFIX}`;
// Rounds of a list through an edition and the same list through the default path, measured in
// turn; and of each cached read and the framework floor, measured in turn (their targets compare
// the medians of the rounds' ratios: one measurement of each moves by a fifth from minute to minute).
const PAIR_ROUNDS = Number(args.rounds ?? (quick ? 2 : 3));
if (!Number.isInteger(PAIR_ROUNDS) || PAIR_ROUNDS < 1) throw new Error('--rounds is a whole number of at least 1');

/**
 * The service's environment in each settings mode: nothing of the caller's environment but the
 * path, so that "default" means the defaults. Production: as docs/OPERATIONS.md and
 * deploy/compose.yaml recommend for one process (in-memory limiter counters, no Redis).
 */
const SETTINGS = {
  production: {
    TRUST_PROXY: 'loopback',
    RATE_LIMIT_PER_MINUTE: '10000000',
    RESPONSE_CACHE: 'on',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
    PUBLIC_URL: 'https://calendar.example.org',
  },
  default: {},
};
const baseEnv = { PATH: process.env.PATH, DATABASE_URL: databaseUrl, ADMIN_LOGIN: admin.login, ADMIN_PASSWORD: admin.password };

function run(command, commandArgs) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd: root, env: baseEnv, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${commandArgs.join(' ')} exited ${code}`))));
  });
}

/** Starts a Node program with the service's Node flags (its output to /dev/null, errors shown) and waits until it is ready. */
async function startProcess(program, env, what) {
  const child = spawn(process.execPath, [...nodeFlags, program], {
    cwd: root,
    env: { ...baseEnv, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const ready = `http://127.0.0.1:${env.PORT}/health/ready`;
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(ready)).ok) return { child, base: `http://127.0.0.1:${env.PORT}`, what };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${what} did not become ready`);
}

async function stopProcess(started) {
  if (!started || started.child.exitCode !== null) return;
  const exited = new Promise((resolve) => started.child.on('exit', resolve));
  started.child.kill('SIGTERM');
  await exited;
}

function residentMegabytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function withConnection(work) {
  const connection = await mysql.createConnection(databaseUrl);
  try {
    return await work(connection);
  } finally {
    await connection.end();
  }
}

/**
 * Waits until MariaDB has caught up with the bulk load (purge of old row versions, dirty pages
 * flushed), so that background work on the same cores does not distort the measurements.
 */
async function settle(connection) {
  const started = Date.now();
  let previousDirty = Infinity;
  for (;;) {
    const [[history]] = await connection.query(
      "SELECT `count` AS n FROM information_schema.INNODB_METRICS WHERE name = 'trx_rseg_history_len'",
    );
    const [[dirty]] = await connection.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'");
    const pending = { history: Number(history?.n ?? 0), dirty: Number(dirty?.Value ?? 0) };
    // Purge done, and page flushing finished or no longer making progress (InnoDB keeps some dirty pages when idle).
    const flushed = pending.dirty < 500 || pending.dirty >= previousDirty;
    previousDirty = pending.dirty;
    if ((pending.history < 1000 && flushed) || Date.now() - started > 300_000) {
      console.log(
        `   database settled in ${Math.round((Date.now() - started) / 1000)} s (purge backlog ${pending.history}, dirty pages ${pending.dirty})`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}

/**
 * Waits until no statement runs in the database, for at most two minutes: a scenario can leave
 * statements behind when its load generator stops (the hand-written handler sets no time limit on
 * its statements; at 1M events its uncached list counts outlive their scenario).
 */
async function quiet() {
  await withConnection(async (connection) => {
    const started = Date.now();
    for (;;) {
      const [[running]] = await connection.query(
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE COMMAND = 'Query' AND ID <> CONNECTION_ID()",
      );
      const waited = Date.now() - started;
      if (Number(running.n) === 0 || waited > 120_000) {
        if (waited > 1000)
          console.log(`   waited ${Math.round(waited / 1000)} s for ${running.n > 0 ? 'running' : 'no more'} statements in the database`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
}

/** The rows the scenarios use: an upcoming published event, and the organizer, category and tag a create links. */
async function fixtures(connection) {
  const [[event]] = await connection.query(
    "SELECT id FROM events WHERE status = 'publish' AND hide_from_listings = 0 AND start_utc > NOW() ORDER BY id LIMIT 1",
  );
  const [[category]] = await connection.query('SELECT category_id AS id FROM event_categories ORDER BY category_id LIMIT 1');
  const [[tag]] = await connection.query('SELECT id FROM tags ORDER BY id LIMIT 1');
  const [[organizer]] = await connection.query("SELECT id FROM organizers WHERE status = 'publish' ORDER BY id LIMIT 1");
  return { event, category, tag, organizer };
}

/** Published events outside any series other than the single-event scenario's, newest first (the creates' own). */
async function writableEvents(fx, limit) {
  return withConnection(async (connection) => {
    const [rows] = await connection.query(
      "SELECT id FROM events WHERE status = 'publish' AND series_id IS NULL AND id <> ? ORDER BY id DESC LIMIT ?",
      [fx.event.id, limit],
    );
    return rows.map((row) => row.id);
  });
}

/**
 * Trash runs use events up. Before one that writes, the calendar gets at least `reserve` events it
 * may trash, seeded (a data set of its own, `bench-extra`) when there are fewer: on a small
 * calendar the fastest target would otherwise trash them all within its warm-up. The events added
 * stay, for this size's later measurements and the next size.
 */
let extraEvents = 0;
async function ensureWritable(fx, reserve) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const missing = reserve - (await writableEvents(fx, reserve)).length;
    if (missing <= 0) return;
    // about four seeded events in five are published and outside any series
    extraEvents += Math.ceil(missing * 1.3);
    console.log(`   seeding ${Math.ceil(missing * 1.3)} more events to trash`);
    await run(process.execPath, [
      'dist/src/cli/seed.js',
      '--events',
      String(extraEvents),
      '--run-id',
      'bench-extra',
      '--translations',
      TRANSLATED_EDITIONS.join(','),
    ]);
    await withConnection(settle);
  }
}

/**
 * The scenarios. Each is one request shape sent alike to the service and to its yardsticks:
 * `cache` says which instance of the service answers it (the response cache on or off),
 * `yardsticks` which yardsticks it is measured beside, `route` which stored answer the in-memory
 * yardsticks give.
 */
function scenarios(fx) {
  const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  let counter = 0;
  const writeHeaders = { ...clientHeaders, authorization, 'content-type': 'application/json' };
  const createBody = () =>
    JSON.stringify({
      title: `Bench create ${process.pid}-${++counter}`,
      start_date: `${day(10)} 18:00:00`,
      end_date: `${day(10)} 20:00:00`,
      organizer: [fx.organizer.id],
      categories: [fx.category.id],
      tags: [fx.tag.id],
    });
  // Updates and trashes go to a different existing event per request, read before each
  // measurement. Updates may come back to an event (the list starts over); a trash may not (a
  // trashed event answers 410), so a trash run that writes stops when its events are used up
  // (`remaining`): on a small calendar the fastest target can trash them all within its run.
  const onEvents = (name, method, route, limit, body) => {
    const targets = { ids: [], next: 0 };
    return {
      name,
      method,
      route,
      write: true,
      cache: 'on',
      yardsticks: ['floor', 'memory', 'handler'],
      headers: body ? writeHeaders : { ...clientHeaders, authorization },
      prepare: async () => Object.assign(targets, { ids: await writableEvents(fx, limit), next: 0 }),
      ...(method === 'DELETE' && {
        remaining: () => targets.ids.length - targets.next,
        ensure: () => ensureWritable(fx, Math.min(limit, timing.trashReserve)),
      }),
      setupRequest: (request) => ({
        ...request,
        method,
        path: `${API_PREFIX}/events/${targets.ids[targets.next++ % targets.ids.length]}`,
        ...(body && { body: body() }),
      }),
    };
  };
  const reads = ['floor', 'memory'];
  // A list through an edition (its records translated, answered in its language with the language
  // keys) is measured in rounds beside the same list through the default path (its `twin`), in turn.
  const throughEdition = (name, path, twinName) => ({
    name,
    path,
    prefix: EDITION_PREFIX,
    cache: 'off',
    yardsticks: [],
    twin: { name: twinName, path, cache: 'off', yardsticks: [] },
  });
  return [
    // the list and its revalidation in the same rounds: the 304's target compares the two
    { name: 'cached list', path: '/events', route: 'list', cache: 'on', yardsticks: reads, rounds: 'list' },
    // every answer a 304: If-None-Match carries the entity tag each target gives the list
    {
      name: '304 revalidation of the list',
      path: '/events',
      route: 'list',
      cache: 'on',
      revalidate: true,
      yardsticks: reads,
      rounds: 'list',
    },
    { name: 'cached single event', path: `/events/${fx.event.id}`, route: 'single', cache: 'on', yardsticks: reads, rounds: 'single' },
    { name: 'uncached list', path: '/events', route: 'list', cache: 'off', yardsticks: [...reads, 'handler'] },
    throughEdition('uncached list through an edition', '/events', 'uncached list'),
    throughEdition('uncached list through an edition, 50 per page', '/events?per_page=50', 'uncached list, 50 per page'),
    { name: 'uncached single event', path: `/events/${fx.event.id}`, route: 'single', cache: 'off', yardsticks: [...reads, 'handler'] },
    {
      name: 'create with organizer + category + tag',
      method: 'POST',
      path: '/events',
      route: 'create',
      write: true,
      cache: 'on',
      yardsticks: ['floor', 'memory', 'handler'],
      headers: writeHeaders,
      setupRequest: (request) => ({ ...request, method: 'POST', body: createBody() }),
    },
    onEvents('title update', 'POST', 'update', 30000, () => JSON.stringify({ title: `Bench update ${process.pid}-${++counter}` })),
    onEvents('trash', 'DELETE', 'trash', 200000, null),
  ].filter((scenario) => only === undefined || only.split(',').some((text) => scenario.name.includes(text)));
}

/**
 * Drives one target for `seconds`, or until it has answered `amount` requests when that is given
 * (a run whose requests use something up); answers autocannon's result and the requests per second.
 */
function drive(base, scenario, seconds, amount) {
  return new Promise((resolve, reject) => {
    let timer = null;
    const instance = autocannon(
      {
        url: `${base}${scenario.prefix ?? API_PREFIX}${scenario.path ?? '/events'}`,
        method: scenario.method ?? 'GET',
        connections,
        pipelining: 1,
        ...(amount === undefined ? { duration: seconds } : { amount }),
        headers: scenario.headers ?? clientHeaders,
        requests: scenario.setupRequest ? [{ setupRequest: scenario.setupRequest }] : undefined,
      },
      (error, result) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve({ result, rate: result.requests.total / Math.max(result.duration, 0.01) });
      },
    );
    if (amount !== undefined) timer = setTimeout(() => instance.stop(), seconds * 1000);
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

/**
 * How many requests a run may send when it uses up events (less a margin for the requests built
 * ahead), or undefined when it uses nothing up; `share` of what is left.
 */
function allowance(scenario, consumes, share = 1) {
  if (!consumes || !scenario.remaining) return undefined;
  return Math.floor((scenario.remaining() - 2 * connections) * share);
}

/** The same load before the measurement, so that a path is not measured while it is still being compiled; answers the seconds it took. */
async function warmUp(base, scenario, throughDatabase) {
  if (!throughDatabase) {
    await drive(base, scenario, timing.readWarmUp);
    return timing.readWarmUp;
  }
  let before = null;
  let spent = 0;
  for (let slice = 1; slice <= timing.writeSlices; slice++) {
    // a run that uses up events keeps at least half of them for the measurement
    const amount = allowance(scenario, true, 0.5);
    if (amount !== undefined && amount < connections) break;
    const { result, rate } = await drive(base, scenario, timing.writeSlice, amount);
    spent += result.duration;
    if (before !== null && Math.abs(rate - before) <= 0.05 * before) break;
    before = rate;
  }
  return Math.round(spent);
}

const results = [];

/**
 * Waits for a quiet database, warms up, drives one scenario against one target, records and prints
 * its row (with `extra`: a round of a pair, see {@link measurePair}).
 */
async function measure(size, target, settings, base, scenario, extra = {}) {
  const throughDatabase = scenario.write && (target === 'service' || target === 'handler');
  if (throughDatabase) await scenario.ensure?.();
  await quiet();
  await scenario.prepare?.();
  const request = scenario.revalidate
    ? {
        ...scenario,
        headers: { ...clientHeaders, 'if-none-match': (await fetch(`${base}${API_PREFIX}${scenario.path}`)).headers.get('etag') ?? '' },
      }
    : scenario;
  const warmedFor = await warmUp(base, request, throughDatabase);
  const amount = allowance(scenario, throughDatabase);
  const row = { size, target, ...(settings && { settings, cache: scenario.cache }), scenario: scenario.name, ...extra };
  if (amount !== undefined && amount < connections) {
    results.push({ ...row, skipped: 'no events left to trash' });
    console.log(
      `${String(size).padStart(8)}  ${labelOf(row).padEnd(32)}  ${scenario.name.padEnd(40)} not measured: no events left to trash`,
    );
    return;
  }
  const { result, rate } = await drive(base, request, timing.duration, amount);
  const expected = scenario.revalidate ? 304 : null;
  Object.assign(row, {
    requestsPerSecond: Math.round(rate),
    seconds: result.duration,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    // answers with another status than the scenario expects (2xx, or 304 for a revalidation)
    non2xx: expected === null ? result.non2xx : result.requests.total - (result.statusCodeStats?.[expected]?.count ?? 0),
    errors: result.errors + result.timeouts,
    warmUpSeconds: warmedFor,
  });
  const short = result.duration < timing.duration - 0.5 ? `, events used up after ${result.duration} s` : '';
  results.push(row);
  console.log(
    `${String(size).padStart(8)}  ${labelOf(row).padEnd(32)}  ${`${scenario.name}${extra.round ? ` (round ${extra.round})` : ''}`.padEnd(40)} ${String(row.requestsPerSecond).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  unexpected ${row.non2xx}  errors ${row.errors}  (warm-up ${warmedFor} s${short})`,
  );
}

/**
 * A scenario with a twin (a list through an edition): the twin and the scenario measured in turn on
 * the same service, `PAIR_ROUNDS` rounds, which goes first alternating; each row names the pair and
 * its round (bench/report.mjs compares the medians).
 */
async function measurePair(size, settings, base, scenario) {
  for (let round = 1; round <= PAIR_ROUNDS; round++) {
    const turn = round % 2 === 1 ? [scenario.twin, scenario] : [scenario, scenario.twin];
    for (const measured of turn) await measure(size, 'service', settings, base, measured, { pair: scenario.name, round });
  }
}

/**
 * The service's answers to the scenarios' requests, taken once from `service` for the in-memory
 * yardsticks: the list, the single event, and one create, title update and trash.
 */
async function takeAnswers(service, fx, file) {
  const api = `${service.base}${API_PREFIX}`;
  const [updated, trashed] = await writableEvents(fx, 2);
  const write = { ...clientHeaders, authorization, 'content-type': 'application/json' };
  // the writes first: they change what the list answers, and the reads are measured before any write
  const answers = {
    create: await answerOf(
      await fetch(`${api}/events`, {
        method: 'POST',
        headers: write,
        body: JSON.stringify({
          title: `Bench answer ${process.pid}`,
          start_date: '2030-01-10 18:00:00',
          end_date: '2030-01-10 20:00:00',
          organizer: [fx.organizer.id],
          categories: [fx.category.id],
          tags: [fx.tag.id],
        }),
      }),
    ),
    update: await answerOf(
      await fetch(`${api}/events/${updated}`, {
        method: 'POST',
        headers: write,
        body: JSON.stringify({ title: `Bench answer ${process.pid}` }),
      }),
    ),
    trash: await answerOf(await fetch(`${api}/events/${trashed}`, { method: 'DELETE', headers: { ...clientHeaders, authorization } })),
  };
  answers.list = await answerOf(await fetch(`${api}/events`, { headers: clientHeaders }));
  answers.single = await answerOf(await fetch(`${api}/events/${fx.event.id}`, { headers: clientHeaders }));
  for (const [route, answer] of Object.entries(answers))
    if (answer.status >= 300)
      throw new Error(`the service answered ${answer.status} to the ${route} request: ${Buffer.from(answer.body, 'base64')}`);
  writeFileSync(file, JSON.stringify(answers));
  return answers;
}

/** Checks that a yardstick answers every route with the service's status, content type and body. */
async function checkSameBytes(yardstick, answers, fx) {
  const requests = {
    list: ['GET', '/events'],
    single: ['GET', `/events/${fx.event.id}`],
    create: ['POST', '/events'],
    update: ['POST', `/events/${fx.event.id}`],
    trash: ['DELETE', `/events/${fx.event.id}`],
  };
  for (const [route, [method, path]] of Object.entries(requests)) {
    const response = await fetch(`${yardstick.base}${API_PREFIX}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method === 'POST' && { body: '{}' }),
    });
    const body = Buffer.from(await response.arrayBuffer()).toString('base64');
    const expected = answers[route];
    const sameType = (response.headers.get('content-type') ?? '').toLowerCase() === (expected.headers['content-type'] ?? '').toLowerCase();
    if (response.status !== expected.status || body !== expected.body || !sameType)
      throw new Error(
        `${yardstick.what} answers ${method} ${path} with ${response.status} ${response.headers.get('content-type')}, ${body.length} base64 bytes; the service with ${expected.status} ${expected.headers['content-type']}, ${expected.body.length}`,
      );
  }
  const sizesOf = Object.entries(answers).map(([route, answer]) => `${route} ${Buffer.from(answer.body, 'base64').length} B`);
  console.log(`   ${yardstick.what} answers the service's status, content type and body (${sizesOf.join(', ')})`);
}

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGB: Math.round(totalmem() / 2 ** 30),
  kernel: release(),
  node: process.version,
  database: '',
};

// The database: dropped first only when its name says it is for benchmarks (sizes then grow from an empty calendar).
const database = new URL(databaseUrl).pathname.slice(1);
{
  const server = new URL(databaseUrl);
  server.pathname = '/';
  const connection = await mysql.createConnection(server.toString());
  const [[version]] = await connection.query('SELECT VERSION() AS v');
  machine.database = version.v;
  if (!args.keep && /bench/i.test(database)) await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
  else console.log(`Keeping the data of \`${database}\`: the seeder only adds what is missing.`);
  await connection.query(`CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await connection.end();
}
console.log(
  `${machine.cores} × ${machine.cpu}, ${machine.memoryGB} GB, Linux ${machine.kernel}, Node ${machine.node}, ${machine.database}; ` +
    `sizes ${sizes.join(', ')}; settings ${settingsModes.join(', ')}; ${connections} connections, ${timing.duration} s per measurement`,
);

// The administrator the writes authenticate as (kept when it exists already).
await run(process.execPath, [
  'dist/src/cli/main.js',
  'user:create',
  '--login',
  admin.login,
  '--role',
  'administrator',
  '--password',
  admin.password,
]).catch(() => undefined);
for (const size of sizes) {
  console.log(`\n== ${size} events: seeding`);
  await run(process.execPath, [
    'dist/src/cli/seed.js',
    '--events',
    String(size),
    '--run-id',
    'bench',
    '--translations',
    TRANSLATED_EDITIONS.join(','),
  ]);
  const fx = await withConnection(async (connection) => {
    await connection.query('ANALYZE TABLE events, event_categories, event_tags, event_organizers, venues, organizers, categories, tags');
    await settle(connection);
    return fixtures(connection);
  });
  const measured = scenarios(fx);
  const caches = [...new Set(measured.map((scenario) => scenario.cache))];
  // Every process stays up for the whole size, those not driven idle, so that each scenario is
  // measured on the service and on its yardsticks within a minute: on a shared machine the same
  // code's figures move by a fifth from one minute to the next.
  const started = [];
  const file = join(tmpdir(), `bench-answers-${process.pid}.json`);
  try {
    const services = {};
    let offset = 0;
    for (const settings of settingsModes)
      for (const cache of caches) {
        const env = { ...SETTINGS[settings], ...(cache === 'off' && { RESPONSE_CACHE: 'off' }), PORT: String(port + offset++) };
        const service = await startProcess('dist/src/main.js', env, `the service (${settings} settings, cache ${cache})`);
        started.push(service);
        services[`${settings}/${cache}`] = service;
      }
    const answers = await takeAnswers(services[`${settingsModes[0]}/on`] ?? services[`${settingsModes[0]}/off`], fx, file);
    const yardsticks = {
      floor: await startProcess('bench/framework-floor.mjs', { PORT: String(port + 30), BYTES_FILE: file }, 'the framework floor'),
      memory: await startProcess('bench/memory-server.mjs', { PORT: String(port + 20), BYTES_FILE: file }, 'node:http from memory'),
      handler: await startProcess('bench/baseline.mjs', { PORT: String(port + 10) }, 'the hand-written handler'),
    };
    started.push(...Object.values(yardsticks));
    await checkSameBytes(yardsticks.floor, answers, fx);
    await checkSameBytes(yardsticks.memory, answers, fx);
    // A first load for every program just started, so that the first scenario does not find one colder than the others.
    for (const program of started) await drive(program.base, { path: '/events' }, 2 * timing.readWarmUp);

    // Scenarios measured in rounds together (`rounds` names the group): each round takes each of them in turn.
    const units = [];
    for (const scenario of measured) {
      const last = units.at(-1);
      if (scenario.rounds && last?.[0].rounds === scenario.rounds) last.push(scenario);
      else units.push([scenario]);
    }
    for (const unit of units) {
      if (unit[0].twin) {
        for (const settings of settingsModes) await measurePair(size, settings, services[`${settings}/${unit[0].cache}`].base, unit[0]);
        continue;
      }
      // The floor right after each settings mode of the service: the ratio the targets name
      // compares figures taken next to each other; for a cached read, in rounds, which goes first
      // alternating (bench/report.mjs takes the median of the rounds' ratios).
      const [first, ...others] = settingsModes;
      const rounds = unit[0].rounds ? PAIR_ROUNDS : 1;
      for (let round = 1; round <= rounds; round++) {
        const extra = rounds > 1 ? { round } : {};
        for (const scenario of unit) {
          const service = () => measure(size, 'service', first, services[`${first}/${scenario.cache}`].base, scenario, extra);
          const floor = () => measure(size, 'floor', null, yardsticks.floor.base, scenario, extra);
          for (const turn of round % 2 === 1 ? [service, floor] : [floor, service]) await turn();
        }
      }
      for (const scenario of unit) {
        for (const settings of others) await measure(size, 'service', settings, services[`${settings}/${scenario.cache}`].base, scenario);
        for (const yardstick of scenario.yardsticks.filter((name) => name !== 'floor'))
          await measure(size, yardstick, null, yardsticks[yardstick].base, scenario);
      }
    }
    for (const [key, service] of Object.entries(services)) {
      const [settings, cache] = key.split('/');
      const rss = residentMegabytes(service.child.pid);
      results.push({ size, target: 'service', settings, cache, scenario: 'resident memory after the run (MB)', rss });
      console.log(`${String(size).padStart(8)}  ${service.what}: resident memory after the run ${rss} MB`);
    }
    const floorRss = residentMegabytes(yardsticks.floor.child.pid);
    results.push({ size, target: 'floor', scenario: 'resident memory after the run (MB)', rss: floorRss });
    console.log(`${String(size).padStart(8)}  the framework floor: resident memory after the run ${floorRss} MB`);
  } finally {
    for (const program of started) await stopProcess(program);
    rmSync(file, { force: true });
  }
}

console.log('');
for (const line of sideBySide(results)) console.log(line);
const paired = pairLines(results);
if (paired.length > 0) console.log(['', ...paired].join('\n'));
const checks = targets(results);
console.log('\ntargets (issue 44, item 5; issue 48)');
for (const line of checkLines(checks)) console.log(line);

const full = only === undefined && !quick && args.sizes === undefined;
const report = {
  date: new Date().toISOString(),
  machine,
  settings: settingsModes,
  duration: timing.duration,
  connections,
  sizes,
  quick,
  only: only ?? null,
  results,
  targets: checks,
};
mkdirSync(join(root, 'bench/results'), { recursive: true });
// Only a full run replaces the results kept in the repository (older runs are in its history).
const saved = full ? 'bench/results/latest.json' : 'bench/results/partial.json';
writeFileSync(join(root, saved), `${JSON.stringify(report, null, 2)}\n`);
if (full) writeFileSync(join(root, 'docs/bench.svg'), chart(results, report));
console.log(`\nResults: ${saved}${full ? ', chart: docs/bench.svg' : ''}`);
