// Writes against a running server (the service, or bench/baseline.mjs, which takes the same paths):
// updates or trashes, each request on another existing published event outside any series (newest
// first, as the bench's update and trash scenarios), or creates linked to one organizer, category
// and tag (the same three for every request, as the bench's create scenario); 32 connections
// (CONNECTIONS=n otherwise; RATE=n caps the requests per second). Prints the throughput and
// latency, and the CPU the server process and MariaDB used per request (from /proc, when the
// server's process id is given).
//
//   DATABASE_URL=mysql://root@127.0.0.1:3306/bench_speed node bench/writes.mjs http://127.0.0.1:3900 update 8 [server pid]
//   (update: a new title; trash: DELETE; create: POST with organizer, category and tag)
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { cpuPerRequest } from './process-cpu.mjs';

const [base = 'http://127.0.0.1:3900', kind = 'update', seconds = '8', serverPid] = process.argv.slice(2);
if (!['update', 'trash', 'create'].includes(kind)) throw new Error('The kind of write is update, trash or create.');
const credentials = process.env.BENCH_CREDENTIALS ?? 'bench-admin:bench-password-1';
const db = await mysql.createConnection(process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/calendar_bench');
const [rows] = await db.query("SELECT id FROM events WHERE status = 'publish' AND series_id IS NULL ORDER BY id DESC LIMIT 30000");
const [[link]] = await db.query(
  'SELECT (SELECT MIN(id) FROM organizers) AS organizer, (SELECT MIN(id) FROM categories) AS category, (SELECT MIN(id) FROM tags) AS tag',
);
await db.end();
if (rows.length === 0) throw new Error('No published event outside a series to write to.');

let next = 0;
const path = `${new URL(base).pathname.replace(/\/$/, '')}/wp-json/tribe/events/v1/events`;
const authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
const cpu = cpuPerRequest(serverPid);
const result = await autocannon({
  url: base,
  connections: Number(process.env.CONNECTIONS ?? 32),
  duration: Number(seconds),
  // RATE=n: at most n requests per second, for the CPU a write costs on a machine that is not saturated
  ...(process.env.RATE ? { overallRate: Number(process.env.RATE) } : {}),
  requests: [
    {
      setupRequest: (request) => {
        const id = rows[next++ % rows.length].id;
        if (kind === 'create')
          return {
            ...request,
            method: 'POST',
            path,
            headers: { ...request.headers, authorization, 'content-type': 'application/json' },
            body: JSON.stringify({
              title: `Created ${process.pid}-${next}`,
              start_date: '2027-02-01 10:00:00',
              end_date: '2027-02-01 12:00:00',
              organizer: [link.organizer],
              categories: [link.category],
              tags: [link.tag],
            }),
          };
        return kind === 'update'
          ? {
              ...request,
              method: 'POST',
              path: `${path}/${id}`,
              headers: { ...request.headers, authorization, 'content-type': 'application/json' },
              body: JSON.stringify({ title: `Written ${process.pid}-${next}` }),
            }
          : { ...request, method: 'DELETE', path: `${path}/${id}`, headers: { ...request.headers, authorization } };
      },
    },
  ],
});
const done = result.requests.total;
// statuses other than 2xx, by code (a trash right after another run of this script may meet an event
// that run was still trashing when it read its list: 410)
const others = Object.entries(result.statusCodeStats ?? {})
  .filter(([code]) => !code.startsWith('2'))
  .map(([code, { count }]) => `${count} × ${code}`)
  .join(', ');
console.log(
  `${kind}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}${others ? ` (${others})` : ''}, errors ${result.errors}; ` +
    cpu(done),
);
