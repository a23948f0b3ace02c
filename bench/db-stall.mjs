// Latency while the database stalls, with the default bounds: the built server (dist/) talks to
// MySQL/MariaDB through a TCP proxy; clients keep reading; the proxy goes silent (bytes swallowed),
// then refuses connections, each for a few seconds. Reports the slowest answer during each cut, how
// fast answers are once the database is known to be away, and how long after the database is back the
// first 200 comes. Loopback only, bounded in time.
//
//   npm run build && DATABASE_URL=mysql://root@127.0.0.1:3306/calendar_bench node bench/db-stall.mjs
import { spawn } from 'node:child_process';
import { createServer, Socket } from 'node:net';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('set DATABASE_URL to a throw-away MySQL/MariaDB database');
const target = new URL(databaseUrl);
const PORT = Number(process.env.PORT ?? 3917);
const CLIENTS = Number(process.env.CLIENTS ?? 16);
const CUT_MS = Number(process.env.CUT_MS ?? 6000);
const swallow = () => undefined;

let mode = 'open';
const pairs = new Set();
const server = createServer((client) => {
  const upstream = new Socket();
  const pair = { client, upstream };
  pairs.add(pair);
  const drop = () => {
    client.destroy();
    upstream.destroy();
    pairs.delete(pair);
  };
  client.on('error', drop).on('close', drop);
  upstream.on('error', drop).on('close', drop);
  if (mode === 'frozen') return void client.on('data', swallow);
  upstream.connect(Number(target.port || 3306), target.hostname, () => {
    upstream.pipe(client);
    if (mode === 'open') client.pipe(upstream);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const proxied = new URL(databaseUrl);
proxied.hostname = '127.0.0.1';
proxied.port = String(server.address().port);

const child = spawn(process.execPath, ['dist/src/main.js'], {
  env: {
    ...process.env,
    DATABASE_URL: proxied.toString(),
    PORT: String(PORT),
    LOG_LEVEL: 'error',
    LOG_REQUESTS: 'false',
    RESPONSE_CACHE: 'off',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const base = `http://127.0.0.1:${PORT}/wp-json/tribe/events/v1/events`;
for (let tries = 0; ; tries++) {
  if (tries > 100) throw new Error('server did not start');
  if (
    await fetch(base).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const samples = []; // { start, end, status }
let running = true;
const clients = Array.from({ length: CLIENTS }, async () => {
  while (running) {
    const start = Date.now();
    const status = await fetch(base).then(
      async (r) => (await r.arrayBuffer(), r.status),
      () => 0,
    );
    samples.push({ start, end: Date.now(), status });
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function episode(name, breakIt) {
  await sleep(1500);
  const cutAt = Date.now();
  breakIt();
  await sleep(CUT_MS);
  const backAt = Date.now();
  mode = 'open';
  if (!server.listening) await new Promise((resolve) => server.listen(Number(proxied.port), '127.0.0.1', resolve));
  for (const { client, upstream } of pairs) {
    client.off('data', swallow);
    if (upstream.readyState === 'open') client.pipe(upstream);
  }
  await sleep(6000);
  const during = samples.filter((s) => s.end > cutAt && s.start < backAt);
  const slowest = Math.max(...during.map((s) => s.end - s.start));
  const afterFirstFailure = during.filter((s) => s.start > cutAt + 3500).map((s) => s.end - s.start);
  afterFirstFailure.sort((a, b) => a - b);
  const firstOk = samples.find((s) => s.start >= backAt && s.status === 200);
  const statuses = {};
  for (const s of during) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  console.log(
    `${name}: ${during.length} requests during the ${CUT_MS} ms cut ${JSON.stringify(statuses)}; slowest ${slowest} ms; ` +
      `started >3.5 s into the cut: p50 ${afterFirstFailure[Math.floor(afterFirstFailure.length / 2)]} ms, max ${afterFirstFailure.at(-1)} ms; ` +
      `first 200 ${firstOk ? firstOk.end - backAt : 'never'} ms after the database came back`,
  );
}

await episode('silent database (bytes swallowed)', () => {
  mode = 'frozen';
  for (const { client, upstream } of pairs) {
    client.unpipe(upstream);
    client.on('data', swallow);
  }
});
await episode('refused connections', () => {
  mode = 'refused';
  server.close();
  for (const { client, upstream } of pairs) {
    client.destroy();
    upstream.destroy();
  }
});

running = false;
await Promise.all(clients);
child.kill('SIGTERM');
server.close();
for (const { client, upstream } of pairs) {
  client.destroy();
  upstream.destroy();
}
