// Benchmark: starts the built production server against MySQL/MariaDB, seeds the calendar to each
// size, warms up, and drives the server with autocannon over fixed scenarios (loopback only,
// bounded duration and connections). Prints a table, writes JSON to bench/results/ and a chart to
// docs/bench.svg. Every scenario is printed beside its yardstick from the same run: cached reads
// beside plain `node:http` serving the same bytes from memory (bench/memory-server.mjs), uncached
// reads and writes beside a minimal hand-written Node + mysql2 handler (bench/baseline.mjs); at
// the end it checks the targets (bench/report.mjs).
//
//   npm run bench -- [--sizes 1000,100000,1000000] [--duration 10] [--connections 32] [--cache on|off|both] [--keep true] [--node-flags "..."]
//                    [--only <text>]   (only the scenarios whose name contains the text; the run is then
//                                       saved under bench/results/ but does not replace latest.json or the chart)
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { chart, seriesLabel, sideBySide, targets } from './report.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, index, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[index + 1]]] : pairs), []),
);
const sizes = String(args.sizes ?? '1000,100000,1000000')
  .split(',')
  .map(Number);
const duration = Number(args.duration ?? 10);
const connections = Number(args.connections ?? 32);
const cacheModes = (args.cache ?? 'both') === 'both' ? ['on', 'off'] : [args.cache];
const only = args.only === undefined ? undefined : String(args.only);
// The server runs with the Node flags of `npm run start:prod` (heap sizing), unless --node-flags says otherwise.
const nodeFlags = String(
  args['node-flags'] ??
    /^node ((?:--\S+ )*)dist\/src\/main\.js$/.exec(
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts['start:prod'] ?? '',
    )?.[1] ??
    '',
)
  .split(' ')
  .filter(Boolean);
const databaseUrl = process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/calendar_bench';
const port = Number(args.port ?? 3900);
const base = `http://127.0.0.1:${port}`;
const api = `${base}/wp-json/tribe/events/v1`;
const admin = { login: 'bench-admin', password: 'bench-password-1' };
const auth = `Basic ${Buffer.from(`${admin.login}:${admin.password}`).toString('base64')}`;

if (args['chart-only'] !== undefined) {
  // Redraw docs/bench.svg from bench/results/latest.json without running anything.
  const latest = JSON.parse(readFileSync(join(root, 'bench/results/latest.json'), 'utf8'));
  writeFileSync(
    join(root, 'docs/bench.svg'),
    chart(
      latest.results.filter((row) => row.requestsPerSecond !== undefined),
      latest,
    ),
  );
  process.exit(0);
}

const url = new URL(databaseUrl);
const database = url.pathname.slice(1);
{
  const server = new URL(databaseUrl);
  server.pathname = '/';
  const connection = await mysql.createConnection(server.toString());
  // Sizes grow from an empty calendar unless --keep is given (the seeder only adds what is missing).
  // Only a database whose name says it is for benchmarks is ever dropped.
  if (args.keep === undefined && /bench/i.test(database)) await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
  else console.log(`Keeping the data of \`${database}\`: the seeder only adds what is missing.`);
  await connection.query(`CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await connection.end();
}

const env = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  PORT: String(port),
  LOG_REQUESTS: 'false',
  LOG_LEVEL: 'warn',
  ADMIN_LOGIN: admin.login,
  ADMIN_PASSWORD: admin.password,
  RATE_LIMIT_PER_MINUTE: '0',
};

function run(command, commandArgs, extraEnv = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${commandArgs.join(' ')} exited ${code}`))));
  });
}

