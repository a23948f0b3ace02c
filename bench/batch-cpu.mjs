// Node's and MariaDB's CPU per round trip for the reads the answer of an event update embeds: the
// venue, organizers, categories and tags of one event (four statements, every column, as the
// events service sends them with the write), sent together with the webhook probe that every
// write sends anyway, beside the probe alone, the probe with the venue only, and the probe with
// four `SELECT 1`. 32 round trips in flight on a pool of multi-statement connections, 4 s per
// variant, two rounds; random published events outside any series. What the embedded reads cost
// an update on both sides of the connection, and how much of that is per statement.
//
//   DATABASE_URL=mysql://root@127.0.0.1:3306/calendar_bench node bench/batch-cpu.mjs
import mysql from 'mysql2/promise';
import { cpuMs, mariadbPid } from './process-cpu.mjs';
import { PROBE } from './update-statements.mjs';

const mariadb = mariadbPid();
if (!mariadb) throw new Error('No local MariaDB server (mariadbd) to measure.');
const pool = mysql.createPool({
  uri: process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/calendar_bench',
  connectionLimit: 32,
  multipleStatements: true,
});
const [events] = await pool.query(
  `SELECT e.id, e.venue_id AS venue,
     (SELECT GROUP_CONCAT(organizer_id) FROM event_organizers WHERE event_id = e.id) AS organizers,
     (SELECT GROUP_CONCAT(category_id) FROM event_categories WHERE event_id = e.id) AS categories,
     (SELECT GROUP_CONCAT(tag_id) FROM event_tags WHERE event_id = e.id) AS tags
   FROM events e WHERE e.status = 'publish' AND e.series_id IS NULL AND e.venue_id IS NOT NULL ORDER BY e.id DESC LIMIT 5000`,
);
if (events.length === 0) throw new Error('No published event with a venue outside a series.');
const columns = async (table) => (await pool.query(`SELECT * FROM ${table} LIMIT 0`))[1].map((field) => `\`${field.name}\``).join(', ');
const every = {};
for (const table of ['venues', 'organizers', 'categories', 'tags']) every[table] = await columns(table);
const rowsOf = (table, ids) => `SELECT ${every[table]} FROM \`${table}\` WHERE \`id\` IN (${ids ?? 0})`;
const probe = PROBE;
const any = () => events[Math.floor(Math.random() * events.length)];

const variants = {
  'probe alone': () => probe,
  'probe + 4 × SELECT 1': () => [probe, 'SELECT 1', 'SELECT 1', 'SELECT 1', 'SELECT 1'].join(';\n'),
  'probe + venue': () => [probe, rowsOf('venues', any().venue)].join(';\n'),
  'probe + the 4 embedded reads': () => {
    const event = any();
    return [
      probe,
      rowsOf('venues', event.venue),
      rowsOf('organizers', event.organizers),
      rowsOf('categories', event.categories),
      rowsOf('tags', event.tags),
    ].join(';\n');
  },
};
const seconds = 4;
for (let round = 1; round <= 2; round++) {
  for (const [name, sql] of Object.entries(variants)) {
    const node0 = process.cpuUsage();
    const db0 = cpuMs(mariadb);
    const start = Date.now();
    let done = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (Date.now() - start < seconds * 1000) {
          await pool.query(sql());
          done++;
        }
      }),
    );
    const node = process.cpuUsage(node0);
    const perTrip = (ms) => `${((ms / done) * 1000).toFixed(0)} µs`;
    console.log(
      `round ${round}  ${name.padEnd(30)} ${String(Math.round(done / seconds)).padStart(6)} round trips/s  ` +
        `Node ${perTrip((node.user + node.system) / 1000)}  MariaDB ${perTrip(cpuMs(mariadb) - db0)}`,
    );
  }
}
await pool.end();
