// Benchmark: starts the built production server against MySQL/MariaDB, seeds the calendar to each
// size, warms up, and drives the server with autocannon over fixed scenarios (loopback only,
// bounded duration and connections). Prints a table, writes JSON to bench/results/ and a chart to
// docs/bench.svg.
//
//   npm run bench -- [--sizes 1000,100000] [--duration 10] [--connections 32] [--cache on|off|both] [--keep true]
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, index, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[index + 1]]] : pairs), []),
);
const sizes = String(args.sizes ?? '1000,100000').split(',').map(Number);
const duration = Number(args.duration ?? 10);
const connections = Number(args.connections ?? 32);
const cacheModes = args.cache === 'both' ? ['on', 'off'] : [args.cache ?? 'on'];
const databaseUrl = process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/calendar_bench';
const port = Number(args.port ?? 3900);
const base = `http://127.0.0.1:${port}`;
const api = `${base}/wp-json/tribe/events/v1`;
const admin = { login: 'bench-admin', password: 'bench-password-1' };
const auth = `Basic ${Buffer.from(`${admin.login}:${admin.password}`).toString('base64')}`;

if (args['chart-only'] !== undefined) {
  // Redraw docs/bench.svg from bench/results/latest.json without running anything.
  const latest = JSON.parse(readFileSync(join(root, 'bench/results/latest.json'), 'utf8'));
  writeFileSync(join(root, 'docs/bench.svg'), chart(latest.results.filter((row) => row.requestsPerSecond !== undefined), latest));
  process.exit(0);
}

const url = new URL(databaseUrl);
const database = url.pathname.slice(1);
{
  const server = new URL(databaseUrl);
  server.pathname = '/';
  const connection = await mysql.createConnection(server.toString());
  // Sizes grow from an empty calendar unless --keep is given (the seeder only adds what is missing).
  if (args.keep === undefined) await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
  await connection.query(`CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await connection.end();
}

const env = { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), LOG_REQUESTS: 'false', LOG_LEVEL: 'warn', ADMIN_LOGIN: admin.login, ADMIN_PASSWORD: admin.password, RATE_LIMIT_PER_MINUTE: '0' };

function run(command, commandArgs, extraEnv = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${commandArgs.join(' ')} exited ${code}`))));
  });
}

