// One request shape against a running server at 32 connections: throughput, latency, statuses, and
// the CPU the server process and MariaDB used per request (from /proc, when the server's process id
// is given). For requests outside the bench's scenarios (error answers, pages past the last, ...).
//
//   node bench/probe.mjs http://127.0.0.1:3900 8 <server pid> GET '/wp-json/tribe/events/v1/events/99999999'
//   node bench/probe.mjs http://127.0.0.1:3900 8 <server pid> POST '/wp-json/tribe/events/v1/events/99999999' '{"title":"x"}' --auth
//   (--auth: the bench administrator's credentials, or BENCH_CREDENTIALS=login:password)
import autocannon from 'autocannon';
import { cpuPerRequest } from './process-cpu.mjs';

const args = process.argv.slice(2);
const authenticated = args.includes('--auth');
const [base, seconds = '8', serverPid, method = 'GET', path = '/', body] = args.filter((arg) => arg !== '--auth');
if (!base) throw new Error('usage: probe.mjs <base URL> <seconds> <server pid|-> <method> <path> [body] [--auth]');

const server = serverPid && serverPid !== '-' ? serverPid : null;
const credentials = process.env.BENCH_CREDENTIALS ?? 'bench-admin:bench-password-1';
const headers = {
  ...(authenticated && { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` }),
  ...(body !== undefined && { 'content-type': 'application/json' }),
};
const cpu = cpuPerRequest(server);
const result = await autocannon({ url: `${base}${path}`, method, headers, body, connections: 32, duration: Number(seconds) });
const done = result.requests.total;
const statuses = Object.entries(result.statusCodeStats ?? {})
  .map(([code, { count }]) => `${count} × ${code}`)
  .join(', ');
console.log(
  `${method} ${path}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
    `answers ${statuses || 'none'}, errors ${result.errors}, timeouts ${result.timeouts}; ` +
    cpu(done),
);
