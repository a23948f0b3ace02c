import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { LINK_COLUMNS, linksFromColumns } from '../src/events/event-link-columns.js';
import { EventPayloadsService } from '../src/events/event-payloads.service.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/**
 * The links each event keeps in its own row and the number of active webhook subscriptions in the
 * data version row are written by the database's triggers (migration `LinksInEventRow`), whoever
 * writes the link tables or the subscriptions: the API, series generation, a term's or an
 * organizer's removal, statements sent straight to the database. Single-event writes answer from
 * them, so they must always say what the link tables say.
 */
describe('links kept in the event row, active subscriptions in the data version row', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let payloads: EventPayloadsService;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    dataSource = t.app.get<DataSource>(getDataSourceToken());
    payloads = t.app.get(EventPayloadsService);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  let counter = 0;
  const send = (method: 'post' | 'delete' | 'patch', path: string, body?: Record<string, unknown>) =>
    t.http()[method](`${API}/${path}`).set('Authorization', basic(ADMIN)).send(body);
  const made = async (path: string, body: Record<string, unknown>) => {
    const res = await send('post', path, body);
    expect(res.body).toMatchObject({ id: expect.any(Number) });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };

  /** The links of `ids` as the link tables hold them, and as the events' rows hold them. */
  async function linksBothWays(ids: number[]) {
    const query = payloads.linksQuery(ids);
    const fromTables = query.read(await dataSource.query(query.statement.sql));
    const rows: Array<Record<string, unknown>> = await dataSource.query(
      `SELECT id, ${LINK_COLUMNS.join(', ')} FROM events WHERE id IN (${ids.map(Number).join(', ')}) ORDER BY id`,
    );
    const fromRows = rows.map((row) => linksFromColumns(Number(row.id), row));
    const byEvent = (links: typeof fromTables, id: number) => ({
      organizers: links.organizers.filter((link) => link.eventId === id),
      categories: links.categories.filter((link) => link.eventId === id),
      tags: links.tags.filter((link) => link.eventId === id),
    });
    return { tables: ids.map((id) => byEvent(fromTables, id)), rows: ids.map((id, at) => byEvent(fromRows[at], id)) };
  }

  /** The ids `kind` links of event `id`, read from its row, in the answer's order of links. */
  async function rowLinks(id: number) {
    const { tables, rows } = await linksBothWays([id]);
    expect(rows).toEqual(tables);
    return {
      organizers: rows[0].organizers.map((link) => [link.organizerId, link.position]),
      categories: rows[0].categories.map((link) => link.termId),
      tags: rows[0].tags.map((link) => link.termId),
    };
  }

  async function linkedEvent() {
    const n = ++counter;
    const organizers = [await made('organizers', { organizer: `Host A${n}` }), await made('organizers', { organizer: `Host B${n}` })];
    const categories = [await made('categories', { name: `Kind A${n}` }), await made('categories', { name: `Kind B${n}` })];
    const tag = await made('tags', { name: `Mark ${n}` });
    const event = await made('events', {
      title: `Linked ${n}`,
      start_date: 'tomorrow 8pm',
      end_date: 'tomorrow 10pm',
      organizer: [organizers[1], organizers[0]],
      categories,
      tags: [tag],
    });
    return { event, organizers, categories, tag };
  }

  it('keeps them through creates, updates, the removal of a linked organizer and term, and trashes', async () => {
    const { event, organizers, categories, tag } = await linkedEvent();
    expect(await rowLinks(event)).toEqual({
      organizers: [
        [organizers[1], 0],
        [organizers[0], 1],
      ],
      categories: [...categories].sort((a, b) => a - b),
      tags: [tag],
    });

    const other = await made('tags', { name: `Other mark ${counter}` });
    expect((await send('post', `events/${event}`, { organizer: [organizers[0]], categories: [categories[1]], tags: [other] })).status).toBe(
      200,
    );
    expect(await rowLinks(event)).toEqual({ organizers: [[organizers[0], 0]], categories: [categories[1]], tags: [other] });

    expect((await send('post', `events/${event}`, { organizer: [organizers[1], organizers[0]], categories, tags: [] })).status).toBe(200);
    expect((await send('delete', `organizers/${organizers[1]}?force=true`)).status).toBe(200);
    expect((await send('delete', `categories/${categories[0]}`)).status).toBe(200);
    expect(await rowLinks(event)).toEqual({ organizers: [[organizers[0], 1]], categories: [categories[1]], tags: [] });

    // a title update answers from the row: what is left, no removed organizer or term
    const retitled = await send('post', `events/${event}`, { title: 'Retitled' });
    expect(retitled.status).toBe(200);
    expect(retitled.body.organizer.map((item: { id: number }) => item.id)).toEqual([organizers[0]]);
    expect(retitled.body.categories.map((term: { id: number }) => term.id)).toEqual([categories[1]]);
    expect(retitled.body.tags).toEqual([]);

    const trashed = await send('delete', `events/${event}`);
    expect(trashed.status).toBe(200);
    expect(trashed.body.organizer.map((item: { id: number }) => item.id)).toEqual([organizers[0]]);
    expect(await rowLinks(event)).toEqual({ organizers: [[organizers[0], 1]], categories: [categories[1]], tags: [] });
  });

  it('keeps them when the link tables, organizers or terms are written by statements sent straight to the database', async () => {
    const { event, organizers, categories, tag } = await linkedEvent();
    await dataSource.query('UPDATE event_organizers SET position = 7 WHERE event_id = ? AND organizer_id = ?', [event, organizers[1]]);
    await dataSource.query('INSERT INTO event_tags (event_id, tag_id) VALUES (?, ?)', [
      event,
      await made('tags', { name: `Raw ${counter}` }),
    ]);
    // removed outside the API: the foreign keys' cascades would take the links without the link tables' triggers
    await dataSource.query('DELETE FROM categories WHERE id = ?', [categories[1]]);
    await dataSource.query('DELETE FROM organizers WHERE id = ?', [organizers[0]]);
    await dataSource.query('DELETE FROM tags WHERE id = ?', [tag]);
    const links = await rowLinks(event);
    expect(links.organizers).toEqual([[organizers[1], 7]]);
    expect(links.categories).toEqual([categories[0]]);
    expect(links.tags).toHaveLength(1);
    await dataSource.query('DELETE FROM event_categories WHERE event_id = ?', [event]);
    expect((await rowLinks(event)).categories).toEqual([]);
  });

  it('gives the occurrences of a series the links of their main event', async () => {
    const { organizers, categories, tag } = await linkedEvent();
    const main = await made('events', {
      title: 'Weekly',
      start_date: '2031-03-03 10:00:00',
      end_date: '2031-03-03 11:00:00',
      organizer: organizers,
      categories: [categories[0]],
      tags: [tag],
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    const series = await dataSource.query<Array<{ id: number }>>('SELECT id FROM events WHERE series_id = ? ORDER BY id', [main]);
    const ids = series.map((row) => Number(row.id));
    expect(ids).toHaveLength(3);
    const { tables, rows } = await linksBothWays(ids);
    expect(rows).toEqual(tables);
    for (const links of rows) expect(links.organizers.map((link) => link.organizerId)).toEqual(organizers);
  });

  it('counts the active webhook subscriptions however they change', async () => {
    const active = async () => {
      const [row] = await dataSource.query(
        'SELECT active_webhooks AS n, (SELECT COUNT(*) FROM webhook_subscriptions WHERE active <> 0) AS c FROM data_version WHERE id = 1',
      );
      // the count the triggers keep is the count of the table's rows
      expect(Number(row.n)).toBe(Number(row.c));
      return Number(row.n);
    };
    const start = await active();
    const hook = (active: boolean) => made('webhooks', { url: `http://127.0.0.1:9/hook-${++counter}`, events: ['*'], active });
    const first = await hook(true);
    const second = await hook(true);
    const idle = await hook(false);
    expect(await active()).toBe(start + 2);
    expect((await send('patch', `webhooks/${first}`, { active: false })).status).toBe(200);
    expect(await active()).toBe(start + 1);
    expect((await send('patch', `webhooks/${idle}`, { active: true })).status).toBe(200);
    expect((await send('patch', `webhooks/${idle}`, { description: 'still on' })).status).toBe(200);
    expect(await active()).toBe(start + 2);
    expect((await send('delete', `webhooks/${second}`)).status).toBe(200);
    await dataSource.query('UPDATE webhook_subscriptions SET active = 0 WHERE id = ?', [idle]);
    expect(await active()).toBe(start);
    await dataSource.query('DELETE FROM webhook_subscriptions WHERE id IN (?, ?)', [first, idle]);
    expect(await active()).toBe(start);
  });
});
