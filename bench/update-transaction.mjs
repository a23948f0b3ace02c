// MariaDB's CPU per title-update transaction, in variants of what the service sends, from 32
// connections straight to the database (no server): the transaction as the service sends it today
// (two round trips: the locked row with the organizer/category/tag links, the webhook probe and the
// embedded-rows version; then the update, the change row, the data-version bump and the commit),
// the same with parts left out or sent another way, and the hand-written handler's five round
// trips. Each variant runs `seconds` (default 5) per pass, the variants in turn, `passes` times
// (default 3), then each one's mean. What one table more or less in a write costs the database,
// measured in one run beside the yardstick's transaction.
//
// It commits real updates of the newest 30,000 published events outside any series (their titles
// become "Measured …") and change rows, which it deletes at the end. Run it on a bench calendar
// with no server of the service running on it (a server would number the change rows meanwhile).
//
//   DATABASE_URL=mysql://root@127.0.0.1:3306/bench_speed node bench/update-transaction.mjs [passes] [seconds] [variant…]
import mysql from 'mysql2/promise';
import { cpuMs, mariadbPid } from './process-cpu.mjs';
import { BUMP, changeRow, EMBEDDED_VERSION, eventColumns, linksOf, lockedRow, PROBE, titleUpdate, utcNow } from './update-statements.mjs';

const [passes = '3', seconds = '5', ...only] = process.argv.slice(2);
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL names the calendar (MariaDB).');
const mariadb = mariadbPid();
if (!mariadb) throw new Error('No local MariaDB server (mariadbd) to measure.');
const pool = mysql.createPool({ uri: process.env.DATABASE_URL, connectionLimit: 32, multipleStatements: true });
const [events] = await pool.query("SELECT id FROM events WHERE status = 'publish' AND series_id IS NULL ORDER BY id DESC LIMIT 30000");
if (events.length === 0) throw new Error('No published event outside a series.');
const [[{ last }]] = await pool.query('SELECT COALESCE(MAX(id), 0) AS last FROM changes');
const columns = await eventColumns(pool);

let next = 0;
const target = () => events[next++ % events.length].id;
const row = (id) => lockedRow(columns, id);
const linksInRow = (id) =>
  `SELECT ${columns}, (SELECT GROUP_CONCAT(organizer_id, ':', position) FROM event_organizers WHERE event_id = ${id}) AS o, ` +
  `(SELECT GROUP_CONCAT(category_id) FROM event_categories WHERE event_id = ${id}) AS c, ` +
  `(SELECT GROUP_CONCAT(tag_id) FROM event_tags WHERE event_id = ${id}) AS g FROM events WHERE id = ${id} FOR UPDATE`;
const update = (id, at) => titleUpdate(id, at, `'Measured ${next}'`);
const change = (id, at) => changeRow(id, at, 1);
/** The service's two round trips, with the first one's reads and the second one's bump as given. */
const service =
  (reads, bump = [BUMP]) =>
  async (connection, id) => {
    const at = utcNow();
    await connection.query(['START TRANSACTION', ...reads(id)].join(';\n'));
    await connection.query([update(id, at), change(id, at), ...bump, 'COMMIT'].join(';\n'));
  };

const variants = {
  'the service (today)': service((id) => [row(id), linksOf(id), PROBE, EMBEDDED_VERSION]),
  'without the links': service((id) => [row(id), PROBE, EMBEDDED_VERSION]),
  'without links, probe, version read': service((id) => [row(id)]),
  'without the webhook probe': service((id) => [row(id), linksOf(id), EMBEDDED_VERSION]),
  'without the version read': service((id) => [row(id), linksOf(id), PROBE]),
  'without the version bump': service((id) => [row(id), linksOf(id), PROBE, EMBEDDED_VERSION], []),
  'the bump after the commit, 1 per 4': async (connection, id) => {
    await service((id) => [row(id), linksOf(id), PROBE, EMBEDDED_VERSION], [])(connection, id);
    // as writers of one event-loop turn would share one bump after their commits (about four under this load)
    if (next % 4 === 0) await connection.query(BUMP);
  },
  'links as subqueries of the row': service((id) => [linksInRow(id), PROBE, EMBEDDED_VERSION]),
  "the handler's five round trips": async (connection, id) => {
    const at = utcNow();
    await connection.query('START TRANSACTION');
    await connection.query(`SELECT id, author_id, status, password FROM events WHERE id = ${id} FOR UPDATE`);
    await connection.query(update(id, at));
    await connection.query(change(id, at));
    await connection.query('COMMIT');
  },
};
const chosen = Object.entries(variants).filter(([name]) => only.length === 0 || only.includes(name));
if (chosen.length === 0) throw new Error(`No such variant; the variants are: ${Object.keys(variants).join('; ')}.`);

const sums = new Map();
try {
  for (let pass = 1; pass <= Number(passes); pass++) {
    for (const [name, run] of chosen) {
      const before = cpuMs(mariadb);
      const until = Date.now() + Number(seconds) * 1000;
      let done = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          const connection = await pool.getConnection();
          try {
            while (Date.now() < until) {
              await run(connection, target());
              done++;
            }
          } finally {
            connection.release();
          }
        }),
      );
      const perUpdate = ((cpuMs(mariadb) - before) / done) * 1000;
      const sum = sums.get(name) ?? { cpu: 0, rate: 0, runs: 0 };
      sums.set(name, { cpu: sum.cpu + perUpdate, rate: sum.rate + done / Number(seconds), runs: sum.runs + 1 });
      console.log(
        `pass ${pass}  ${name.padEnd(36)} ${String(Math.round(done / Number(seconds))).padStart(6)}/s  MariaDB ${perUpdate.toFixed(0)} µs per update`,
      );
    }
  }
  console.log('mean:');
  for (const [name, { cpu, rate, runs }] of sums)
    console.log(`  ${name.padEnd(36)} ${String(Math.round(rate / runs)).padStart(6)}/s  MariaDB ${(cpu / runs).toFixed(0)} µs per update`);
} finally {
  // the change rows written here, which no server numbered
  await pool.query('DELETE FROM changes WHERE id > ? AND seq IS NULL', [last]);
  await pool.end();
}
