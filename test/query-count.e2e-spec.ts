import { Socket } from 'node:net';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/**
 * Background statements whose number depends on timing, not on the request: reads of the shared
 * data version (requests of one event-loop turn share one), the at-most-once-a-second
 * publication of due scheduled items, the webhook dispatcher's idle poll (once a second) and the
 * at-most-once-a-minute note of an application password's last use.
 */
const BACKGROUND = [
  /^SELECT version FROM data_version/,
  /^UPDATE app_passwords SET last_used_utc/,
  /^UPDATE \S+ SET \S+ = 'publish' WHERE \S+ = 'future'/,
  /^SELECT id FROM changes WHERE seq IS NULL LIMIT 1/,
  /^SELECT last_seq, dispatched_through FROM change_sequence/,
  /^SELECT id FROM webhook_subscriptions WHERE active = 1 LIMIT 1/,
];

/**
 * Counts the statements any query runner of the data source sends, background ones apart: on SQLite
 * what each runner's `query` is asked; on MySQL/MariaDB what each pooled connection is asked, since
 * statements sent together leave through the transaction's connection itself (`runTogether`), not
 * through the runner's `query`. Either way a `START TRANSACTION` and a `COMMIT` count where they
 * are asked, whether or not they travel on their own.
 */
function countQueries(dataSource: DataSource): {
  reset(): void;
  readonly count: number;
  readonly background: number;
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
    background: 0,
    statements: [] as string[],
    reset: () => Object.assign(counter, { count: 0, background: 0, statements: [] }),
  };
  const count = (query: unknown) => {
    const sql = String(typeof query === 'object' && query !== null && 'sql' in query ? query.sql : query).replace(/[`"]/g, '');
    if (BACKGROUND.some((pattern) => pattern.test(sql))) counter.background++;
    else {
      counter.count++;
      counter.statements.push(sql);
    }
  };
  if (dataSource.options.type === 'better-sqlite3') {
    const original = prototype.query;
    prototype.query = function (this: unknown, ...args: unknown[]) {
      count(args[0]);
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
        count(queryArgs[0]);
        return query.apply(this, queryArgs);
      };
    }
    return connection;
  };
  return counter;
}

/**
 * The query texts as they leave for the database server (MySQL/MariaDB): the `COM_QUERY` packets
 * written to sockets connected to its port, whatever the layers above joined or answered
 * themselves. `stop` puts the socket back as it was.
 */
function wireQueries(port: number): { texts: string[]; stop(): void } {
  const original = Reflect.get<Socket, 'write'>(Socket.prototype, 'write');
  const texts: string[] = [];
  Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
    const [chunk] = args;
    // a packet: 3 bytes of length, 1 of sequence, then the command (3: a query) and its text
    if (this.remotePort === port && Buffer.isBuffer(chunk) && chunk.length > 5 && chunk[4] === 3) {
      texts.push(
        chunk
          .subarray(5, 4 + chunk.readUIntLE(0, 3))
          .toString('utf8')
          .replace(/`/g, ''),
      );
    }
    return original.apply(this, args);
  } as Socket['write'];
  return { texts, stop: () => void (Socket.prototype.write = original) };
}

/** A pass of the change sequencer, which may run beside a request (after an earlier commit). */
const SEQUENCER = /^SET TRANSACTION ISOLATION|change_sequence|^SELECT id FROM changes |^UPDATE changes SET seq/;

/** The query texts of `wire` that are not background work (see `BACKGROUND`), nor a pass of the change sequencer. */
function ownTexts(texts: string[]): string[] {
  return texts.filter((text) => !BACKGROUND.some((pattern) => pattern.test(text)) && !SEQUENCER.test(text));
}

