import { DataSource } from 'typeorm';
import mysql from 'mysql2/promise';
import type { Response } from 'supertest';
import { ADMIN_AUTH, eventBody, eventClient, expectError, type EventClient } from './support/events.js';
import { API, basic, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

/**
 * An update or trash of one event is checked first (fields, dates, permission, If-Match), then
 * written in one transaction on the event's row, locked and read there once: what another writer
 * committed meanwhile is seen, and each write logs exactly one change. Writes that concern a series
 * take their own service, with the same checks before them.
 */
describe('event writes in one transaction on the locked row', () => {
  let t: TestApp;
  let ev: EventClient;
  let author: Credentials;

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
    author = await t.user('author');
  });
  afterAll(() => t.close());

  /** The changes logged since `cursor`, as [record id, action]. */
  async function changesSince(cursor: string) {
    const res = await t
      .http()
      .get(`${API}/changes?since=${encodeURIComponent(cursor)}`)
      .set('Authorization', ADMIN_AUTH);
    return (res.body.changes as Array<{ id: number; action: string }>).map(({ id, action }) => [id, action]);
  }

  it('updates and trashes a plain event, its term counts kept', async () => {
    const event = await ev.make(eventBody({ title: 'Single Read', categories: ['Once'] }));
    const cursor = (await t.http().get(`${API}/changes?since=now`)).body.next_cursor as string;
    const updated = await ev.update(event.id, { title: 'Single Read, Edited', end_date: '2027-04-02 23:00:00' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: event.id, title: 'Single Read, Edited', end_date: '2027-04-02 23:00:00' });
    const trashed = await ev.remove(event.id);
    expect(trashed.status).toBe(200);
    expect(trashed.body).toMatchObject({ id: event.id, status: 'trash', slug: 'single-read__trashed', title: 'Single Read, Edited' });
    expect(trashed.body.categories[0].count).toBe(0);
    expect(await changesSince(cursor)).toEqual([
      [event.id, 'updated'],
      [event.id, 'deleted'],
    ]);
    expectError(await ev.get(event.id, ADMIN_AUTH), 403, 'event-no-longer-available');
  });

  it('writes an occurrence of a series, a scope and If-Match with one change each, and refuses ids of other items', async () => {
    const main = await ev.make(eventBody({ title: 'Weekly Reading', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] }));
    const occurrences = await t.http().get(`${API}/events?post_parent=${main.id}&start_date=2027-01-01&end_date=2027-12-31`);
    const [occurrence] = occurrences.body.events as Array<{ id: number }>;
    expect(occurrence.id).not.toBe(main.id);
    const venue = (await t.http().post(`${API}/venues`).set('Authorization', ADMIN_AUTH).send({ venue: 'Not An Event Hall' })).body;
    const plain = await ev.make(eventBody({ title: 'Scoped' }));
    const cursor = (await t.http().get(`${API}/changes?since=now`)).body.next_cursor as string;

    const edited = await ev.update(occurrence.id, { title: 'One Reading Moved' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: occurrence.id, title: 'One Reading Moved' });
    expectError(await ev.update(venue.id, { title: 'Not an event' }), 400, 'rest-invalid-event-id');
    expect((await ev.remove(occurrence.id)).body).toMatchObject({ id: occurrence.id, status: 'trash' });

    const scoped = await t
      .http()
      .post(`${API}/events/${plain.id}?recurrence_scope=this`)
      .set('Authorization', ADMIN_AUTH)
      .send({ title: 'Scoped Too' });
    expect(scoped.body).toMatchObject({ id: plain.id, title: 'Scoped Too' });

    const { etag } = (await ev.get(plain.id, ADMIN_AUTH)).headers;
    expect(etag).toBeTruthy();
    const conditional = await t
      .http()
      .post(`${API}/events/${plain.id}`)
      .set('Authorization', ADMIN_AUTH)
      .set('If-Match', etag)
      .send({ title: 'Matched' });
    expect(conditional.body).toMatchObject({ id: plain.id, title: 'Matched' });
    // the same condition again: the row changed since, nothing is written
    const stale = await t
      .http()
      .post(`${API}/events/${plain.id}`)
      .set('Authorization', ADMIN_AUTH)
      .set('If-Match', etag)
      .send({ title: 'Too Late' });
    expect(stale.status).toBe(412);
    expect(await changesSince(cursor)).toEqual([
      [occurrence.id, 'updated'],
      [occurrence.id, 'deleted'],
      [plain.id, 'updated'],
      [plain.id, 'updated'],
    ]);
  });

  it('stores every column an update changes, as a later read answers it', async () => {
    const hall = (await t.http().post(`${API}/venues`).set('Authorization', ADMIN_AUTH).send({ venue: 'Stored Hall' })).body as {
      id: number;
    };
    const event = await ev.make(eventBody({ title: 'Stored "quoted"; once' }));
    const updated = await ev.update(event.id, {
      title: "Stored 'again'; -- twice",
      venue: hall.id,
      cost: '12',
      featured: true,
      end_date: '2027-04-02 23:00:00',
    });
    expect(updated.status).toBe(200);
    const read = await ev.get(event.id, ADMIN_AUTH);
    expect(read.status).toBe(200);
    const { json_ld: _readJsonLd, ...venueRead } = read.body.venue as Record<string, unknown>;
    expect(updated.body.venue).toEqual(venueRead);
    for (const field of ['title', 'cost', 'featured', 'end_date', 'start_date', 'slug', 'status', 'modified_utc'])
      expect([field, read.body[field]]).toEqual([field, updated.body[field]]);
    expect(read.body).toMatchObject({
      title: "Stored 'again'; -- twice",
      venue: { id: hall.id },
      featured: true,
      end_date: '2027-04-02 23:00:00',
    });
  });

  it('finds the trashed slug among slugs with LIKE wildcards, and keeps a slug that already ends in the suffix', async () => {
    // slugs the API would not make (imported ones may hold them): set in the table
    const setSlug = (id: number, slug: string) => t.app.get(DataSource).query('UPDATE events SET slug = ? WHERE id = ?', [slug, id]);
    const slugs: string[] = [];
    for (const title of ['First', 'Second', 'Third']) {
      const event = await ev.make(eventBody({ title }));
      await setSlug(event.id, `late_show%x${slugs.length === 0 ? '' : `-${slugs.length + 1}`}`);
      slugs.push((await ev.remove(event.id)).body.slug);
    }
    expect(slugs).toEqual(['late_show%x__trashed', 'late_show%x-2__trashed', 'late_show%x-3__trashed']);
    for (const title of ['Fourth', 'Fifth']) {
      const event = await ev.make(eventBody({ title }));
      await setSlug(event.id, 'late_show%x');
      slugs.push((await ev.remove(event.id)).body.slug);
    }
    expect(slugs.slice(3)).toEqual(['late_show%x__trashed-2', 'late_show%x__trashed-3']);
    const suffixed = await ev.make(eventBody({ title: 'Finale' }));
    await setSlug(suffixed.id, 'finale__trashed');
    expect((await ev.remove(suffixed.id)).body).toMatchObject({ status: 'trash', slug: 'finale__trashed' });
  });

  it('answers the links another writer committed while the update waited for the row (its links read after the lock)', async () => {
    const dataSource = t.app.get(DataSource);
    const event = await ev.make(eventBody({ title: 'Waited For', categories: ['Waiting Room'], tags: ['first-in-line'] }));
    const tag = (await t.http().post(`${API}/tags`).set('Authorization', ADMIN_AUTH).send({ name: 'Linked Meanwhile' })).body as {
      id: number;
    };
    // another writer holds the event's row and links a tag to it (MariaDB: a connection of its own; SQLite: one writer at a time, it commits first)
    const url = process.env.DATABASE_URL;
    const other = url ? await mysql.createConnection(url) : null;
    try {
      let pending: Promise<Response>;
      if (other) {
        await other.query('START TRANSACTION');
        await other.query('SELECT id FROM events WHERE id = ? FOR UPDATE', [event.id]);
        await other.query('INSERT INTO event_tags (event_id, tag_id) VALUES (?, ?)', [event.id, tag.id]);
        pending = ev.update(event.id, { title: 'Waited For, Edited' });
        // the update waits for the event's row (its own locking read, not another statement that locks), then the other writer commits
        const waiting = async () =>
          Number(
            (
              await dataSource.query(
                "SELECT COUNT(*) AS n FROM information_schema.processlist WHERE db = DATABASE() AND id <> CONNECTION_ID() AND command = 'Query' AND info LIKE ?",
                [`%FROM \`events\` WHERE \`id\` IN (${event.id}) FOR UPDATE%`],
              )
            )[0].n,
          );
        for (let tries = 0; (await waiting()) === 0; tries++) {
          if (tries > 200) throw new Error('the update never waited for the row');
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        await other.query('COMMIT');
      } else {
        await dataSource.query('INSERT INTO event_tags (event_id, tag_id) VALUES (?, ?)', [event.id, tag.id]);
        pending = ev.update(event.id, { title: 'Waited For, Edited' });
      }
      const updated = await pending;
      expect(updated.status).toBe(200);
      expect(updated.body.title).toBe('Waited For, Edited');
      const ids = (terms: Array<{ id: number }>) => terms.map((term) => term.id).sort((a, b) => a - b);
      expect(ids(updated.body.tags)).toEqual(ids([tag, ...event.tags]));
      expect(updated.body.categories).toEqual([expect.objectContaining({ name: 'Waiting Room' })]);
    } finally {
      await other?.end();
    }
  });

  it('checks fields and dates, then permission, then the trash', async () => {
    const own = await ev.make(eventBody({ title: 'Checked Order' }));
    const other = await ev.make(eventBody({ title: 'Not Yours' }));
    // a date problem found on the row
    expectError(await ev.update(own.id, { end_date: null }), 400, 'rest_invalid_param', ['end_date']);
    // a field problem with it: both listed
    expectError(await ev.update(own.id, { end_date: null, venue: 999999 }), 400, 'rest_invalid_param', ['end_date', 'venue']);
    // problems before permission, permission before the write
    const stranger = basic(author);
    expectError(await ev.update(other.id, { end_date: null }, stranger), 400, 'rest_invalid_param', ['end_date']);
    expectError(await ev.update(other.id, { title: 'Mine Now' }, stranger), 403, 'rest_forbidden');
    expectError(await ev.remove(other.id, stranger), 403, 'rest_forbidden');
    expect((await ev.get(other.id, ADMIN_AUTH)).body).toMatchObject({ title: 'Not Yours', status: 'publish' });
    expect((await ev.remove(own.id)).status).toBe(200);
    expectError(await ev.remove(own.id), 410, 'event-is-in-trash');
  });
});
