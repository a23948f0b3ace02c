// Revalidation against cache hits, in one run: the built production server on a small seeded
// calendar (SQLite in a temporary folder unless DATABASE_URL is set), then alternating autocannon
// rounds of the same URL: plain GETs answered 200 from the response cache, and GETs with the
// answer's ETag in If-None-Match answered 304. Prints both side by side. Loopback only, bounded.
//
//   npm run build && node bench/revalidation.mjs [--events 1000] [--path /events] [--duration 8] [--rounds 3] [--connections 32]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, index, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[index + 1]]] : pairs), []),
);
const events = Number(args.events ?? 1000);
const path = String(args.path ?? '/events');
const duration = Number(args.duration ?? 8);
const rounds = Number(args.rounds ?? 3);
const connections = Number(args.connections ?? 32);
const port = Number(args.port ?? 3910);
const url = `http://127.0.0.1:${port}/wp-json/tribe/events/v1${path}`;
if (!existsSync(join(root, 'dist/src/main.js'))) throw new Error('build first: npm run build');

// the Node flags of `npm run start:prod` (heap sizing)
const nodeFlags = (
  /^node ((?:--\S+ )*)dist\/src\/main\.js$/.exec(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts['start:prod'])?.[1] ??
  ''
)
  .split(' ')
  .filter(Boolean);
const folder = process.env.DATABASE_URL ? null : mkdtempSync(join(tmpdir(), 'revalidation-'));
const env = {
  ...process.env,
  ...(folder ? { SQLITE_PATH: join(folder, 'calendar.sqlite') } : {}),
  PORT: String(port),
  LOG_LEVEL: 'warn',
  LOG_REQUESTS: 'false',
  RATE_LIMIT_PER_MINUTE: '0',
  RESPONSE_CACHE: 'on',
  ADMIN_LOGIN: 'bench-admin',
  ADMIN_PASSWORD: 'bench-password-1',
};

function run(programArgs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, programArgs, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${programArgs.join(' ')} exited ${code}`))));
  });
}

function drive(headers, seconds) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, pipelining: 1, duration: seconds, headers }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

let server;
try {
  console.log(`Seeding ${events} events (${folder ? 'SQLite' : 'DATABASE_URL'})…`);
  await run(['dist/src/cli/seed.js', '--events', String(events), '--run-id', 'revalidation']);
  server = spawn(process.execPath, [...nodeFlags, 'dist/src/main.js'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  let first;
  for (let attempt = 0; !first; attempt++) {
    if (attempt > 150) throw new Error('the server did not start');
    first = await fetch(url).then(
      (res) => (res.ok ? res : undefined),
      () => undefined,
    );
    if (!first) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const etag = first.headers.get('etag');
  const bytes = (await first.arrayBuffer()).byteLength;
  const hit = await fetch(url);
  const revalidated = await fetch(url, { headers: { 'If-None-Match': etag } });
  console.log(
    `${url}: ETag ${etag}, ${bytes} bytes; plain GET → ${hit.status} X-Cache ${hit.headers.get('x-cache')}; If-None-Match → ${revalidated.status} X-Cache ${revalidated.headers.get('x-cache')}`,
  );
  if (hit.headers.get('x-cache') !== 'HIT' || revalidated.status !== 304) throw new Error('the answers are not the ones to measure');

  const modes = [
    { name: '200 cache hit (plain GET)', headers: {}, expected: '200' },
    { name: '304 revalidation (If-None-Match)', headers: { 'If-None-Match': etag }, expected: '304' },
  ];
  for (const mode of modes) await drive(mode.headers, 2); // warm-up
  const totals = modes.map(() => ({ requests: 0, seconds: 0, p50: [], p99: [], statuses: {}, errors: 0 }));
  for (let round = 0; round < rounds; round++) {
    // alternate the order, so neither mode always runs on a warmer or cooler machine
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) {
      const result = await drive(modes[index].headers, duration);
      const total = totals[index];
      total.requests += result.requests.total;
      total.seconds += result.duration;
      total.p50.push(result.latency.p50);
      total.p99.push(result.latency.p99);
      total.errors += result.errors + result.timeouts;
      for (const [status, { count }] of Object.entries(result.statusCodeStats))
        total.statuses[status] = (total.statuses[status] ?? 0) + count;
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(
    `\n${rounds} rounds of ${duration} s per mode, ${connections} connections, pipelining 1, Node ${process.version}, ${events} events`,
  );
  console.log(`${'mode'.padEnd(34)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  statuses`);
  const rates = [];
  modes.forEach((mode, index) => {
    const total = totals[index];
    const rate = Math.round(total.requests / total.seconds);
    rates.push(rate);
    const statuses = Object.entries(total.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    console.log(
      `${mode.name.padEnd(34)} ${String(rate).padStart(8)} ${String(median(total.p50)).padStart(7)} ${String(median(total.p99)).padStart(7)}  ${statuses}, errors ${total.errors}`,
    );
    if (Object.keys(total.statuses).some((status) => status !== mode.expected) || total.errors > 0) {
      process.exitCode = 1;
      console.log(`  ! ${mode.name}: answers other than ${mode.expected}`);
    }
  });
  console.log(`304 / 200: ${(rates[1] / rates[0]).toFixed(2)}×`);
} finally {
  if (server) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.on('exit', resolve));
  }
  if (folder) rmSync(folder, { recursive: true, force: true });
}
