// Title updates through the events service alone, with no HTTP, no middleware, no credentials
// check: the app is built as the server builds it (without listening) and `EventsService.update`
// is called with 32 updates in flight, each on another published event outside any series (newest
// first, as bench/writes.mjs). Prints updates per second and the process's CPU per update, three
// times (15, 12 and 12 s). `validate` also runs each body through the validation pipe and
// serialises the answer, as the controller's path would. Beside bench/writes.mjs against a running
// server it splits an update's CPU into the service's part and the rest of the request. `driver`
// sends, instead of calling the service, the statements of its two round trips as mysql2's own
// (callback) pool would, with none of the service's work around them: the floor of Node's CPU for
// that transaction through that driver.
//
//   npm run build && DATABASE_URL=mysql://root@127.0.0.1:3306/bench_speed node bench/service-update.mjs [service|validate|driver]
import 'reflect-metadata';
import { readConfig } from '../dist/src/config/app-config.js';
import { createApp } from '../dist/src/app.setup.js';
import { EventsService } from '../dist/src/events/events.service.js';
import { UpdateEventDto } from '../dist/src/events/dto/update-event.dto.js';
import { ApiValidationPipe } from '../dist/src/common/validation/api-validation.pipe.js';
import mysql from 'mysql2/promise';
import { cpuMs } from './process-cpu.mjs';
import { BUMP, changeRow, EMBEDDED_VERSION, eventColumns, linksOf, lockedRow, PROBE, titleUpdate, utcNow } from './update-statements.mjs';

const mode = process.argv[2] ?? 'service';
if (!['service', 'validate', 'driver'].includes(mode)) throw new Error('The mode is service, validate or driver.');
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL names the calendar to update (MariaDB).');

const cpu = () => cpuMs(process.pid);
const app = await createApp(readConfig());
await app.init();
const svc = app.get(EventsService);
const pipe = new ApiValidationPipe();
const db = await mysql.createConnection(process.env.DATABASE_URL);
const [rows] = await db.query("SELECT id FROM events WHERE status = 'publish' AND series_id IS NULL ORDER BY id DESC LIMIT 30000");
const [[admin]] = await db.query("SELECT id, login FROM users WHERE role = 'administrator' ORDER BY id LIMIT 1");
await db.end();
if (rows.length === 0 || !admin) throw new Error('The calendar needs published events outside a series and an administrator.');
const api = 'http://127.0.0.1/wp-json/tribe/events/v1';
let next = 0;
// the driver's pool, for `driver`: the options of the app's connections that change what mysql2 does
const pool =
  mode === 'driver'
    ? mysql.createPool({
        uri: process.env.DATABASE_URL,
        connectionLimit: 32,
        multipleStatements: true,
        timezone: 'Z',
        supportBigNumbers: true,
        trace: false,
      }).pool
    : null;
const columns = mode === 'driver' ? await eventColumns(pool.promise()) : '';
const send = (connection, sql) =>
  new Promise((resolve, reject) => connection.query(sql, (error, result) => (error ? reject(error) : resolve(result))));
/** The service's two round trips of a title update of `id` (update-statements.mjs), on one pooled connection. */
async function driverUpdate(id) {
  const connection = await new Promise((resolve, reject) => pool.getConnection((error, got) => (error ? reject(error) : resolve(got))));
  try {
    const at = utcNow();
    const [, [row]] = await send(
      connection,
      ['START TRANSACTION', lockedRow(columns, id), linksOf(id), PROBE, EMBEDDED_VERSION].join(';\n'),
    );
    await send(
      connection,
      [titleUpdate(id, at, mysql.escape(`Direct ${next}`)), changeRow(id, at, row.author_id), BUMP, 'COMMIT'].join(';\n'),
    );
  } finally {
    connection.release();
  }
}
async function one() {
  const id = rows[next++ % rows.length].id;
  if (mode === 'driver') return driverUpdate(id);
  const ctx = {
    edition: 'en',
    base: 'http://127.0.0.1/wp-json',
    api,
    target: { path: `/wp-json/tribe/events/v1/events/${id}`, search: '' },
    user: { id: admin.id, login: admin.login, role: 'administrator' },
    route: null,
    routeParams: { id: String(id) },
    subject: null,
    ifMatch: null,
  };
  const body = { title: `Direct ${next}` };
  const input =
    mode === 'validate'
      ? await pipe.transform(body, { type: 'body', metatype: UpdateEventDto })
      : Object.assign(new UpdateEventDto(), body);
  const answer = await svc.update({ id }, input, ctx, undefined);
  if (mode !== 'service') JSON.stringify(answer);
}
async function worker(until) {
  while (Date.now() < until) await one();
}
for (const seconds of [15, 12, 12]) {
  const c0 = cpu(),
    t0 = Date.now(),
    n0 = next;
  await Promise.all(Array.from({ length: 32 }, () => worker(t0 + seconds * 1000)));
  const n = next - n0;
  console.log(`${mode}: ${Math.round(n / ((Date.now() - t0) / 1000))} updates/s, CPU ${((cpu() - c0) / n).toFixed(2)} ms per update`);
}
if (pool) await pool.promise().end();
await app.close();
process.exit(0);
