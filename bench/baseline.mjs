// The yardstick of the benchmark: a minimal hand-written Node + mysql2 handler that serves the
// default events page (six events of the default window, with venue, organizers, categories and
// tags) and counts the window's events on every request, straight from the service's tables.
// No framework, no validation, no cache. The benchmark (bench/bench.mjs) measures it beside the
// service's uncached reads and writes and prints the service's figures as a share of its own.
//
// `GET /events/<id>` is the yardstick of an uncached single event: the event's row, its venue,
// organizers, categories and tags, in the same shape.
//
// `POST /events` is the yardstick of writes: a JSON body with title, start and end (site wall time),
// one organizer, one category and one tag, stored in one transaction with the rows the service
// writes for it (item id, event, the three links, the two term counts, the change-log row), and
// answered with the new id and slug. A title already taken as a slug gets the id appended.
//
//   DATABASE_URL=mysql://root@127.0.0.1:3306/calendar_bench PORT=3910 node bench/baseline.mjs
import { createServer } from 'node:http';
import mysql from 'mysql2/promise';

const pool = mysql.createPool({
  uri: process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/calendar_bench',
  connectionLimit: 10,
  dateStrings: true,
});
const port = Number(process.env.PORT ?? 3910);
const perPage = 6;

const pad = (n) => String(n).padStart(2, '0');
function windowOf(now) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1));
  const end = new Date(Date.UTC(now.getUTCFullYear() + 2, now.getUTCMonth(), now.getUTCDate()));
  const day = (d) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return [`${day(start)} 00:00:00`, `${day(end)} 23:59:59`];
}

const WHERE = "status = 'publish' AND hide_from_listings = 0 AND start_local >= ? AND end_local <= ?";

/** Venue, organizers, categories and tags of some events (four reads side by side). */
async function related(events) {
  const ids = events.length ? events.map((event) => event.id) : [0];
  const venueIds = [...new Set(events.map((event) => event.venue_id).filter((id) => id !== null))];
  const [[venues], [organizers], [categories], [tags]] = await Promise.all([
    pool.query('SELECT id, name, slug, address, city, country FROM venues WHERE id IN (?)', [venueIds.length ? venueIds : [0]]),
    pool.query(
      'SELECT eo.event_id, o.id, o.name, o.slug, o.email, o.phone FROM event_organizers eo JOIN organizers o ON o.id = eo.organizer_id WHERE eo.event_id IN (?) ORDER BY eo.position',
      [ids],
    ),
    pool.query(
      'SELECT ec.event_id, c.id, c.name, c.slug FROM event_categories ec JOIN categories c ON c.id = ec.category_id WHERE ec.event_id IN (?)',
      [ids],
    ),
    pool.query('SELECT et.event_id, t.id, t.name, t.slug FROM event_tags et JOIN tags t ON t.id = et.tag_id WHERE et.event_id IN (?)', [
      ids,
    ]),
  ]);
  const byEvent = (rows, id) => rows.filter((row) => row.event_id === id).map(({ event_id: _eventId, ...rest }) => rest);
  return events.map((event) => ({
    ...event,
    venue: venues.find((venue) => venue.id === event.venue_id) ?? [],
    organizer: byEvent(organizers, event.id),
    categories: byEvent(categories, event.id),
    tags: byEvent(tags, event.id),
  }));
}

const COLUMNS =
  'id, slug, title, description, excerpt, status, date_utc, modified_utc, timezone, all_day, start_local, end_local, start_utc, end_utc, cost, venue_id, featured, sticky';

async function single(id) {
  const [events] = await pool.query(`SELECT ${COLUMNS} FROM events WHERE id = ? AND status = 'publish'`, [id]);
  if (events.length === 0) return null;
  return (await related(events))[0];
}

async function page() {
  const [from, to] = windowOf(new Date());
  const [[{ total }]] = await pool.query(`SELECT COUNT(*) AS total FROM events WHERE ${WHERE}`, [from, to]);
  const [events] = await pool.query(`SELECT ${COLUMNS} FROM events WHERE ${WHERE} ORDER BY start_local, id LIMIT ?`, [from, to, perPage]);
  return {
    events: await related(events),
    total,
    total_pages: Math.ceil(total / perPage),
  };
}

const slugOf = (title) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const utcWall = (date) => date.toISOString().slice(0, 19).replace('T', ' ');

async function create(body) {
  const input = JSON.parse(body);
  const connection = await pool.getConnection();
  try {
    await connection.beginTransaction();
    const [allocated] = await connection.query("INSERT INTO item_ids (kind) VALUES ('event')");
    const id = allocated.insertId;
    const [[taken]] = await connection.query('SELECT COUNT(*) AS n FROM events WHERE slug = ?', [slugOf(input.title)]);
    const slug = taken.n > 0 ? `${slugOf(input.title)}-${id}` : slugOf(input.title);
    const now = utcWall(new Date());
    await connection.query(
      `INSERT INTO events (id, author_id, status, slug, description, excerpt, date_utc, date_floating, modified_utc, title, timezone, all_day,
         start_local, end_local, start_utc, end_utc, show_map, show_map_link, hide_from_listings, sticky, featured)
       VALUES (?, 1, 'publish', ?, '', '', ?, 0, ?, ?, 'UTC', 0, ?, ?, ?, ?, 0, 0, 0, 0, 0)`,
      [id, slug, now, now, input.title, input.start_date, input.end_date, input.start_date, input.end_date],
    );
    // the counts first: the links' foreign-key checks then find the term rows locked by this transaction already
    await connection.query('UPDATE categories SET published_count = published_count + 1 WHERE id = ?', [input.categories[0]]);
    await connection.query('UPDATE tags SET published_count = published_count + 1 WHERE id = ?', [input.tags[0]]);
    await connection.query('INSERT INTO event_organizers (event_id, organizer_id, position) VALUES (?, ?, 0)', [id, input.organizer[0]]);
    await connection.query('INSERT INTO event_categories (event_id, category_id) VALUES (?, ?)', [id, input.categories[0]]);
    await connection.query('INSERT INTO event_tags (event_id, tag_id) VALUES (?, ?)', [id, input.tags[0]]);
    await connection.query(
      `INSERT INTO changes (kind, record_id, action, author_id, status_after, protected_before, protected_after, modified_utc, recorded_utc)
       VALUES ('event', ?, 'created', 1, 'publish', 0, 0, ?, ?)`,
      [id, now, now],
    );
    await connection.commit();
    return { id, slug };
  } catch (error) {
    await connection.rollback();
    throw error;
  } finally {
    connection.release();
  }
}

