// Reads through the cache in front (deploy/nginx/calendar.conf.template) beside node:http serving
// the same bytes from memory (bench/memory-server.mjs), in one run: the built service on a seeded
// calendar, nginx in front of it with the shipped configuration (rendered as the nginx image renders
// its templates, inside an http block like the image's own nginx.conf), and the anonymous list
// (GET /events) driven with autocannon against nginx and against node:http in turns, several rounds,
// the order swapped each round. The service answering the same list from its own response cache is
// measured beside them for information. Prints each measurement, the median of each target, the
// ratio nginx ÷ node:http and the target (≥ 0.7), and how many of nginx's answers came from its cache
// (its access log).
//
//   npm run build && node bench/edge.mjs [--duration 10] [--connections 32] [--rounds 3] [--events 1000]
//                                        [--lifetime 5] [--workers 1] [--port 3960]
//   npm run bench -- --edge [same options]
//
// nginx runs one worker by default, as node:http runs one process: on a machine shared with other
// work, more processes take a larger share of the cores (`--workers auto` is the nginx image's own
// setting, one per core).
//
// The calendar is a SQLite file of its own unless DATABASE_URL names a MySQL/MariaDB database (its
// tables are used as they are; the seeder only adds what is missing). Needs nginx (apt-get install -y nginx;
// NGINX_BIN names another).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { answerOf, API_PREFIX } from './answers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '3' },
    events: { type: 'string', default: '1000' },
    lifetime: { type: 'string', default: '5' },
    workers: { type: 'string', default: '1' },
    port: { type: 'string', default: '3960' },
  },
});
const duration = Number(args.duration);
const connections = Number(args.connections);
const rounds = Number(args.rounds);
const port = Number(args.port);
const TARGET = 0.7;

const nginx =
  [process.env.NGINX_BIN, '/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => path && existsSync(path)) ??
  (spawnSync('nginx', ['-v']).status === 0 ? 'nginx' : null);
if (!nginx) {
  console.error('nginx is not installed (apt-get install -y nginx, or NGINX_BIN=/path/to/nginx)');
  process.exit(1);
}
if (!existsSync(join(root, 'dist/src/main.js'))) {
  console.error('dist/ is missing: npm run build first');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'bench-edge-'));
const database = process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : { SQLITE_PATH: join(work, 'calendar.sqlite') };
// the service's Node flags, as `npm run start:prod` starts it
const nodeFlags = (
  /^exec node ((?:--\S+ )*)dist\/src\/main\.js$/.exec(
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts['start:prod'],
  )?.[1] ?? ''
)
  .split(' ')
  .filter(Boolean);
const baseEnv = { PATH: process.env.PATH, ...database, ADMIN_LOGIN: 'bench-admin', ADMIN_PASSWORD: 'bench-password-1' };
const started = [];

