import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { runTogether } from '../src/common/sql/together.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/** Statements sent together inside a write's transaction, and the one-statement rule for every other query. */
describe('statements sent together', () => {
  let t: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ RESPONSE_CACHE: 'off' });
    dataSource = t.app.get<DataSource>(getDataSourceToken());
  });
  afterAll(() => t.close());

  const itemIds = async () => Number((await dataSource.query('SELECT COUNT(*) AS n FROM item_ids'))[0].n);

  it("answers each statement's own result, in order", async () => {
    const before = await itemIds();
    const results = await dataSource.transaction((manager) =>
      runTogether(manager, [
        { sql: 'INSERT INTO item_ids (kind) VALUES (?)', parameters: ['venue'] },
        { sql: 'SELECT ? AS word, ? AS number', parameters: ["it's; a value", 7] },
        { sql: 'SELECT COUNT(*) AS n FROM item_ids' },
      ]),
    );
    expect(results).toHaveLength(3);
    expect(results[1]).toEqual([{ word: "it's; a value", number: 7 }]);
    expect(Number((results[2] as Array<{ n: number | string }>)[0].n)).toBe(before + 1);
    expect(await itemIds()).toBe(before + 1);
  });

  it('fails as a whole when one statement fails, and the transaction leaves nothing behind', async () => {
    const before = await itemIds();
    await expect(
      dataSource.transaction((manager) =>
        runTogether(manager, [
          { sql: 'INSERT INTO item_ids (kind) VALUES (?)', parameters: ['venue'] },
          // no such event or tag: the foreign keys refuse it
          { sql: 'INSERT INTO event_tags (event_id, tag_id) VALUES (?, ?)', parameters: [987654321, 987654321] },
          { sql: 'INSERT INTO item_ids (kind) VALUES (?)', parameters: ['venue'] },
        ]),
      ),
    ).rejects.toThrow();
    expect(await itemIds()).toBe(before);
  });

  it('refuses a query holding several statements that runTogether did not join', async () => {
    const before = await itemIds();
    await expect(
      dataSource.query("INSERT INTO item_ids (kind) VALUES ('venue'); INSERT INTO item_ids (kind) VALUES ('venue')"),
    ).rejects.toThrow();
    expect(await itemIds()).toBe(before);
    // a value with a `;` is a value
    expect(await dataSource.query('SELECT ? AS v', ['a; DROP TABLE item_ids'])).toEqual([{ v: 'a; DROP TABLE item_ids' }]);
  });

  it('stores a created event with quotes and semicolons in its fields exactly, linked and counted', async () => {
    const admin = basic(ADMIN);
    const title = `Quotes ' " \\ and ; DROP TABLE events; -- end`;
    const category = await t.http().post(`${API}/categories`).set('Authorization', admin).send({ name: "Rock'n'roll; live" });
    expect(category.status).toBe(201);
    const res = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', admin)
      .send({
        title,
        description: "<p>Line one;</p><p>Line two \\ ; 'quoted'</p>",
        start_date: 'tomorrow 8pm',
        end_date: 'tomorrow 10pm',
        organizer: [{ organizer: "O'Hara; & Sons" }],
        categories: [category.body.id],
        tags: ['semi;colon'],
      });
    expect(res.status).toBe(201);
    const read = await t.http().get(`${API}/events/${res.body.id}`);
    expect(read.body.title).toBe(title);
    expect(read.body.description).toBe("<p>Line one;</p><p>Line two \\ ; 'quoted'</p>");
    expect(read.body.organizer.map((organizer: { organizer: string }) => organizer.organizer)).toEqual(["O'Hara; & Sons"]);
    expect(read.body.categories.map((term: { name: string; count: number }) => [term.name, term.count])).toEqual([
      ["Rock'n'roll; live", 1],
    ]);
    expect(read.body.tags.map((term: { name: string; count: number }) => [term.name, term.count])).toEqual([['semi;colon', 1]]);
    const changes = await dataSource.query("SELECT action FROM changes WHERE kind = 'event' AND record_id = ?", [res.body.id]);
    expect(changes).toEqual([{ action: 'created' }]);
  });
});
