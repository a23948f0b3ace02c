import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { eventBody, eventClient, expectError, type EventClient } from './support/events.js';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

const admin = basic(ADMIN);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Change {
  cursor: string;
  type: string;
  id: number;
  action: 'created' | 'updated' | 'deleted';
  modified_utc: string;
  rest_url: string;
}
interface Page {
  changes: Change[];
  next_cursor: string;
  has_more: boolean;
}

describe('change feed (issue 14 §3)', () => {
  let t: TestApp;
  let ev: EventClient;

  const feed = async (query: string, auth: string | null = null): Promise<Page> => {
    const req = t.http().get(`${API}/changes${query}`);
    const res = await (auth ? req.set('Authorization', auth) : req);
    if (res.status !== 200) throw new Error(`/changes${query}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Page;
  };
  const now = async () => (await feed('?since=now')).next_cursor;
  /** Every change after `cursor`, following `next_cursor` page by page. */
  const all = async (cursor: string, auth: string | null = null, perPage = 100): Promise<Change[]> => {
    const seen: Change[] = [];
    let position = cursor;
    for (;;) {
      const page = await feed(`?since=${encodeURIComponent(position)}&per_page=${perPage}`, auth);
      seen.push(...page.changes);
      expect(typeof page.next_cursor).toBe('string');
      position = page.next_cursor;
      if (!page.has_more) return seen;
    }
  };
  const brief = (changes: Change[]) => changes.map((change) => `${change.type}:${change.id}:${change.action}`);
  const send = (method: 'post' | 'delete', path: string, body?: Record<string, unknown>, auth = admin) => {
    const req = t.http()[method](`${API}${path}`).set('Authorization', auth);
    return body ? req.send(body) : req;
  };

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
  });
  afterAll(() => t.close());

  it('is listed in the namespace index and documented in /doc, in the editions too', async () => {
    for (const prefix of ['', '/de']) {
      const index = await t.http().get(`${prefix}${API}`);
      expect(Object.keys(index.body.routes)).toContain(`/tribe/events/v1/changes`);
      const doc = await t.http().get(`${prefix}${API}/doc`);
      const operation = doc.body.paths['/changes'].get;
      expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(['since', 'per_page']);
      expect(Object.keys(operation.responses)).toEqual(['200', '400', '410']);
    }
    const german = await t.http().get(`/de${API}/doc`);
    expect(german.body.paths['/changes'].get.summary).toBe('Änderungen auflisten');
  });

  it('answers since=now with no changes and a cursor, and the same cursor while nothing is written', async () => {
    const first = await feed('?since=now');
    expect(first).toEqual({ changes: [], next_cursor: expect.any(String), has_more: false });
    const again = await feed(`?since=${first.next_cursor}`);
    expect(again).toEqual({ changes: [], next_cursor: first.next_cursor, has_more: false });
  });

  it('reports each write once, in commit order, as the requester sees it', async () => {
    const start = await now();
    const event = await ev.make(eventBody({ title: 'Feed one', status: 'publish' }));
    expect((await ev.update(event.id, { description: 'changed' })).status).toBe(200);
    expect((await ev.update(event.id, { status: 'draft' })).status).toBe(200);
    expect((await ev.update(event.id, { status: 'publish' })).status).toBe(200);
    expect((await ev.update(event.id, { post_password: 'secret' })).status).toBe(200);
    expect((await ev.update(event.id, { post_password: '' })).status).toBe(200);
    expect((await ev.remove(event.id)).status).toBe(200);
    expect((await ev.update(event.id, { status: 'publish' })).status).toBe(200);

    const e = `event:${event.id}`;
    expect(brief(await all(start, admin))).toEqual([
      `${e}:created`,
      `${e}:updated`,
      `${e}:updated`,
      `${e}:updated`,
      `${e}:updated`,
      `${e}:updated`,
      `${e}:deleted`,
      `${e}:created`,
    ]);
    expect(brief(await all(start))).toEqual([
      `${e}:created`,
      `${e}:updated`,
      `${e}:deleted`,
      `${e}:created`,
      `${e}:deleted`,
      `${e}:created`,
      `${e}:deleted`,
      `${e}:created`,
    ]);
    const [created] = await all(start);
    expect(created.rest_url).toBe(`${PUBLIC_URL}${API}/events/${event.id}`);
    expect(created.modified_utc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const german = await feed(`?since=${start}&per_page=1`, null);
    expect(german.changes).toHaveLength(1);
    const de = (await t.http().get(`/de${API}/changes?since=${start}&per_page=1`)).body as Page;
    expect(de.changes[0].rest_url).toBe(`${PUBLIC_URL}/de${API}/events/${event.id}`);
  });

  it('never reports a write that was refused', async () => {
    const start = await now();
    expect((await ev.create({ title: '' })).status).toBe(400);
    expect((await ev.create(eventBody(), null)).status).toBe(401);
    expect(await all(start, admin)).toEqual([]);
  });

  it('follows venues, organizers (also created inline), categories and tags', async () => {
    const start = await now();
    const venue = (await send('post', '/venues', { venue: 'Feed hall' })).body;
    expect((await send('post', `/venues/${venue.id}`, { city: 'Lyon' })).status).toBe(200);
    const organizer = (await send('post', '/organizers', { organizer: 'Feed crew' })).body;
    const parent = (await send('post', '/categories', { name: 'Feed parent' })).body;
    const child = (await send('post', '/categories', { name: 'Feed child', parent: parent.id })).body;
    const tag = (await send('post', '/tags', { name: 'feed-tag' })).body;
    expect((await send('post', `/tags/${tag.id}`, { description: 'tagged' })).status).toBe(200);
    const event = await ev.make(eventBody({ title: 'Inline', venue: { venue: 'Inline hall' }, tags: ['inline-new-tag'] }));
    expect((await send('delete', `/categories/${parent.id}`)).status).toBe(200);
    expect((await send('delete', `/venues/${venue.id}`)).status).toBe(200);
    expect((await send('delete', `/tags/${tag.id}`)).status).toBe(200);

    const seen = brief(await all(start, admin));
    const inlineTag = (await t.http().get(`${API}/tags?slug=inline-new-tag`)).body.tags[0].id as number;
    expect(seen).toEqual([
      `venue:${venue.id}:created`,
      `venue:${venue.id}:updated`,
      `organizer:${organizer.id}:created`,
      `category:${parent.id}:created`,
      `category:${child.id}:created`,
      `tag:${tag.id}:created`,
      `tag:${tag.id}:updated`,
      `venue:${event.venue.id}:created`,
      `tag:${inlineTag}:created`,
      `event:${event.id}:created`,
      // the child moves up to the removed parent's place: it changed too
      `category:${child.id}:updated`,
      `category:${parent.id}:deleted`,
      `venue:${venue.id}:deleted`,
      `tag:${tag.id}:deleted`,
    ]);
    expect(brief(await all(start))).toEqual(seen);
  });

  it('shows authors their own unpublished records, and nobody else', async () => {
    const author: Credentials = await t.user('author');
    const other: Credentials = await t.user('author');
    const start = await now();
    const draft = await ev.make(eventBody({ title: 'Own draft', status: 'draft' }), basic(author));
    expect((await ev.update(draft.id, { status: 'publish' }, basic(author))).status).toBe(200);
    const mine = `event:${draft.id}`;
    expect(brief(await all(start, basic(author)))).toEqual([`${mine}:created`, `${mine}:updated`]);
    expect(brief(await all(start, basic(other)))).toEqual([`${mine}:created`]);
    expect(brief(await all(start))).toEqual([`${mine}:created`]);
    expect(brief(await all(start, admin))).toEqual([`${mine}:created`, `${mine}:updated`]);
  });

  it('pages with per_page and has_more; every page carries next_cursor, and the last one leads nowhere new', async () => {
    const start = await now();
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await ev.make(eventBody({ title: `Paged ${i}` }))).id as number);
    const first = await feed(`?since=${start}&per_page=2`);
    expect(first.changes.map((change) => change.id)).toEqual(ids.slice(0, 2));
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toBe(first.changes[1].cursor);
    const rest = await all(first.next_cursor, null, 2);
    expect(rest.map((change) => change.id)).toEqual(ids.slice(2));
    const end = await feed(`?since=${rest[rest.length - 1].cursor}`);
    expect(end).toEqual({ changes: [], next_cursor: rest[rest.length - 1].cursor, has_more: false });
    const fromOldest = await all((await feed('?per_page=1')).changes[0].cursor, admin, 500);
    expect(fromOldest.map((change) => change.id)).toEqual(expect.arrayContaining(ids));
    // larger pages are reduced to the maximum, not refused
    expect((await feed(`?since=${start}&per_page=100000`)).changes).toHaveLength(5);
  });

  it('refuses what is not a cursor of this feed', async () => {
    const cursor = await now();
    const future = Buffer.from('c1.99999999').toString('base64url');
    for (const since of ['garbage', '', 'Yy5hYmM', future, `${cursor}x`]) {
      expectError(await t.http().get(`${API}/changes?since=${encodeURIComponent(since)}`), 400, 'rest_invalid_param', ['since']);
    }
    expectError(await t.http().get(`${API}/changes?per_page=0`), 400, 'rest_invalid_param', ['per_page']);
    expect((await t.http().get(`${API}/changes?since=NOW`)).status).toBe(200);
  });

  it('reports scheduled events to anonymous readers when they are published', async () => {
    const start = await now();
    const inTwoSeconds = new Date(Date.now() + 2000).toISOString().slice(0, 19).replace('T', ' ');
    const scheduled = await ev.make(eventBody({ title: 'Scheduled', status: 'future', date_utc: inTwoSeconds }));
    expect(scheduled.status).toBe('future');
    expect(brief(await all(start))).toEqual([]);
    await sleep(2600);
    expect((await ev.list()).status).toBe(200);
    expect(brief(await all(start))).toEqual([`event:${scheduled.id}:created`]);
    expect(brief(await all(start, admin))).toEqual([`event:${scheduled.id}:created`, `event:${scheduled.id}:updated`]);
  });

  it('gives a reader that follows it during concurrent writes every acknowledged change exactly once', async () => {
    const start = await now();
    const writers = 6;
    const perWriter = 8;
    const acknowledged: string[] = [];
    const seen: Change[] = [];
    let writing = true;
    const reader = (async () => {
      let position = start;
      while (writing) {
        const page = await feed(`?since=${encodeURIComponent(position)}&per_page=7`, admin);
        seen.push(...page.changes);
        position = page.next_cursor;
        if (!page.has_more) await sleep(5);
      }
      seen.push(...(await all(position, admin, 7)));
    })();
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let i = 0; i < perWriter; i += 1) {
          const event = await ev.make(eventBody({ title: `W${writer}-${i}` }));
          acknowledged.push(`event:${event.id}:created`);
          const res = await ev.update(event.id, { description: `v${i}` });
          expect(res.status).toBe(200);
          acknowledged.push(`event:${event.id}:updated`);
        }
      }),
    );
    writing = false;
    await reader;
    const cursors = seen.map((change) => change.cursor);
    expect(new Set(cursors).size).toBe(cursors.length);
    expect(brief(seen).sort()).toEqual([...acknowledged].sort());
    // per record, in commit order: the creation before the update
    for (const id of new Set(seen.map((change) => change.id))) {
      expect(seen.filter((change) => change.id === id).map((change) => change.action)).toEqual(['created', 'updated']);
    }
  });
});

describe('change feed retention (issue 14 §3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // about 6 seconds: long enough that a loaded machine still keeps the fresh change
    t = await startTestApp({ CHANGES_RETENTION_DAYS: '0.00007' });
  });
  afterAll(() => t.close());

  it('forgets changes older than the retention time, and answers their cursors with 410', async () => {
    const ev = eventClient(t);
    const start = (await t.http().get(`${API}/changes?since=now`)).body.next_cursor as string;
    const old = await ev.make(eventBody({ title: 'Old news' }));
    // an anonymous page is kept by the response cache: removing changes must not leave it answering
    const page = await t.http().get(`${API}/changes?since=${start}`);
    expect(page.body.changes.map((change: Change) => change.id)).toEqual([old.id]);
    expect((await t.http().get(`${API}/changes?since=${start}`)).headers['x-cache']).toBe('HIT');
    await sleep(6800);
    // the process's timer or the read itself removes them, once a second at most
    let expired = await t.http().get(`${API}/changes?since=${start}`);
    for (let attempt = 0; attempt < 15 && expired.status === 200; attempt += 1) {
      await sleep(200);
      expired = await t.http().get(`${API}/changes?since=${start}`);
    }
    expectError(expired, 410, 'rest_sync_cursor_expired');
    const fresh = await ev.make(eventBody({ title: 'Fresh news' }));
    const oldest = await t.http().get(`${API}/changes`);
    expect(oldest.status).toBe(200);
    expect(oldest.body.changes.map((change: Change) => change.id)).toEqual([fresh.id]);
    expect(oldest.body.changes.map((change: Change) => change.id)).not.toContain(old.id);
    const rows = await t.app.get<DataSource>(getDataSourceToken()).query('SELECT record_id FROM changes');
    expect(rows.map((row: { record_id: number | string }) => Number(row.record_id))).toEqual([fresh.id]);
    // a cursor handed out after the removal keeps working
    const next = oldest.body.next_cursor as string;
    expect((await t.http().get(`${API}/changes?since=${next}`)).body.changes).toEqual([]);
  });
});
