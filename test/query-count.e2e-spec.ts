import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/**
 * Reads of the shared data version: a request sends them itself (the response cache, values kept per
 * data version), but requests of one event-loop turn share one, so they are counted apart.
 */
const VERSION_READ = /^SELECT version FROM data_version/;

/**
 * Statements of timers and of passes that run beside a request, whose number depends on timing, not
 * on the request: the scheduled publication's look for the next publication time (periodic, and after
 * each write), the webhook dispatcher's idle poll (once a second), the at-most-once-a-minute note of
 * an application password's last use and the calendar sources' look for due sources (every 15 s; the
 * tests here add no source, so no run follows). None of them depends on what a request reads.
 */
const BACKGROUND = [
  VERSION_READ,
  /^UPDATE app_passwords SET last_used_utc/,
  /^SELECT \(SELECT MIN\(date_utc\) FROM events WHERE status = 'future'\)/,
  /^SELECT id FROM changes WHERE seq IS NULL LIMIT 1/,
  /^SELECT last_seq, dispatched_through FROM change_sequence/,
  /^SELECT id FROM webhook_subscriptions WHERE active = 1 LIMIT 1/,
  /^SELECT s\.id AS id FROM calendar_sources s WHERE /,
];

/** Waits until every change logged so far is numbered and handed to the webhooks (the background work writes leave behind). */
async function changesSequenced(dataSource: DataSource): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const [{ n }] = await dataSource.query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM changes WHERE seq IS NULL');
    const [sequence] = await dataSource.query<Array<{ last_seq: string | number; dispatched_through: string | number }>>(
      'SELECT last_seq, dispatched_through FROM change_sequence WHERE id = 1',
    );
    if (Number(n) === 0 && String(sequence.last_seq) === String(sequence.dispatched_through)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the change log was not sequenced within 5 seconds');
}

/**
 * Counts the statements any query runner of the data source sends, background ones apart (the data
 * version's reads are also counted on their own): on SQLite what each runner's `query` is asked; on
 * MySQL/MariaDB what each pooled connection is asked (each one query, one round trip),
 * `START TRANSACTION` and `COMMIT` included.
 */