/** The record's state columns as the change log keeps them. */
const stateOf = (event) => [event.author_id, event.status, event.password !== null && event.password !== '' ? 1 : 0];

async function inTransaction(work) {
  const connection = await pool.getConnection();
  try {
    await connection.beginTransaction();
    const result = await work(connection);
    await connection.commit();
    return result;
  } catch (error) {
    await connection.rollback();
    throw error;
  } finally {
    connection.release();
  }
}

/** A title update: the row locked, the new title and modification time, the change. */
function update(id, body) {
  const input = JSON.parse(body);
  return inTransaction(async (connection) => {
    const [[event]] = await connection.query('SELECT id, author_id, status, password FROM events WHERE id = ? FOR UPDATE', [id]);
    if (!event) return null;
    const now = utcWall(new Date());
    await connection.query('UPDATE events SET title = ?, modified_utc = ? WHERE id = ?', [input.title, now, id]);
    const [author, status, secret] = stateOf(event);
    await connection.query(
      `INSERT INTO changes (kind, record_id, action, author_id, status_before, status_after, protected_before, protected_after, modified_utc, recorded_utc)
       VALUES ('event', ?, 'updated', ?, ?, ?, ?, ?, ?, ?)`,
      [id, author, status, status, secret, secret, now, now],
    );
    return { id, title: input.title };
  });
}

/** A trash: the row locked, a free trashed slug, the status, the counts of its terms when it was published, the change. */
function trash(id) {
  return inTransaction(async (connection) => {
    const [[event]] = await connection.query('SELECT id, author_id, status, password, slug FROM events WHERE id = ? FOR UPDATE', [id]);
    if (!event || event.status === 'trash') return null;
    const wanted = `${event.slug}__trashed`;
    const [[taken]] = await connection.query('SELECT COUNT(*) AS n FROM events WHERE slug = ?', [wanted]);
    const slug = taken.n > 0 ? `${wanted}-${id}` : wanted;
    const now = utcWall(new Date());
    await connection.query("UPDATE events SET status = 'trash', pre_trash_status = ?, slug = ?, modified_utc = ? WHERE id = ?", [
      event.status,
      slug,
      now,
      id,
    ]);
    if (event.status === 'publish') {
      await connection.query(
        'UPDATE categories c JOIN event_categories l ON l.category_id = c.id SET c.published_count = c.published_count - 1 WHERE l.event_id = ?',
        [id],
      );
      await connection.query(
        'UPDATE tags t JOIN event_tags l ON l.tag_id = t.id SET t.published_count = t.published_count - 1 WHERE l.event_id = ?',
        [id],
      );
    }
    const [author, status, secret] = stateOf(event);
    await connection.query(
      `INSERT INTO changes (kind, record_id, action, author_id, status_before, status_after, protected_before, protected_after, modified_utc, recorded_utc)
       VALUES ('event', ?, 'trashed', ?, ?, 'trash', ?, ?, ?, ?)`,
      [id, author, status, secret, secret, now, now],
    );
    return { id, status: 'trash', slug };
  });
}

/** Answers a write's result (404 when there was nothing to write to). */
function answerWrite(res, status) {
  return [
    (written) =>
      written
        ? res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(written))
        : res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"not_found"}'),
    (error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(error) })),
  ];
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

// the service's own paths are taken too (`/wp-json/tribe/events/v1/events/<id>`): the bench sends
// the service and this handler the same requests
const API_PREFIX = /^\/wp-json\/tribe\/events\/v1(?=\/)/;

createServer((req, res) => {
  req.url = (req.url ?? '').replace(API_PREFIX, '');
  if (req.url === '/health/ready') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  const target = /^\/events\/(\d+)$/.exec(req.url ?? '');
  if (target && req.method === 'POST') {
    readBody(req)
      .then((body) => update(Number(target[1]), body))
      .then(...answerWrite(res, 200));
    return;
  }
  if (target && req.method === 'DELETE') {
    trash(Number(target[1])).then(...answerWrite(res, 200));
    return;
  }
  if (req.method === 'POST') {
    readBody(req)
      .then(create)
      .then(
        (created) => res.writeHead(201, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(created)),
        (error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(error) })),
      );
    return;
  }
  const one = /^\/events\/(\d+)$/.exec(req.url ?? '');
  if (one) {
    single(Number(one[1])).then(
      (body) =>
        body
          ? res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body))
          : res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"not_found"}'),
      (error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(error) })),
    );
    return;
  }
  page().then(
    (body) => res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body)),
    (error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(error) })),
  );
}).listen(port, '127.0.0.1');
