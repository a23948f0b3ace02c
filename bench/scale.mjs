// Scale benchmark: the topology of scripts/scale-env.sh (two app processes behind HAProxy, reads from
// a MariaDB GTID replica, cached answers shared through Redis) beside one app process on the primary
// alone, on the same machine and the same data. Loopback only, bounded duration and connections.
// Then the replica's lag while a write burst runs through the load balancer.
//
//   npm run build && scripts/scale-env.sh start
//   node bench/scale.mjs [--events 500] [--duration 10] [--connections 16]
//   scripts/scale-env.sh stop
//
// Prints a table and writes bench/results/scale-<time>.json.
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
const events = Number(args.events ?? 500);
const duration = Number(args.duration ?? 10);
const connections = Number(args.connections ?? 16);
const env = JSON.parse(readFileSync(process.env.SCALE_ENV ?? '/tmp/calendar-scale/env.json', 'utf8'));
const API = '/wp-json/tribe/events/v1';
const auth = `Basic ${Buffer.from(`${env.admin.login}:${env.admin.password}`).toString('base64')}`;
const singlePort = Number(args['single-port'] ?? 3489);
const single = `http://127.0.0.1:${singlePort}`;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function seed() {
  const list = await fetch(`${env.proxy}${API}/events?per_page=1&status=publish`, { headers: { Authorization: auth } });
  const have = Number(list.headers.get('x-wp-total') ?? 0);
  let next = have;
  const worker = async () => {
    while (next < events) {
      const index = next++;
      const day = String(1 + (index % 28)).padStart(2, '0');
      const response = await fetch(`${env.proxy}${API}/events`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: `Bench event ${index}`,
          start_date: `2027-05-${day} 10:00:00`,
          end_date: `2027-05-${day} 12:00:00`,
          status: 'publish',
        }),
      });
      if (response.status !== 201) throw new Error(`seeding: ${response.status} ${await response.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return Math.max(0, events - have);
}

/** One app process on the primary alone (no replicas, no Redis): the yardstick. */
async function startSingle() {
  const child = spawn(process.execPath, ['--max-old-space-size=192', 'dist/src/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(singlePort),
      PUBLIC_URL: env.proxy,
      DATABASE_URL: env.primary.url,
      DATABASE_REPLICA_URLS: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      LOG_REQUESTS: 'false',
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let attempt = 0; attempt < 150; attempt++) {
    const ready = await fetch(`${single}/health/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return child;
    await sleep(200);
  }
  child.kill();
  throw new Error('the single app process did not become ready');
}

function run(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, pipelining: 1, duration, headers }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const SCENARIOS = [
  { name: 'cached anonymous list', path: '/events?per_page=10', headers: {} },
  { name: 'uncached list (authenticated)', path: '/events?per_page=10', headers: { Authorization: auth } },
  { name: 'uncached single event (authenticated)', path: '/events/1', headers: { Authorization: auth } },
];

async function lagDuringWrites() {
  const primary = await mysql.createConnection({ socketPath: env.primary.socket, user: 'root' });
  const replica = await mysql.createConnection({ socketPath: env.replica.socket, user: 'root' });
  const samples = [];
  let writing = true;
  const sampler = (async () => {
    while (writing) {
      const started = Date.now();
      const [[{ position }]] = await primary.query('SELECT @@GLOBAL.gtid_binlog_pos AS position');
      const [[{ reached }]] = await replica.query('SELECT MASTER_GTID_WAIT(?, 10) AS reached', [position]);
      if (Number(reached) === 0) samples.push(Date.now() - started);
      await sleep(100);
    }
  })();
  let index = 0;
  const burst = await new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${env.proxy}${API}/events`,
        method: 'POST',
        connections: 8,
        pipelining: 1,
        duration,
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({
                title: `Burst ${index++}`,
                start_date: '2027-06-01 10:00:00',
                end_date: '2027-06-01 11:00:00',
                status: 'publish',
              }),
            }),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  writing = false;
  await sampler;
  await primary.end();
  await replica.end();
  samples.sort((a, b) => a - b);
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return {
    writesPerSecond: burst.requests.average,
    non2xx: burst.non2xx,
    samples: samples.length,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: samples.at(-1),
  };
}

const seeded = await seed();
const child = await startSingle();
const results = [];
try {
  for (const scenario of SCENARIOS) {
    for (const [setup, base] of [
      ['one app, primary only', single],
      ['two apps + HAProxy, replica reads', env.proxy],
    ]) {
      await run(`${base}${API}${scenario.path}`, scenario.headers); // warm-up, not counted
      const result = await run(`${base}${API}${scenario.path}`, scenario.headers);
      results.push({
        scenario: scenario.name,
        setup,
        requestsPerSecond: Math.round(result.requests.average),
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
      });
    }
  }
} finally {
  child.kill('SIGTERM');
}
const lag = await lagDuringWrites();

console.log(`\nScale benchmark: ${events} events (${seeded} seeded now), ${duration} s per run, ${connections} connections\n`);
console.log('| Scenario | Setup | req/s | p99 ms | non-2xx | errors |');
console.log('|---|---|---:|---:|---:|---:|');
for (const row of results)
  console.log(`| ${row.scenario} | ${row.setup} | ${row.requestsPerSecond} | ${row.p99Ms} | ${row.non2xx} | ${row.errors} |`);
console.log(
  `\nReplica lag during a write burst through HAProxy (${Math.round(lag.writesPerSecond)} writes/s, ${lag.non2xx} non-2xx): ` +
    `p50 ${lag.p50Ms} ms, p99 ${lag.p99Ms} ms, max ${lag.maxMs} ms over ${lag.samples} samples`,
);
mkdirSync(join(root, 'bench/results'), { recursive: true });
const file = join(root, `bench/results/scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), events, duration, connections, results, lag }, null, 2));
console.log(`\n${file}`);