function countQueries(dataSource: DataSource): {
  reset(): void;
  readonly count: number;
  readonly versionReads: number;
  readonly statements: string[];
} {
  const runner = dataSource.createQueryRunner();
  const prototype = Object.getPrototypeOf(runner) as {
    query: (...args: unknown[]) => Promise<unknown>;
    connect: (...args: unknown[]) => Promise<unknown>;
  };
  void runner.release();
  const counter = {
    count: 0,
    versionReads: 0,
    statements: [] as string[],
    reset: () => {
      pendingBegin = null;
      Object.assign(counter, { count: 0, versionReads: 0, statements: [] });
    },
  };
  // A transaction of the change sequencer, which runs beside a request (after its commit), is
  // background as a whole: told by its isolation statement (MySQL/MariaDB) or its first statement
  // (SQLite, where transactions take turns on one connection: a first statement on change_sequence).
  // Each connection is followed apart.
  const sequencing = new Map<object, 'isolation' | 'begun' | 'background'>();
  let pendingBegin: { key: object; index: number } | null = null;
  const count = (query: unknown, key: object) => {
    const sql = String(typeof query === 'object' && query !== null && 'sql' in query ? query.sql : query).replace(/[`"]/g, '');
    const state = sequencing.get(key);
    const begin = /^(START|BEGIN) TRANSACTION/i.test(sql);
    const end = /^(COMMIT|ROLLBACK)/i.test(sql);
    if (/^SET TRANSACTION ISOLATION/.test(sql)) {
      sequencing.set(key, 'isolation');
      return;
    }
    if (begin && state === 'isolation') {
      sequencing.set(key, 'background');
      return;
    }
    if (state === 'background') {
      if (end) sequencing.delete(key);
      return;
    }
    if (VERSION_READ.test(sql)) counter.versionReads++;
    // a background statement may come between the sequencer's BEGIN and its first statement (SQLite)
    if (BACKGROUND.some((pattern) => pattern.test(sql))) return;
    if (pendingBegin?.key === key && /change_sequence/.test(sql)) {
      // the transaction just begun on this connection is the sequencer's: its BEGIN was too
      counter.statements.splice(pendingBegin.index, 1);
      counter.count--;
      pendingBegin = null;
      sequencing.set(key, 'background');
      return;
    }
    pendingBegin = begin ? { key, index: counter.statements.length } : pendingBegin?.key === key ? null : pendingBegin;
    counter.count++;
    counter.statements.push(sql);
  };
  if (dataSource.options.type === 'better-sqlite3') {
    const original = prototype.query;
    prototype.query = function (this: unknown, ...args: unknown[]) {
      count(args[0], dataSource);
      return original.apply(this, args);
    };
    return counter;
  }
  const counted = Symbol('counted');
  type Asked = { query: (...args: unknown[]) => unknown; [counted]?: true };
  const connect = prototype.connect;
  prototype.connect = async function (this: unknown, ...args: unknown[]) {
    const connection = (await connect.apply(this, args)) as Asked;
    if (!connection[counted]) {
      connection[counted] = true;
      const query = connection.query;
      connection.query = function (this: unknown, ...queryArgs: unknown[]) {
        count(queryArgs[0], connection);
        return query.apply(this, queryArgs);
      };
    }
    return connection;
  };
  return counter;
}

/** What a write to one event reads after locking it: its links, the embedded rows' version, whether snapshots are wanted. */
const WRITE_CONTEXT =
  /^SELECT 0 AS t, event_id, organizer_id .* FROM event_organizers .* UNION ALL .* FROM event_categories .* UNION ALL .* FROM event_tags .* UNION ALL SELECT 3 AS t, 0 AS event_id, \(SELECT embedded_version FROM data_version WHERE id = 1\) AS term_id, 0 AS extra UNION ALL SELECT 4 AS t, 0 AS event_id, \(\(EXISTS \(SELECT 1 FROM webhook_subscriptions WHERE active = 1\)\)\) AS term_id, 0 AS extra$/;

const SEQUENCER = /^SET TRANSACTION ISOLATION|change_sequence|^SELECT id FROM changes |^UPDATE changes SET seq/;

describe('work per list request', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RESPONSE_CACHE: 'off' });
    const admin = basic(ADMIN);
    for (let index = 0; index < 50; index++) {
      const res = await t
        .http()
        .post(`${API}/events`)
        .set('Authorization', admin)
        .send({
          title: `Linked ${index}`,
          start_date: `tomorrow 9am +${index} minutes`,
          end_date: 'tomorrow 11pm',
          image: `https://images.example.net/e${index}.jpg`,
          venue: { venue: `Hall ${index}`, image: `https://images.example.net/v${index}.png`, geo_lat: 10, geo_lng: 20 },
          organizer: [{ organizer: `Host A${index}` }, { organizer: `Host B${index}`, image: `https://images.example.net/o${index}.gif` }],
          categories: [`Category ${index % 5}`, `Category ${(index + 1) % 5}`],
          tags: [`tag-${index % 7}`, `tag-${(index + 3) % 7}`],
          cost: ['$5', '$10'],
        });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => t.close());

  it('runs the same number of queries for 5 and for 50 fully linked events', async () => {
    const dataSource = t.app.get<DataSource>(getDataSourceToken());
    const counter = countQueries(dataSource);
    const run = async (perPage: number) => {
      await changesSequenced(dataSource); // the creates' changes numbered and dispatched: no sequencer pass left to overlap the read
      await t.http().get(`${API}/events?per_page=${perPage}`); // settles per-second work and per-version values
      counter.reset();
      const res = await t.http().get(`${API}/events?per_page=${perPage}`);
      expect(res.status).toBe(200);
      expect(res.body.events).toHaveLength(perPage);
      expect(
        res.body.events.every(
          (event: { venue: unknown; organizer: unknown[]; categories: unknown[] }) =>
            event.organizer.length === 2 && event.categories.length === 2,
        ),
      ).toBe(true);
      // what a request sends itself is counted, the data version's reads too: none of it grows with the page
      // (timers and the sequencer's passes beside it are not bounded: their number is the machine's timing)
      return { statements: counter.count, versionReads: counter.versionReads };
    };
    const few = await run(5);
    const many = await run(50);
    expect(many).toEqual(few);
    expect(many.statements).toBeLessThanOrEqual(12);
    expect(many.versionReads).toBeLessThanOrEqual(3);
  });

  it("answers a list through an edition's path with one statement more, for 5 and for 50 events, translated or not", async () => {
    const counter = countQueries(t.app.get<DataSource>(getDataSourceToken()));
    const statements = async (path: string) => {
      await t.http().get(path);
      counter.reset();
      const res = await t.http().get(path);
      expect(res.status).toBe(200);
      return counter.count;
    };
    const admin = basic(ADMIN);
    const plain = await statements(`${API}/events?per_page=50`);
    for (const perPage of [5, 50]) expect(await statements(`/de${API}/events?per_page=${perPage}`)).toBe(plain + 1);
    const first = (await t.http().get(`${API}/events?per_page=1`)).body.events[0];
    await t
      .http()
      .post(`${API}/events/${first.id}`)
      .set('Authorization', admin)
      .send({ translations: { de: { title: 'Übersetzt' }, fr: { title: 'Traduit' } } })
      .expect(200);
    expect(await statements(`/de${API}/events?per_page=50`)).toBe(plain + 1);
    expect(
      (await t.http().get(`/de${API}/events?per_page=50`)).body.events.some((event: { title: string }) => event.title === 'Übersetzt'),
    ).toBe(true);
  });

  it('checks every id a create names (venue, organizers, category, tag) in one statement before its transaction', async () => {
    const admin = basic(ADMIN);
    const [linked] = (await t.http().get(`${API}/events?per_page=1`)).body.events as Array<{
      venue: { id: number };
      organizer: Array<{ id: number }>;
      categories: Array<{ id: number }>;
      tags: Array<{ id: number }>;
    }>;
    const counter = countQueries(t.app.get<DataSource>(getDataSourceToken()));
    counter.reset();
    const res = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', admin)
      .send({
        title: 'Checked once',
        start_date: 'tomorrow 8pm',
        end_date: 'tomorrow 10pm',
        venue: linked.venue.id,
        organizer: linked.organizer.map((organizer) => organizer.id).reverse(),
        categories: [linked.categories[0].id],
        tags: [linked.tags[0].id],
      });
    expect(res.status).toBe(201);
    expect(res.body.venue.id).toBe(linked.venue.id);
    expect(res.body.organizer.map((organizer: { id: number }) => organizer.id)).toEqual(linked.organizer.map((o) => o.id).reverse());
    expect(res.body.categories.map((term: { id: number }) => term.id)).toEqual([linked.categories[0].id]);
    expect(res.body.tags.map((term: { id: number }) => term.id)).toEqual([linked.tags[0].id]);
    const begin = counter.statements.findIndex((sql) => /^(START|BEGIN) TRANSACTION/i.test(sql));
    expect(begin).toBeGreaterThan(0);
    const checks = counter.statements.slice(0, begin).filter((sql) => /\b(venues|organizers|categories|tags)\b/.test(sql));
    expect(checks).toHaveLength(1);
  });
  /** The statements of one request: those before its transaction, those inside it (after its start, up to its commit), those after. */
  function partsOf(statements: string[]) {
    // on SQLite a transaction opens with a write that changes nothing, to take the write lock (database/sqlite-transactions.ts): part of its BEGIN
    const own = statements.filter((sql) => !SEQUENCER.test(sql) && !/^DELETE FROM \S+ WHERE 0$/.test(sql));
    const begin = own.findIndex((sql) => /^(START|BEGIN) TRANSACTION/i.test(sql));
    const commit = own.findIndex((sql, index) => index > begin && /^COMMIT/i.test(sql));
    expect(begin).toBeGreaterThan(0);
    expect(commit).toBeGreaterThan(begin);
    return { before: own.slice(0, begin), inside: own.slice(begin + 1, commit), after: own.slice(commit + 1) };
  }

  /** A pass of the change sequencer after a commit, which may run beside the next request, first. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('writes a create with organizer, category and tag in one transaction of few statements, and reads none of it back', async () => {
    const dataSource = t.app.get<DataSource>(getDataSourceToken());
    const [linked] = (await t.http().get(`${API}/events?per_page=1`)).body.events as Array<{
      organizer: Array<{ id: number }>;
      categories: Array<{ id: number }>;
      tags: Array<{ id: number }>;
    }>;
    const version = async () => Number((await dataSource.query('SELECT version FROM data_version WHERE id = 1'))[0].version);
    const versionBefore = await version();
    await settle();
    const counter = countQueries(dataSource);
    counter.reset();
    const res = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', basic(ADMIN))
      .send({
        title: 'Written once',
        start_date: 'tomorrow 8pm',
        end_date: 'tomorrow 10pm',
        organizer: [linked.organizer[0].id],
        categories: [linked.categories[0].id],
        tags: [linked.tags[0].id],
      });
    const { before, inside, after } = partsOf(counter.statements);
    expect(res.status).toBe(201);
    // the credentials version (they were checked in full before), then every id the create names, in one statement
    expect(before).toHaveLength(2);
    expect(before[1]).toMatch(/^SELECT 0 AS t, id FROM categories .* UNION ALL .* FROM tags .* UNION ALL .* FROM organizers /);
    expect(inside).toEqual(
      [
        /^INSERT INTO item_ids/,
        /^SELECT slug, id FROM events WHERE slug = /,
        /^INSERT INTO events/,
        /^INSERT INTO event_organizers/,
        /^INSERT INTO changes/,
        // the counts before the term links: their rows are locked once, in one order
        /^UPDATE categories SET published_count/,
        /^UPDATE tags SET published_count/,
        /^INSERT INTO event_categories/,
        /^INSERT INTO event_tags/,
        // whether a webhook subscription wants snapshots, asked before the commit
        /^SELECT CASE WHEN \(EXISTS \(SELECT 1 FROM webhook_subscriptions WHERE active = 1\)\) THEN 1 ELSE 0 END AS wanted$/,
      ].map((pattern) => expect.stringMatching(pattern)),
    );
    // the answer is built from what was written: the event is not read back; the shared data version moved once, after the commit
    expect(after.filter((sql) => /\bFROM events\b/.test(sql))).toEqual([]);
    expect(after.filter((sql) => sql.startsWith('UPDATE data_version'))).toEqual([
      'UPDATE data_version SET version = version + 1, embedded_version = embedded_version + 1 WHERE id = 1',
    ]);
    expect(await version()).toBe(versionBefore + 1);
    expect(res.body.organizer.map((organizer: { id: number }) => organizer.id)).toEqual([linked.organizer[0].id]);
    expect(res.body.categories.map((term: { id: number }) => term.id)).toEqual([linked.categories[0].id]);
    expect(res.body.tags.map((term: { id: number }) => term.id)).toEqual([linked.tags[0].id]);
  });

  it('writes a title update and a trash of an event outside any series in one transaction on the row locked once; counts kept', async () => {
    const dataSource = t.app.get<DataSource>(getDataSourceToken());
    const created = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', basic(ADMIN))
      .send({ title: 'Edited alone', start_date: 'tomorrow 8pm', end_date: 'tomorrow 10pm', categories: ['Category 1'], tags: ['tag-2'] });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const countOf = async (table: string, termId: number) =>
      Number((await dataSource.query(`SELECT published_count AS n FROM ${table} WHERE id = ?`, [termId]))[0].n);
    const category = created.body.categories[0].id as number;
    const tag = created.body.tags[0].id as number;
    const counts = async () => [await countOf('categories', category), await countOf('tags', tag)];
    const countsBefore = await counts();
    const counter = countQueries(dataSource);
    const versions = async () =>
      (await dataSource.query('SELECT version, embedded_version FROM data_version WHERE id = 1')).map(
        (row: { version: string | number; embedded_version: string | number }) => [Number(row.version), Number(row.embedded_version)],
      )[0] as [number, number];

    await settle();
    // a first title update reads the rows its answer embeds; a second one takes them from the first's
    const [versionBefore, embeddedBefore] = await versions();
    const warm = await t.http().post(`${API}/events/${id}`).set('Authorization', basic(ADMIN)).send({ title: 'Edited alone, once' });
    expect(warm.status).toBe(200);
    await settle();
    counter.reset();
    const updated = await t.http().post(`${API}/events/${id}`).set('Authorization', basic(ADMIN)).send({ title: 'Edited alone, renamed' });
    const update = partsOf(counter.statements);
    expect(updated.status).toBe(200);
    // each moved the data version; neither the version of the rows events embed
    expect(await versions()).toEqual([versionBefore + 2, embeddedBefore]);
    // the same answer but for what the update changed
    const unchanged = (body: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(body).filter(([key]) => !['title', 'modified', 'modified_utc'].includes(key)));
    expect(unchanged(updated.body)).toEqual(unchanged(warm.body));
    expect(updated.body.title).toBe('Edited alone, renamed');
    expect(updated.body.categories.map((term: { id: number }) => term.id)).toEqual([category]);
    expect(await counts()).toEqual(countsBefore);
    // the event's row by id, every column, from the statement kept for the entity (common/sql/rows-by-id.ts)
    const eventRow = /^SELECT id, author_id, .* FROM events WHERE id IN \(\d+\)$/;
    const locked =
      dataSource.options.type === 'better-sqlite3' ? eventRow : /^SELECT id, author_id, .* FROM events WHERE id IN \(\d+\) FOR UPDATE$/;
    // the credentials version, the event for the checks (validation, permission, If-Match) before the transaction
    expect(update.before).toHaveLength(2);
    expect(update.before[0]).toBe('SELECT version FROM credentials_version WHERE id = 1');
    expect(update.before[1]).toMatch(eventRow);
    expect(update.inside).toEqual(
      [
        // the row locked, the one read of it inside; then in one statement its links from the link tables,
        // the version of the rows events embed and whether a webhook subscription wants snapshots (the commit asks no more)
        locked,
        WRITE_CONTEXT,
        // only the columns that changed (the modification time, kept to the second, when the second moved)
        /^UPDATE events SET (modified_utc = \?, )?title = \? WHERE id = (\d+|\?)$/,
        /^INSERT INTO changes/,
      ].map((pattern) => expect.stringMatching(pattern)),
    );
    // no count moved, and the rows the answer embeds were kept by the first update at the same version: not read again
    expect(update.after).toEqual(['UPDATE data_version SET version = version + 1 WHERE id = 1']);

    await settle();
    counter.reset();
    const trashed = await t.http().delete(`${API}/events/${id}`).set('Authorization', basic(ADMIN));
    const trash = partsOf(counter.statements);
    expect(trashed.status).toBe(200);
    expect(trashed.body.status).toBe('trash');
    expect(await counts()).toEqual([countsBefore[0] - 1, countsBefore[1] - 1]);
    expect(await versions()).toEqual([versionBefore + 3, embeddedBefore + 1]);
    expect(trash.before).toHaveLength(2);
    expect(trash.inside).toEqual(
      [
        locked,
        WRITE_CONTEXT,
        // the slugs the trashed one competes with
        /^SELECT slug, id FROM events WHERE slug = /,
        /^UPDATE events SET status = \?, pre_trash_status = \?, slug = \?/,
        /^INSERT INTO changes/,
        /^UPDATE categories SET published_count/,
        /^UPDATE tags SET published_count/,
      ].map((pattern) => expect.stringMatching(pattern)),
    );
    expect(trash.after.filter((sql) => /\bFROM events\b/.test(sql))).toEqual([]);
    expect(await dataSource.query('SELECT status, slug FROM events WHERE id = ?', [id])).toEqual([
      { status: 'trash', slug: trashed.body.slug },
    ]);
  });

  it('counts a list total once per data version: other pages and readers reuse it, a write anywhere counts again', async () => {
    const dataSource = t.app.get<DataSource>(getDataSourceToken());
    const counter = countQueries(dataSource);
    const countings = (table: string) =>
      counter.statements.filter((sql) => /COUNT\(/i.test(sql) && new RegExp(`FROM ${table}\\b`).test(sql));
    const created = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', basic(ADMIN))
      .send({ title: 'Counted', start_date: 'tomorrow 7am', end_date: 'tomorrow 8am' });
    expect(created.status).toBe(201);
    counter.reset();

    const first = await t.http().get(`${API}/events?per_page=7`);
    expect([first.status, first.body]).toEqual([200, expect.anything()]);
    const total = first.body.total as number;
    expect(total).toBeGreaterThan(7);
    expect(countings('events')).toHaveLength(1);
    const second = await t.http().get(`${API}/events?per_page=7&page=2`);
    const other = await t.http().get(`${API}/events?per_page=3`);
    expect([second.body.total, other.body.total, other.headers['x-wp-total']]).toEqual([total, total, String(total)]);
    expect(countings('events')).toHaveLength(1);
    // another filter is another count
    const filtered = await t.http().get(`${API}/events?per_page=7&featured=true`);
    expect(filtered.body.total).toBe(0);
    expect(countings('events')).toHaveLength(2);

    const venues = [await t.http().get(`${API}/venues?per_page=2`), await t.http().get(`${API}/venues?per_page=2&page=3`)];
    expect(venues.map((res) => res.body.total)).toEqual([50, 50]);
    expect(countings('venues')).toHaveLength(1);

    // a write of this process
    await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', basic(ADMIN))
      .send({ title: 'Counted too', start_date: 'tomorrow 7am', end_date: 'tomorrow 8am' })
      .expect(201);
    expect((await t.http().get(`${API}/events?per_page=7&page=2`)).body.total).toBe(total + 1);
    expect(countings('events')).toHaveLength(3);

    // a write of another process: its rows, then the shared version it moves
    await dataSource.query(`UPDATE events SET status = 'draft' WHERE id = ?`, [created.body.id]);
    expect((await t.http().get(`${API}/events?per_page=7`)).body.total).toBe(total + 1);
    await dataSource.query('UPDATE data_version SET version = version + 1 WHERE id = 1');
    expect((await t.http().get(`${API}/events?per_page=7`)).body.total).toBe(total);
    await dataSource.query(`UPDATE events SET status = 'publish' WHERE id = ?`, [created.body.id]);
    await dataSource.query('UPDATE data_version SET version = version + 1 WHERE id = 1');
    expect((await t.http().get(`${API}/events?per_page=7`)).body.total).toBe(total + 1);
  });

  it('answers a page past the last from the total alone: no scan to its offset', async () => {
    const counter = countQueries(t.app.get<DataSource>(getDataSourceToken()));
    const pageReads = (table: string) =>
      counter.statements.filter((sql) => new RegExp(`FROM ${table}\\b`).test(sql) && /\bLIMIT\b/i.test(sql));
    for (const path of ['events?per_page=4', 'events?per_page=4&collapse=series', 'venues?per_page=4', 'organizers?per_page=4']) {
      const table = path.split('?')[0];
      const total = (await t.http().get(`${API}/${path}`)).body.total as number;
      expect([path, total]).toEqual([path, expect.any(Number)]);
      counter.reset();
      const past = await t.http().get(`${API}/${path}&page=${Math.ceil(total / 4) + 1000000}`);
      expect([path, past.status, past.body.code]).toEqual([path, 404, expect.stringMatching(/-archive-page-not-found$/)]);
      expect([path, pageReads(table)]).toEqual([path, []]);
      // the last page still reads its rows
      const last = await t.http().get(`${API}/${path}&page=${Math.ceil(total / 4)}`);
      expect([path, last.status, last.body[table].length]).toEqual([path, 200, total - 4 * (Math.ceil(total / 4) - 1)]);
    }
  });
});