async function startServer(cache) {
  const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: root, env: { ...env, RESPONSE_CACHE: cache }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(`${base}/health/ready`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not become ready');
}

function residentMegabytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function fixtures(connection) {
  const [[event]] = await connection.query("SELECT id, slug FROM events WHERE status = 'publish' AND hide_from_listings = 0 AND start_utc > NOW() ORDER BY id LIMIT 1");
  const [[link]] = await connection.query(
    "SELECT ec.category_id AS category, e.venue_id AS venue FROM events e JOIN event_categories ec ON ec.event_id = e.id WHERE e.status = 'publish' AND e.venue_id IS NOT NULL AND e.start_utc > NOW() ORDER BY e.id LIMIT 1",
  );
  return { event, link };
}

function scenarios(fx) {
  const today = new Date();
  const day = (offset) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  let counter = 0;
  return [
    { name: 'events list (default)', path: '/events' },
    { name: 'events list (date range + category + venue)', path: `/events?start_date=${day(-30)}&end_date=${day(365)}&categories=${fx.link.category}&venue=${fx.link.venue}` },
    { name: 'single event by id', path: `/events/${fx.event.id}` },
    { name: 'event by slug', path: `/events/by-slug/${fx.event.slug}` },
    { name: 'venues list', path: '/venues' },
    { name: 'categories list', path: '/categories' },
    {
      name: 'event create (authenticated)',
      path: '/events',
      method: 'POST',
      setupRequest: (request) => ({
        ...request,
        headers: { ...request.headers, authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Bench create ${process.pid}-${++counter}`, start_date: `${day(10)} 18:00:00`, end_date: `${day(10)} 20:00:00` }),
      }),
    },
  ];
}

function drive(scenario) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${api}${scenario.path}`,
        method: scenario.method ?? 'GET',
        connections,
        pipelining: 1,
        duration,
        requests: scenario.setupRequest ? [{ setupRequest: scenario.setupRequest }] : undefined,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

const results = [];
// The administrator the create scenario authenticates as (kept when it exists already).
await run('node', ['dist/src/cli/main.js', 'user:create', '--login', admin.login, '--role', 'administrator', '--password', admin.password]).catch(() => undefined);
for (const size of sizes) {
  console.log(`\n== ${size} events: seeding`);
  await run('node', ['dist/src/cli/seed.js', '--events', String(size), '--run-id', 'bench']);
  const connection = await mysql.createConnection(databaseUrl);
  await connection.query('ANALYZE TABLE events, event_categories, event_tags, event_organizers, venues, organizers, categories, tags');
  const fx = await fixtures(connection);
  await connection.end();
  for (const cache of cacheModes) {
    const server = await startServer(cache);
    try {
      for (const scenario of scenarios(fx)) {
        if (!scenario.method) await drive({ ...scenario, duration: 2 }); // warm-up
        const result = await drive(scenario);
        const row = {
          size,
          cache,
          scenario: scenario.name,
          requestsPerSecond: Math.round(result.requests.average),
          p50: result.latency.p50,
          p97_5: result.latency.p97_5,
          p99: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
        };
        results.push(row);
        console.log(`${String(size).padStart(8)}  cache ${cache.padEnd(3)}  ${scenario.name.padEnd(44)} ${String(row.requestsPerSecond).padStart(7)} req/s  p50 ${row.p50} ms  p97.5 ${row.p97_5} ms  p99 ${row.p99} ms  non-2xx ${row.non2xx}  errors ${row.errors}`);
      }
      const rss = residentMegabytes(server.pid);
      results.push({ size, cache, scenario: 'resident memory after the run (MB)', rss });
      console.log(`${String(size).padStart(8)}  cache ${cache.padEnd(3)}  resident memory after the run: ${rss} MB`);
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.on('exit', resolve));
    }
  }
}

console.log('\nscenario'.padEnd(60) + sizes.map((size) => `${size} ev`.padStart(14)).join(''));
for (const cache of cacheModes) {
  for (const name of [...new Set(results.filter((row) => row.requestsPerSecond !== undefined).map((row) => row.scenario))]) {
    const cells = sizes.map((size) => results.find((row) => row.size === size && row.cache === cache && row.scenario === name));
    console.log(`${`[cache ${cache}] ${name}`.padEnd(60)}${cells.map((row) => `${row ? row.requestsPerSecond : '-'} r/s`.padStart(14)).join('')}`);
  }
}

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
mkdirSync(join(root, 'bench/results'), { recursive: true });
const report = { date: new Date().toISOString(), node: process.version, duration, connections, sizes, results };
writeFileSync(join(root, `bench/results/${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(root, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(root, 'docs/bench.svg'), chart(results.filter((row) => row.requestsPerSecond !== undefined), report));
console.log(`\nResults: bench/results/${stamp}.json, chart: docs/bench.svg`);

/** A grouped bar chart of requests per second: one group per scenario, one bar per size and cache mode. */
function chart(rows, run) {
  const names = [...new Set(rows.map((row) => row.scenario))];
  const series = [...new Set(rows.map((row) => `${row.size} events, cache ${row.cache}`))];
  const colours = ['#2f6db5', '#e08a1e', '#3a9d5d', '#b5432f', '#7a4fb5', '#5f6b7a'];
  const max = Math.max(...rows.map((row) => row.requestsPerSecond), 1);
  const barWidth = 18;
  const groupWidth = series.length * barWidth + 40;
  const width = Math.max(80 + names.length * groupWidth, 80 + series.length * 190);
  const height = 410;
  const plot = 240;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`, `<rect width="100%" height="100%" fill="#fff"/>`, `<text x="10" y="16" font-size="13">Requests per second (higher is better), ${run.connections} connections, ${run.duration} s per scenario</text>`];
  for (let tick = 0; tick <= 4; tick++) {
    const y = 30 + plot - (plot * tick) / 4;
    parts.push(`<line x1="60" x2="${width - 10}" y1="${y}" y2="${y}" stroke="#ddd"/><text x="55" y="${y + 4}" text-anchor="end">${Math.round((max * tick) / 4)}</text>`);
  }
  names.forEach((name, group) => {
    const x0 = 70 + group * groupWidth;
    series.forEach((label, index) => {
      const row = rows.find((candidate) => candidate.scenario === name && `${candidate.size} events, cache ${candidate.cache}` === label);
      if (!row) return;
      const h = (plot * row.requestsPerSecond) / max;
      parts.push(`<rect x="${x0 + index * barWidth}" y="${30 + plot - h}" width="${barWidth - 2}" height="${h}" fill="${colours[index % colours.length]}"><title>${label}: ${row.requestsPerSecond} req/s</title></rect>`);
    });
    parts.push(`<text transform="translate(${x0 + 4},${30 + plot + 12}) rotate(30)">${name.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`);
  });
  series.forEach((label, index) => {
    parts.push(`<rect x="${70 + index * 190}" y="${height - 16}" width="10" height="10" fill="${colours[index % colours.length]}"/><text x="${84 + index * 190}" y="${height - 7}">${label}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
