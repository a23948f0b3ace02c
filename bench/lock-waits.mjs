// Where writes wait: drives `POST /events` with an organizer, a category and a tag (32 connections)
// against a running server and samples MariaDB's lock waits every 50 ms meanwhile
// (information_schema.INNODB_LOCK_WAITS with the waiting transaction and the lock it wants), then
// prints the throughput and the waits grouped by table, index, mode and statement.
//
//   DATABASE_URL=mysql://root@127.0.0.1:3306/bench_speed node bench/lock-waits.mjs http://127.0.0.1:3852 10 bench-admin:bench-password-1
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';

const [base = 'http://127.0.0.1:3900', seconds = '10', credentials = 'bench-admin:bench-password-1'] = process.argv.slice(2);
const db = await mysql.createConnection(process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/calendar_bench');
const [[organizer]] = await db.query("SELECT id FROM organizers WHERE status = 'publish' ORDER BY id LIMIT 1");
const [[category]] = await db.query('SELECT id FROM categories ORDER BY id LIMIT 1');
const [[tag]] = await db.query('SELECT id FROM tags ORDER BY id LIMIT 1');

const waits = new Map();
let samples = 0;
let stop = false;
const sampler = (async () => {
  while (!stop) {
    const [rows] = await db.query(
      `SELECT l.lock_table AS t, l.lock_index AS i, l.lock_mode AS m, LEFT(r.trx_query, 80) AS q
         FROM information_schema.INNODB_LOCK_WAITS w
         JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id
         JOIN information_schema.INNODB_LOCKS l ON l.lock_id = w.requested_lock_id`,
    );
    for (const row of rows) {
      const key = `${row.t} ${row.i} ${row.m} | ${row.q}`;
      waits.set(key, (waits.get(key) ?? 0) + 1);
    }
    samples++;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
})();

let counter = 0;
const result = await autocannon({
  url: `${base}/wp-json/tribe/events/v1/events`,
  method: 'POST',
  connections: 32,
  pipelining: 1,
  duration: Number(seconds),
  requests: [
    {
      setupRequest: (request) => ({
        ...request,
        headers: {
          ...request.headers,
          authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          title: `Lock waits ${process.pid} ${++counter}`,
          start_date: '2030-01-10 18:00:00',
          end_date: '2030-01-10 20:00:00',
          organizer: [organizer.id],
          categories: [category.id],
          tags: [tag.id],
        }),
      }),
    },
  ],
});
stop = true;
await sampler;
await db.end();
console.log(
  `${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
);
console.log(`${samples} samples; waiting (transaction, lock) pairs seen, by table, index, mode and statement:`);
for (const [key, count] of [...waits].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${String(count).padStart(7)}  ${key}`);
