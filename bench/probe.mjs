// One request shape against a running server at 32 connections: throughput, latency, statuses, and
// the CPU the server process and MariaDB used per request (from /proc, when the server's process id
// is given). For requests outside the bench's scenarios (error answers, pages past the last, ...).
//
//   node bench/probe.mjs http://127.0.0.1:3900 8 <server pid> GET '/wp-json/tribe/events/v1/events/99999999'
//   node bench/probe.mjs http://127.0.0.1:3900 8 <server pid> POST '/wp-json/tribe/events/v1/events/99999999' '{"title":"x"}' --auth
//   (--auth: the bench administrator's credentials, or BENCH_CREDENTIALS=login:password)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const args = process.argv.slice(2);
const authenticated = args.includes('--auth');
const [base, seconds = '8', serverPid, method = 'GET', path = '/', body] = args.filter((arg) => arg !== '--auth');
if (!base) throw new Error('usage: probe.mjs <base URL> <seconds> <server pid|-> <method> <path> [body] [--auth]');

/** CPU time (ms) a process has used so far, from /proc/<pid>/stat. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const mariadb = (() => {
  try {
    return execFileSync('pgrep', ['-x', 'mariadbd'], { encoding: 'utf8' }).split('\n')[0] || null;
  } catch {
    return null;
  }
})();
const server = serverPid && serverPid !== '-' ? serverPid : null;
const credentials = process.env.BENCH_CREDENTIALS ?? 'bench-admin:bench-password-1';
const headers = {
  ...(authenticated && { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` }),
  ...(body !== undefined && { 'content-type': 'application/json' }),
};
const before = { server: server ? cpuMs(server) : 0, mariadb: mariadb ? cpuMs(mariadb) : 0 };
const result = await autocannon({ url: `${base}${path}`, method, headers, body, connections: 32, duration: Number(seconds) });
const done = result.requests.total;
const statuses = Object.entries(result.statusCodeStats ?? {})
  .map(([code, { count }]) => `${count} × ${code}`)
  .join(', ');
const perRequest = (pid, start) => (pid && done > 0 ? ((cpuMs(pid) - start) / done).toFixed(2) : '-');
console.log(
  `${method} ${path}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
    `answers ${statuses || 'none'}, errors ${result.errors}, timeouts ${result.timeouts}; ` +
    `CPU per request: server ${perRequest(server, before.server)} ms, MariaDB ${perRequest(mariadb, before.mariadb)} ms`,
);