function run(program, programArgs, env) {
  const result = spawnSync(process.execPath, [program, ...programArgs], {
    cwd: root,
    env: { ...baseEnv, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`${program} ${programArgs.join(' ')} exited ${result.status}`);
}

/** Starts a program and waits until `ready` answers; `stop()` ends it and waits. */
async function start(what, command, commandArgs, env, ready) {
  const child = spawn(command, commandArgs, { cwd: root, env: { ...baseEnv, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const program = { what, child, stop: async () => (child.exitCode === null ? (child.kill('SIGTERM'), await exited) : undefined) };
  started.push(program);
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(ready)).ok) return program;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not become ready`);
}

/** nginx with the shipped template in front of `upstream`, in `work`: the image's http block, the template rendered into it. */
async function startNginx(listen, upstream) {
  const dir = join(work, 'nginx');
  for (const folder of [dir, join(dir, 'cache'), join(dir, 'temp')]) {
    mkdirSync(folder, { recursive: true });
    // run as root, nginx's workers are `nobody`
    chmodSync(folder, folder === dir ? 0o755 : 0o777);
  }
  chmodSync(work, 0o755);
  const values = {
    EDGE_LISTEN: listen,
    EDGE_UPSTREAM: upstream,
    EDGE_CACHE_DIR: join(dir, 'cache'),
    EDGE_ACCESS_LOG: join(dir, 'access.log'),
  };
  const template = readFileSync(join(root, 'deploy/nginx/calendar.conf.template'), 'utf8');
  writeFileSync(
    join(dir, 'calendar.conf'),
    template.replace(/\$\{(EDGE_[A-Z_]+)\}/g, (_, name) => {
      if (!(name in values)) throw new Error(`the template uses \${${name}}, which this script does not set`);
      return values[name];
    }),
  );
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, 'temp', kind)};`);
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      `worker_processes ${args.workers};`,
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  default_type application/octet-stream;',
      '  sendfile on;',
      '  keepalive_timeout 65;',
      ...temp,
      `  include ${join(dir, 'calendar.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const program = await start(
    'nginx',
    nginx,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
    {},
    `http://${listen}/health/ready`,
  );
  return { ...program, accessLog: join(dir, 'access.log') };
}

/** Drives GET `url` for `seconds`; answers requests per second, latency and the answers that were not `expected`. */
function drive(url, seconds, headers = {}, expected = 200) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections, pipelining: 1, duration: seconds, headers }, (error, result) => {
      if (error) return reject(error);
      const other = result.requests.total - (result.statusCodeStats?.[expected]?.count ?? 0);
      resolve({
        rate: Math.round(result.requests.total / Math.max(result.duration, 0.01)),
        p50: result.latency.p50,
        p99: result.latency.p99,
        other,
        errors: result.errors + result.timeouts,
      });
    });
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  console.log(
    `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}, Node ${process.version}, ${spawnSync(nginx, ['-v'], { encoding: 'utf8' }).stderr.trim()}`,
  );
  console.log(
    `${connections} connections, ${duration} s per measurement, ${rounds} rounds; nginx worker_processes ${args.workers}; lifetime (s-maxage) ${args.lifetime} s`,
  );
  console.log(`seeding ${args.events} events (${database.DATABASE_URL ? 'MySQL/MariaDB' : 'SQLite'})`);
  run('dist/src/cli/seed.js', ['--events', args.events, '--run-id', 'bench-edge']);

  await start(
    'the service',
    process.execPath,
    [...nodeFlags, 'dist/src/main.js'],
    {
      PORT: String(port),
      HTTP_CACHE_SHARED_MAX_AGE: args.lifetime,
      TRUST_PROXY: 'loopback',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      PUBLIC_URL: 'https://calendar.example.org',
    },
    `http://127.0.0.1:${port}/health/ready`,
  );
  const listUrl = (base) => `${base}${API_PREFIX}/events`;
  const serviceBase = `http://127.0.0.1:${port}`;
  const list = await answerOf(await fetch(listUrl(serviceBase)));
  if (list.status !== 200) throw new Error(`the service answered the list with ${list.status}`);
  const answersFile = join(work, 'answers.json');
  writeFileSync(answersFile, JSON.stringify({ list }));
  const memoryBase = `http://127.0.0.1:${port + 20}`;
  await start(
    'node:http from memory',
    process.execPath,
    [...nodeFlags, 'bench/memory-server.mjs'],
    { PORT: String(port + 20), BYTES_FILE: answersFile },
    `${memoryBase}/health/ready`,
  );
  const edgeBase = `http://127.0.0.1:${port + 10}`;
  const edge = await startNginx(`127.0.0.1:${port + 10}`, `127.0.0.1:${port}`);

  // the same bytes from each, and nginx's second answer from its copy
  await fetch(listUrl(edgeBase));
  const viaEdge = await fetch(listUrl(edgeBase));
  const viaMemory = await fetch(listUrl(memoryBase));
  const [edgeBody, memoryBody] = [Buffer.from(await viaEdge.arrayBuffer()), Buffer.from(await viaMemory.arrayBuffer())];
  if (viaEdge.headers.get('x-cache-status') !== 'HIT')
    throw new Error(`nginx did not answer from its cache: ${viaEdge.headers.get('x-cache-status')}`);
  if (
    !edgeBody.equals(Buffer.from(list.body, 'base64')) ||
    !memoryBody.equals(edgeBody) ||
    viaEdge.headers.get('content-type') !== viaMemory.headers.get('content-type')
  )
    throw new Error('nginx and node:http do not answer the same bytes');
  console.log(
    `nginx (from its cache) and node:http answer the service's list: ${edgeBody.length} bytes, ${viaEdge.headers.get('content-type')}`,
  );

  const targets = { nginx: listUrl(edgeBase), 'node:http': listUrl(memoryBase), 'service (own cache)': listUrl(serviceBase) };
  for (const url of Object.values(targets)) await drive(url, 2);
  const rows = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? ['nginx', 'node:http', 'service (own cache)'] : ['node:http', 'nginx', 'service (own cache)'];
    for (const name of order) {
      const row = await drive(targets[name], duration);
      rows[name].push(row);
      console.log(
        `round ${round}  ${name.padEnd(20)} ${String(row.rate).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  other statuses ${row.other}  errors ${row.errors}`,
      );
    }
  }
  await edge.stop();
  const statuses = {};
  for (const [, status] of readFileSync(edge.accessLog, 'utf8').matchAll(/ cache=(\S*)/g)) statuses[status] = (statuses[status] ?? 0) + 1;
  const answered = Object.values(statuses).reduce((sum, count) => sum + count, 0);

  console.log('\ncached list (GET /events), median of the rounds');
  for (const [name, measured] of Object.entries(rows)) {
    const rate = median(measured.map((row) => row.rate));
    console.log(`  ${name.padEnd(20)} ${String(rate).padStart(7)} req/s  p99 ${median(measured.map((row) => row.p99))} ms`);
  }
  const perRound = rows.nginx.map((row, index) => row.rate / Math.max(rows['node:http'][index].rate, 1));
  const ratio = median(rows.nginx.map((row) => row.rate)) / Math.max(median(rows['node:http'].map((row) => row.rate)), 1);
  console.log(`  ratio nginx ÷ node:http: ${ratio.toFixed(2)} (per round ${perRound.map((value) => value.toFixed(2)).join(', ')})`);
  console.log(
    `  nginx answered ${answered} requests: ${Object.entries(statuses)
      .map(([status, count]) => `${status} ${count}`)
      .join(', ')}`,
  );
  console.log(
    `\ntarget: cached list through the cache in front ≥ ${TARGET} of node:http from memory: ${ratio >= TARGET ? 'met' : 'MISSED'} (${ratio.toFixed(2)})`,
  );
  process.exitCode = ratio >= TARGET ? 0 : 2;
} finally {
  for (const program of started.reverse()) await program.stop();
  rmSync(work, { recursive: true, force: true });
}
