// MariaDB's CPU per statement for the reads an update or trash of one event sends, each statement
// as its own round trip from 8 connections for 3 s (from /proc), beside `SELECT 1`: what one more or
// one fewer statement in a write costs the database, and which ones cost more than a round trip.
// Random published events of the calendar outside any series; the login is the bench's admin's.
//
//   DATABASE_URL=mysql://root@127.0.0.1:3306/bench_speed node bench/statement-cpu.mjs
import mysql from 'mysql2/promise';
import { cpuMs, mariadbPid } from './process-cpu.mjs';
import { linksOf, PROBE } from './update-statements.mjs';

const login = (process.env.BENCH_CREDENTIALS ?? 'bench-admin:bench-password-1').split(':')[0];
const mariadb = mariadbPid();
if (!mariadb) throw new Error('No local MariaDB server (mariadbd) to measure.');
const pool = mysql.createPool({ uri: process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/calendar_bench', connectionLimit: 8 });
const [events] = await pool.query(
  "SELECT id, venue_id FROM events WHERE status = 'publish' AND series_id IS NULL ORDER BY id DESC LIMIT 5000",
);
if (events.length === 0) throw new Error('No published event outside a series.');
const [[term]] = await pool.query('SELECT MIN(category_id) AS id FROM event_categories');
const any = () => events[Math.floor(Math.random() * events.length)];
const all = (await pool.query('SELECT * FROM events LIMIT 1'))[1].map((field) => field.name).join(', ');
const since = new Date(Date.now() - 15 * 60_000).toISOString().slice(0, 23).replace('T', ' ');
const address = '::ffff:127.0.0.1';

const statements = {
  'SELECT 1 (a round trip)': () => 'SELECT 1',
  'login-lock count': () =>
    `SELECT SUM(CASE WHEN address = '${address}' AND login_key = '${login}' THEN 1 ELSE 0 END) AS pair, ` +
    `SUM(CASE WHEN address = '${address}' THEN 1 ELSE 0 END) AS address, SUM(CASE WHEN login_key = '${login}' THEN 1 ELSE 0 END) AS login ` +
    `FROM login_failures WHERE failed_utc > '${since}' AND (address = '${address}' OR login_key = '${login}')`,
  'passwords of a login': () =>
    `SELECT p.*, u.* FROM app_passwords p INNER JOIN users u ON u.id = p.user_id WHERE u.login_key = '${login}' ORDER BY p.id`,
  'event, every column': () => `SELECT ${all} FROM events WHERE id IN (${any().id})`,
  'event, three columns': () => `SELECT id, author_id, status FROM events WHERE id = ${any().id}`,
  'links (three tables)': () => linksOf(any().id),
  'webhook probe': () => PROBE,
  venue: () => `SELECT * FROM venues WHERE id IN (${any().venue_id ?? 0})`,
  category: () => `SELECT * FROM categories WHERE id IN (${term.id ?? 0})`,
};

for (const [name, sql] of Object.entries(statements)) {
  const before = cpuMs(mariadb);
  const until = Date.now() + 3000;
  let done = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (Date.now() < until) {
        await pool.query(sql());
        done++;
      }
    }),
  );
  console.log(
    `${name.padEnd(26)} ${String(Math.round(done / 3)).padStart(6)}/s  MariaDB ${(((cpuMs(mariadb) - before) / done) * 1000).toFixed(0)} µs per statement`,
  );
}
await pool.end();