/** The database server's port, for the MySQL/MariaDB runs. */
function databasePort(dataSource: DataSource): number {
  return Number((dataSource.options as { port?: number }).port ?? 3306);
}

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
    const counter = countQueries(t.app.get<DataSource>(getDataSourceToken()));
    const run = async (perPage: number) => {
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
      expect(counter.background).toBeLessThanOrEqual(6);
      return counter.count;
    };
    const few = await run(5);
    const many = await run(50);
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(12);
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
  it("sends a create's rows in one statement on MySQL/MariaDB: record, organizers, change, term counts, term links, the answer's reads", async () => {
    const dataSource = t.app.get<DataSource>(getDataSourceToken());
    const [linked] = (await t.http().get(`${API}/events?per_page=1`)).body.events as Array<{
      organizer: Array<{ id: number }>;
      categories: Array<{ id: number }>;
      tags: Array<{ id: number }>;
    }>;
    const version = async () => Number((await dataSource.query('SELECT version FROM data_version WHERE id = 1'))[0].version);
    const versionBefore = await version();
    const counter = countQueries(dataSource);
    counter.reset();
    const wire = wireQueries(databasePort(dataSource));
    const res = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', basic(ADMIN))
      .send({
        title: 'Sent together',
        start_date: 'tomorrow 8pm',
        end_date: 'tomorrow 10pm',
        organizer: [linked.organizer[0].id],
        categories: [linked.categories[0].id],
        tags: [linked.tags[0].id],
      });
    wire.stop();
    expect(res.status).toBe(201);
    const begin = counter.statements.findIndex((sql) => /^(START|BEGIN) TRANSACTION/i.test(sql));
    const commit = counter.statements.findIndex((sql) => /^COMMIT/i.test(sql));
    const inside = counter.statements.slice(begin + 1, commit);
    // the shared data version moved once, with the commit on MySQL/MariaDB, right after it on SQLite
    expect(await version()).toBe(versionBefore + 1);
    const bumps = counter.statements.slice(commit + 1).filter((sql) => sql.startsWith('UPDATE data_version'));
    const rows = [
      /^INSERT INTO events /,
      /^INSERT INTO event_organizers /,
      /^INSERT INTO changes /,
      /^UPDATE categories SET published_count/,
      /^UPDATE tags SET published_count/,
      /^INSERT INTO event_categories /,
      /^INSERT INTO event_tags /,
    ];
    const mysql = dataSource.options.type !== 'better-sqlite3';
    if (mysql) {
      const together = inside.filter((sql) => sql.startsWith('INSERT INTO events '));
      expect(together).toHaveLength(1);
      const parts = together[0].split(';\n');
      // then the rows the answer embeds, read in the same round trip
      const reads = [
        /^SELECT .* FROM organizers WHERE id IN/,
        /^SELECT .* FROM categories WHERE id IN/,
        /^SELECT .* FROM tags WHERE id IN/,
      ];
      expect(parts).toHaveLength(rows.length + reads.length);
      parts.forEach((part, index) => expect(part).toMatch([...rows, ...reads][index]));
      // the item id with the slugs the new one competes with and the snapshot probe, then the rows: two round trips
      expect(inside).toHaveLength(2);
      expect(bumps).toHaveLength(0);
      expect(inside[0].split(';\n').map((part) => part.slice(0, 30))).toEqual([
        'INSERT INTO item_ids (kind) VA',
        'SELECT slug, id FROM events WH',
        'SELECT id FROM data_version WH',
      ]);
      // on the wire: the rows carry the version's move and the commit, which costs no round trip of its own
      const sent = ownTexts(wire.texts);
      const last = sent[sent.length - 1].split(';\n');
      expect(last[0]).toMatch(/^INSERT INTO events /);
      // a create moves term counts: the version of the rows events embed moves too
      expect(last.slice(-2)).toEqual([
        'UPDATE data_version SET version = version + 1, embedded_version = embedded_version + 1 WHERE id = 1',
        'COMMIT',
      ]);
      expect(sent.filter((text) => /^\s*COMMIT\s*$/i.test(text))).toHaveLength(0);
      // authentication, the check of the named ids, the start with the id and slugs, the rows with the commit
      expect(sent).toHaveLength(4);
    } else {
      const sent = inside.filter((sql) => rows.some((pattern) => pattern.test(sql)));
      expect(sent.map((sql) => rows.findIndex((pattern) => pattern.test(sql)))).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(bumps).toHaveLength(1);
    }
  });

  it('sends an update and a trash of an event outside any series in three round trips on MySQL/MariaDB (the credentials, then two in the transaction, the commit with the second); counts kept', async () => {
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
    const before = await counts();
    const mysql = dataSource.options.type !== 'better-sqlite3';
    const counter = countQueries(dataSource);

    /** The request's statements before its transaction (the sequencer's apart), and those between its start and its commit. */
    const transaction = () => {
      const own = counter.statements.filter((sql) => !SEQUENCER.test(sql));
      const begin = own.findIndex(
        (sql, index) => /^(START|BEGIN) TRANSACTION/i.test(sql) && /FROM events WHERE id = /.test(own[index + 1] ?? ''),
      );
      const commit = own.findIndex((sql, index) => index > begin && /^COMMIT/i.test(sql));
      expect(begin).toBeGreaterThan(0);
      return { before: own.slice(0, begin), inside: own.slice(begin + 1, commit) };
    };

    // the change sequencer's pass after the create's commit first
    const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
    /**
     * The request's own query texts on the wire: the last carries the version's move (with that of
     * the rows events embed or without) and the commit, none goes on its own.
     */
    const committedWithLast = (texts: string[], embeddedMoves: boolean) => {
      const sent = ownTexts(texts);
      expect(sent.filter((text) => /^\s*COMMIT\s*$/i.test(text))).toHaveLength(0);
      expect(sent[sent.length - 1].split(';\n').slice(-2)).toEqual([
        embeddedMoves
          ? 'UPDATE data_version SET version = version + 1, embedded_version = embedded_version + 1 WHERE id = 1'
          : 'UPDATE data_version SET version = version + 1 WHERE id = 1',
        'COMMIT',
      ]);
      return sent;
    };
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
    let wire = wireQueries(databasePort(dataSource));
    const updated = await t.http().post(`${API}/events/${id}`).set('Authorization', basic(ADMIN)).send({ title: 'Edited alone, renamed' });
    wire.stop();
    expect(updated.status).toBe(200);
    // each moved the data version; neither the version of the rows events embed
    expect(await versions()).toEqual([versionBefore + 2, embeddedBefore]);
    // the same answer but for what the update changed
    const unchanged = (body: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(body).filter(([key]) => !['title', 'modified', 'modified_utc'].includes(key)));
    expect(unchanged(updated.body)).toEqual(unchanged(warm.body));
    expect(updated.body.title).toBe('Edited alone, renamed');
    expect(updated.body.categories.map((term: { id: number }) => term.id)).toEqual([category]);
    expect(await counts()).toEqual(before);
    const update = transaction();
    if (mysql) {
      // authentication only (the event is read once, locked), then inside: the locked row with its links, then everything else;
      // the credentials were checked in full by the create, so the update's check is the credentials version alone
      expect(update.before).toEqual(['SELECT version FROM credentials_version WHERE id = 1']);
      expect(update.inside).toHaveLength(2);
      const first = update.inside[0].split(';\n');
      expect(first).toHaveLength(3);
      // the links as the row keeps them, no link table; whether a webhook subscription is active, from the data version row
      expect(first[0]).toMatch(/^SELECT .*, organizer_links, category_links, tag_links FROM events WHERE id = \d+ FOR UPDATE$/);
      expect(first[1]).toBe('SELECT id FROM data_version WHERE id = 1 AND active_webhooks > 0');
      expect(first[2]).toBe('SELECT embedded_version FROM data_version WHERE id = 1');
      // authentication, the locked row with its links, the rest with the commit
      expect(committedWithLast(wire.texts, false)).toHaveLength(3);
      const parts = update.inside[1].split(';\n');
      // only the columns that changed, in the entity's order (the modification time, kept to the second, when the second moved)
      expect(parts[0]).toMatch(/^UPDATE events SET (modified_utc = '[^']*', )?title = 'Edited alone, renamed' WHERE id = \d+$/);
      expect(parts[1]).toMatch(/^INSERT INTO changes /);
      expect(parts.filter((part) => /^UPDATE \S+ SET published_count/.test(part))).toHaveLength(0);
      // the rows the answer embeds were kept by the first update at the same version: not read again
      expect(parts.filter((part) => /\bFROM (venues|organizers|categories|tags)\b/.test(part))).toEqual([]);
    }

    await settle();
    counter.reset();
    wire = wireQueries(databasePort(dataSource));
    const trashed = await t.http().delete(`${API}/events/${id}`).set('Authorization', basic(ADMIN));
    wire.stop();
    expect(trashed.status).toBe(200);
    expect(trashed.body.status).toBe('trash');
    expect(await counts()).toEqual([before[0] - 1, before[1] - 1]);
    expect(await versions()).toEqual([versionBefore + 3, embeddedBefore + 1]);
    const trash = transaction();
    if (mysql) {
      expect(trash.before).toHaveLength(1);
      expect(trash.inside).toHaveLength(2);
      // the slugs the trashed one competes with were read with the locked row, by its own slug
      expect(trash.inside[0].split(';\n')[2]).toMatch(/^SELECT e\.slug AS own, s\.slug, s\.id FROM events e LEFT JOIN events s /);
      expect(committedWithLast(wire.texts, true)).toHaveLength(3);
      const parts = trash.inside[1].split(';\n');
      // the counts moved: the rows the answer embeds are read again, after them
      expect(parts.filter((part) => /^SELECT .* FROM (categories|tags) WHERE id IN/.test(part))).toHaveLength(2);
      expect(parts[0]).toMatch(/^UPDATE events SET status = 'trash', pre_trash_status = 'publish', slug = .*__trashed/);
      expect(parts.filter((part) => /^UPDATE (categories|tags) SET published_count = published_count \+ -1/.test(part))).toHaveLength(2);
    }
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
    expect(first.status).toBe(200);
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
