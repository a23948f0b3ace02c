import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/**
 * An update of one event that names no venue, organizer or term and moves no count answers with the
 * rows its process kept at the version of such rows it read (events/embedded-rows-cache.ts). Every
 * change of those rows, made by any process, moves that version, so the answer always shows them as
 * they are: here the changes are made by a second process on the same database.
 */
describe('rows embedded in the answers of event updates', () => {
  let t: TestApp;
  let other: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await startTestApp();
    other = await startTestApp({}, { sharing: t });
    dataSource = t.app.get<DataSource>(getDataSourceToken());
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  let counter = 0;
  const post = (app: TestApp, path: string, body: Record<string, unknown>) =>
    app.http().post(`${API}/${path}`).set('Authorization', basic(ADMIN)).send(body);

  /** A published event linked to a new venue, organizer, category and tag, made through the first process. */
  async function linkedEvent() {
    const n = ++counter;
    const made = async (path: string, body: Record<string, unknown>) => {
      const res = await post(t, path, body);
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    const venue = await made('venues', { venue: `Hall ${n}`, city: 'Lyon' });
    const organizer = await made('organizers', { organizer: `Host ${n}` });
    const category = await made('categories', { name: `Kind ${n}` });
    const tag = await made('tags', { name: `Mark ${n}` });
    const event = await made('events', {
      title: `Linked ${n}`,
      start_date: 'tomorrow 8pm',
      end_date: 'tomorrow 10pm',
      venue,
      organizer: [organizer],
      categories: [category],
      tags: [tag],
    });
    return { n, event, venue, organizer, category, tag };
  }

  /** A title update through the first process, and its answer. */
  async function retitled(event: number): Promise<Record<string, unknown>> {
    const res = await post(t, `events/${event}`, { title: `Title ${++counter}` });
    expect(res.status).toBe(200);
    return res.body;
  }

  /**
   * What an update answer embeds, beside what a read of the event answers now (a single read adds
   * the venue's and organizers' `json_ld`, which write answers leave out).
   */
  async function embeddedAgainstRead(answer: Record<string, unknown>, event: number) {
    const read = await t.http().get(`${API}/events/${event}`).set('Authorization', basic(ADMIN));
    expect(read.status).toBe(200);
    const withoutJsonLd = (item: unknown) => {
      const { json_ld: _jsonLd, ...rest } = item as Record<string, unknown>;
      return rest;
    };
    const embedded = (body: Record<string, unknown>) => ({
      venue: withoutJsonLd(body.venue),
      organizer: (body.organizer as unknown[]).map(withoutJsonLd),
      categories: body.categories,
      tags: body.tags,
    });
    expect(embedded(answer)).toEqual(embedded(read.body));
  }

  const versions = async () => {
    const [row] = await dataSource.query('SELECT version, embedded_version FROM data_version WHERE id = 1');
    return { version: Number(row.version), embedded: Number(row.embedded_version) };
  };

  it('shows a venue, an organizer and terms renamed by another process since the last update', async () => {
    const linked = await linkedEvent();
    const first = await retitled(linked.event);
    expect(first.venue).toMatchObject({ id: linked.venue, venue: `Hall ${linked.n}`, city: 'Lyon' });
    await embeddedAgainstRead(await retitled(linked.event), linked.event);

    expect((await post(other, `venues/${linked.venue}`, { venue: 'Hall renamed elsewhere', city: 'Nantes' })).status).toBe(200);
    let answer = await retitled(linked.event);
    expect(answer.venue).toMatchObject({ venue: 'Hall renamed elsewhere', city: 'Nantes' });
    await embeddedAgainstRead(answer, linked.event);

    expect((await post(other, `organizers/${linked.organizer}`, { organizer: 'Host renamed elsewhere' })).status).toBe(200);
    answer = await retitled(linked.event);
    expect(answer.organizer).toMatchObject([{ organizer: 'Host renamed elsewhere' }]);
    await embeddedAgainstRead(answer, linked.event);

    expect((await post(other, `categories/${linked.category}`, { name: 'Kind renamed elsewhere' })).status).toBe(200);
    expect((await post(other, `tags/${linked.tag}`, { name: 'Mark renamed elsewhere' })).status).toBe(200);
    answer = await retitled(linked.event);
    expect(answer.categories).toMatchObject([{ id: linked.category, name: 'Kind renamed elsewhere' }]);
    expect(answer.tags).toMatchObject([{ id: linked.tag, name: 'Mark renamed elsewhere' }]);
    await embeddedAgainstRead(answer, linked.event);
  });

  it("shows the terms' counts moved by another process's event writes", async () => {
    const linked = await linkedEvent();
    const before = await retitled(linked.event);
    expect(before.categories).toMatchObject([{ id: linked.category, count: 1 }]);
    const made = await post(other, 'events', {
      title: 'Same terms elsewhere',
      start_date: 'tomorrow 8pm',
      end_date: 'tomorrow 10pm',
      categories: [linked.category],
      tags: [linked.tag],
    });
    expect(made.status).toBe(201);
    const after = await retitled(linked.event);
    expect(after.categories).toMatchObject([{ id: linked.category, count: 2 }]);
    expect(after.tags).toMatchObject([{ id: linked.tag, count: 2 }]);
    await embeddedAgainstRead(after, linked.event);
    // and back when the other event goes to the trash
    expect((await other.http().delete(`${API}/events/${made.body.id}`).set('Authorization', basic(ADMIN))).status).toBe(200);
    const trashedElsewhere = await retitled(linked.event);
    expect(trashedElsewhere.categories).toMatchObject([{ id: linked.category, count: 1 }]);
    await embeddedAgainstRead(trashedElsewhere, linked.event);
  });

  it('leaves the version of embedded rows on a title update and moves it on every write that changes them', async () => {
    const linked = await linkedEvent();
    await retitled(linked.event);
    const start = await versions();
    await retitled(linked.event);
    expect(await versions()).toEqual({ version: start.version + 1, embedded: start.embedded });
    // a status change moves the terms' counts
    expect((await post(t, `events/${linked.event}`, { status: 'draft' })).status).toBe(200);
    const drafted = await versions();
    expect(drafted).toEqual({ version: start.version + 2, embedded: start.embedded + 1 });
    // naming the venue (even the same one) may write embedded rows: the version moves
    expect((await post(t, `events/${linked.event}`, { venue: linked.venue })).status).toBe(200);
    expect((await versions()).embedded).toBe(drafted.embedded + 1);
    // a venue's own write moves it too
    const beforeVenue = await versions();
    expect((await post(t, `venues/${linked.venue}`, { city: 'Lille' })).status).toBe(200);
    expect((await versions()).embedded).toBeGreaterThan(beforeVenue.embedded);
    const answer = await retitled(linked.event);
    expect(answer.venue).toMatchObject({ city: 'Lille' });
  });
});