/** Starts a Node program and waits until its readiness URL answers. */
async function startProcess(programArgs, extraEnv, readyUrl, what) {
  const child = spawn(process.execPath, programArgs, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(readyUrl)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${what} did not become ready`);
}

async function stopProcess(child) {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
}

function residentMegabytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
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

async function fixtures(connection) {
  const [[event]] = await connection.query(
    "SELECT id, slug FROM events WHERE status = 'publish' AND hide_from_listings = 0 AND start_utc > NOW() ORDER BY id LIMIT 1",
  );
  const [[link]] = await connection.query(
    "SELECT ec.category_id AS category, e.venue_id AS venue, e.id AS event FROM events e JOIN event_categories ec ON ec.event_id = e.id WHERE e.status = 'publish' AND e.venue_id IS NOT NULL AND e.start_utc > NOW() ORDER BY e.id LIMIT 1",
  );
  const [[tag]] = await connection.query('SELECT id FROM tags ORDER BY id LIMIT 1');
  const [[organizer]] = await connection.query("SELECT id FROM organizers WHERE status = 'publish' ORDER BY id LIMIT 1");
  return { event, link, linkEvent: link.event, tag, organizer };
}

function scenarios(fx) {
  const today = new Date();
  const day = (offset) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  let counter = 0;
  const createBody = (fields) => ({
    title: `Bench create ${process.pid}-${++counter}`,
    start_date: `${day(10)} 18:00:00`,
    end_date: `${day(10)} 20:00:00`,
    ...fields,
  });
  const create = (name, fields) => ({
    name,
    path: '/events',
    method: 'POST',
    setupRequest: (request) => ({
      ...request,
      headers: { ...request.headers, authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(createBody(fields)),
    }),
    // the yardstick: the hand-written handler's one transaction with the same rows
    ...(fields.organizer && {
      handler: (handlerBase) => ({
        name,
        url: `${handlerBase}/events`,
        method: 'POST',
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'content-type': 'application/json' },
          body: JSON.stringify(createBody({ ...fields, title: `Handler create ${process.pid}-${++counter}` })),
        }),
      }),
    }),
  });
  // Updates and trashes go to existing published events outside any series, newest first (the
  // creates' own), a different one per request: `prepare` reads up to `limit` of them before the
  // warm-up. Updates may come back to an event (the list starts over); a trash may not (a trashed
  // event answers 410), so the trash reads enough for its warm-up and run at any rate seen here.
  const apiPath = new URL(api).pathname;
  const onEvents = (name, method, body, handlerTitle, limit = 30000) => {
    const targets = { ids: [], next: 0 };
    const request = (prefix, authorization, title) => (request) => {
      const id = targets.ids[targets.next++ % targets.ids.length];
      return {
        ...request,
        method,
        path: `${prefix}/events/${id}`,
        headers: { ...request.headers, ...authorization, ...(body && { 'content-type': 'application/json' }) },
        ...(body && { body: JSON.stringify(body(title)) }),
      };
    };
    const prepare = async () => {
      const connection = await mysql.createConnection(databaseUrl);
      const [rows] = await connection.query(
        "SELECT id FROM events WHERE status = 'publish' AND series_id IS NULL AND id NOT IN (?, ?) ORDER BY id DESC LIMIT ?",
        [fx.event.id, fx.linkEvent, limit],
      );
      await connection.end();
      Object.assign(targets, { ids: rows.map((row) => row.id), next: 0 });
    };
    return {
      name,
      path: '/events',
      method,
      prepare,
      setupRequest: request(apiPath, { authorization: auth }, 'Bench'),
      handler: (handlerBase) => ({
        name,
        url: `${handlerBase}/events`,
        method,
        prepare,
        setupRequest: request('', {}, handlerTitle),
      }),
    };
  };
  return [
    { name: 'events list (default)', path: '/events' },
    // the default list again (right after its yardstick), with the tag of the cached answer: 304 from the same entry
    { name: 'events list revalidation (304)', path: '/events', revalidate: true, yardstick: 'events list (default)' },
    {
      name: 'events list (date range + category + venue)',
      path: `/events?start_date=${day(-30)}&end_date=${day(365)}&categories=${fx.link.category}&venue=${fx.link.venue}`,
    },
    { name: 'single event by id', path: `/events/${fx.event.id}` },
    { name: 'event by slug', path: `/events/by-slug/${fx.event.slug}` },
    { name: 'venues list', path: '/venues' },
    { name: 'categories list', path: '/categories' },
    create('event create (authenticated)', {}),
    // Every writer links the same organizer and moves the counts of the same two terms, and the answer embeds them.
    create('event create with organizer + category + tag (authenticated)', {
      organizer: [fx.organizer.id],
      categories: [fx.link.category],
      tags: [fx.tag.id],
    }),
    onEvents('event update (title, authenticated)', 'POST', (who) => ({ title: `${who} update ${process.pid}-${++counter}` }), 'Handler'),
    onEvents('event trash (authenticated)', 'DELETE', null, 'Handler', 200000),
  ].filter((scenario) => only === undefined || scenario.name.includes(only));
}

function drive(scenario) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: scenario.url ?? `${api}${scenario.path}`,
        method: scenario.method ?? 'GET',
        connections,
        pipelining: 1,
        duration: scenario.duration ?? duration,
        headers: scenario.headers,
        requests: scenario.setupRequest ? [{ setupRequest: scenario.setupRequest }] : undefined,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

const results = [];
// The administrator the create scenario authenticates as (kept when it exists already).
await run('node', [
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
  await run('node', ['dist/src/cli/seed.js', '--events', String(size), '--run-id', 'bench']);
  const connection = await mysql.createConnection(databaseUrl);
  await connection.query('ANALYZE TABLE events, event_categories, event_tags, event_organizers, venues, organizers, categories, tags');
  await settle(connection);
  const fx = await fixtures(connection);
  await connection.end();
  const measured = scenarios(fx);
  const reads = measured.filter((scenario) => !scenario.method && !scenario.revalidate);
  // Each scenario is measured right before its yardstick, both processes up, so that the ratio
  // compares two figures taken within seconds of each other: on this machine the same code's
  // figures move by a fifth from one minute to the next. The process not being measured is idle.
  const handlerBase = `http://127.0.0.1:${port + 10}`;
  const handler = await startProcess(
    ['bench/baseline.mjs'],
    { PORT: String(port + 10) },
    `${handlerBase}/health/ready`,
    'the hand-written handler',
  );
  try {
    for (const cache of cacheModes) {
      const server = await startProcess(
        [...nodeFlags, 'dist/src/main.js'],
        { RESPONSE_CACHE: cache },
        `${base}/health/ready`,
        'the server',
      );
      const file = join(tmpdir(), `bench-bytes-${process.pid}.json`);
      const memoryBase = `http://127.0.0.1:${port + 20}`;
      let memory = null;
      try {
        if (cache === 'on') {
          // Yardstick of the cached reads: node:http serving the service's own answers from memory.
          writeFileSync(file, JSON.stringify(await answersOf(reads)));
          memory = await startProcess(
            ['bench/memory-server.mjs'],
            { PORT: String(port + 20), BYTES_FILE: file },
            `${memoryBase}/health/ready`,
            'the node:http yardstick',
          );
        }
        for (const scenario of measured) {
          await measure(size, cache, scenario.revalidate ? await revalidating(scenario) : scenario);
          // Yardsticks: cached reads against node:http from memory; writes, the uncached default list and
          // the uncached single event against the hand-written handler.
          if (memory && reads.includes(scenario))
            await measure(size, 'memory', { name: scenario.name, url: `${memoryBase}${api.slice(base.length)}${scenario.path}` });
          else if (scenario.handler && (cache === 'on' || !cacheModes.includes('on')))
            await measure(size, 'handler', scenario.handler(handlerBase));
          else if (cache === 'off' && scenario.name === 'events list (default)')
            await measure(size, 'handler', { name: scenario.name, url: `${handlerBase}/events` });
          else if (cache === 'off' && scenario.name === 'single event by id')
            await measure(size, 'handler', { name: scenario.name, url: `${handlerBase}${scenario.path}` });
        }
        const rss = residentMegabytes(server.pid);
        results.push({ size, cache, scenario: 'resident memory after the run (MB)', rss });
        console.log(`${String(size).padStart(8)}  ${seriesLabel(cache).padEnd(20)}  resident memory after the run: ${rss} MB`);
      } finally {
        await stopProcess(server);
        if (memory) await stopProcess(memory);
        rmSync(file, { force: true });
      }
    }
  } finally {
    await stopProcess(handler);
  }
}

/** The bodies and content types of the reads, as the service answers them now. */
async function answersOf(readScenarios) {
  const answers = {};
  for (const scenario of readScenarios) {
    const response = await fetch(`${api}${scenario.path}`);
    answers[`${api.slice(base.length)}${scenario.path}`] = {
      contentType: response.headers.get('content-type'),
      body: Buffer.from(await response.arrayBuffer()).toString('base64'),
    };
  }
  return answers;
}

/** A revalidation scenario with the entity tag the service gives its path now: every answer a 304. */
async function revalidating(scenario) {
  const etag = (await fetch(`${api}${scenario.path}`)).headers.get('etag');
  return { ...scenario, headers: { 'if-none-match': etag }, expectStatus: 304 };
}

/**
 * Waits until no statement runs in the database, for at most two minutes. A scenario can leave
 * statements behind when its load generator stops: the hand-written handler sets no time limit
 * on its statements, and at 1M events its 32 uncached list counts went on for 14 s after their
 * scenario, halving the figures of the scenarios measured during that time.
 */
async function quiet() {
  const connection = await mysql.createConnection(databaseUrl);
  try {
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
  } finally {
    await connection.end();
  }
}

/**
 * The same load as `scenario` before it is measured; answers the seconds it took. Reads get two
 * seconds. Writes, whose path is longer, get slices of five seconds until one runs within 5 % of
 * the rate of the slice before, at most four: a fresh server's title updates ran 127, 349, 502 and
 * 545 req/s in four runs of six seconds, then stayed there (docs/PERFORMANCE.md), and the first
 * second of a cold create run has p99 latencies of seconds. A yardstick that runs steady from its
 * first slice stops after two.
 */
async function warmUp(scenario) {
  if (!scenario.method || scenario.method === 'GET') {
    await drive({ ...scenario, duration: 2 });
    return 2;
  }
  let before = null;
  for (let slice = 1; slice <= 4; slice++) {
    const rate = (await drive({ ...scenario, duration: 5 })).requests.average;
    if (before !== null && Math.abs(rate - before) <= 0.05 * before) return slice * 5;
    before = rate;
  }
  return 20;
}

/** Waits for a quiet database, warms up, drives one scenario, records and prints its row. */
async function measure(size, mode, scenario) {
  await quiet();
  // The same load first, so that the path is not measured while it is still being compiled (see
  // `warmUp`). The service and its yardsticks get the same warm-up; a write warm-up adds a few
  // thousand events.
  await scenario.prepare?.();
  const warmedFor = await warmUp(scenario);
  const result = await drive(scenario);
  const expected = scenario.expectStatus ?? null;
  const row = {
    size,
    cache: mode,
    scenario: scenario.name,
    ...(scenario.yardstick ? { yardstick: scenario.yardstick } : {}),
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    // answers with another status than the scenario expects (2xx, or 304 for a revalidation)
    non2xx: expected === null ? result.non2xx : result.requests.total - (result.statusCodeStats?.[expected]?.count ?? 0),
    errors: result.errors + result.timeouts,
    warmUpSeconds: warmedFor,
  };
  results.push(row);
  console.log(
    `${String(size).padStart(8)}  ${seriesLabel(mode).padEnd(20)}  ${scenario.name.padEnd(44)} ${String(row.requestsPerSecond).padStart(7)} req/s  p50 ${row.p50} ms  p97.5 ${row.p97_5} ms  p99 ${row.p99} ms  non-2xx ${row.non2xx}  errors ${row.errors}  (warm-up ${warmedFor} s)`,
  );
}

// Side by side: each scenario of the service beside its yardstick, measured in this run.
console.log('');
for (const line of sideBySide(results)) console.log(line);

const checks = targets(results);
if (checks.length > 0) {
  console.log('\ntargets');
  for (const check of checks)
    console.log(`  ${check.met === null ? 'info   ' : check.met ? 'met    ' : 'NOT MET'}  ${check.name}: ${check.value}`);
}

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
mkdirSync(join(root, 'bench/results'), { recursive: true });
const report = { date: new Date().toISOString(), node: process.version, duration, connections, sizes, results, targets: checks };
writeFileSync(join(root, `bench/results/${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
if (only === undefined) {
  writeFileSync(join(root, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(
    join(root, 'docs/bench.svg'),
    chart(
      results.filter((row) => row.requestsPerSecond !== undefined),
      report,
    ),
  );
}
console.log(`\nResults: bench/results/${stamp}.json${only === undefined ? ', chart: docs/bench.svg' : ''}`);
