import { getDataSourceToken } from '@nestjs/typeorm';
import type { Response } from 'supertest';
import type { DataSource, EntityTarget } from 'typeorm';
import { rowUnchanged } from '../src/common/sql/unchanged-row.js';
import { DEFAULT_EDITIONS } from '../src/config/http-config.js';
import { EventReadsService } from '../src/events/event-reads.service.js';
import { EventEntity } from '../src/events/event.entity.js';
import { TagEntity } from '../src/tags/tag.entity.js';
import { TagsService } from '../src/tags/tags.service.js';
import { VenueEntity } from '../src/venues/venue.entity.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { readCatalogue } from '../src/i18n/translator.js';
import { ADMIN, API, basic, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

const admin = basic(ADMIN);
const EDITIONS = DEFAULT_EDITIONS.split(',');
const prefix = (lang: string) => (lang === 'en' ? '' : `/${lang}`);
const NS = 'tribe/events/v1';
const STRONG_TAG = /^"[A-Za-z0-9_-]{27}"$/;
const MAX_AGE = 120;
const PUBLIC_READ = `public, max-age=${MAX_AGE}, must-revalidate`;
const PRIVATE_READ = 'private, no-cache';
const V1_PRIVATE = 'no-cache, must-revalidate, max-age=0, no-store, private';
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

type Kind = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
const ITEM_KINDS: Kind[] = ['events', 'venues', 'organizers'];
const ALL_KINDS: Kind[] = [...ITEM_KINDS, 'categories', 'tags'];

/** What a write of each kind sends to change the record, and the field that shows it. */
const CHANGE: Record<Kind, { field: string; body: (value: string) => Record<string, string> }> = {
  events: { field: 'title', body: (value) => ({ title: value }) },
  venues: { field: 'venue', body: (value) => ({ venue: value }) },
  organizers: { field: 'organizer', body: (value) => ({ organizer: value }) },
  categories: { field: 'description', body: (value) => ({ description: value }) },
  tags: { field: 'description', body: (value) => ({ description: value }) },
};

let serial = 0;
const unique = (label: string) => `${label} ${++serial}`;

/** An HTTP-date one second before or after another. */
const shiftDate = (date: string, seconds: number) => new Date(Date.parse(date) + seconds * 1000).toUTCString();

function expectNotModified(res: Response, etag: string): void {
  expect(res.status).toBe(304);
  expect(res.headers.etag).toBe(etag);
  expect(res.text ?? '').toBe('');
  expect(res.headers['content-type']).toBeUndefined();
  expect(res.headers['content-length']).toBeUndefined();
  expect(res.headers['x-wp-total']).toBeUndefined();
}

function expectPreconditionFailed(res: Response, lang = 'en'): void {
  const errors = readCatalogue(lang)?.errors as Record<string, string>;
  expect({ status: res.status, body: res.body }).toEqual({
    status: 412,
    body: { code: 'rest_precondition_failed', message: errors.rest_precondition_failed, data: { status: 412 } },
  });
  expect(res.headers.etag).toBeUndefined();
}

describe('conditional requests (RFC 9110/9111)', () => {
  let t: TestApp;
  let editor: Credentials;
  let contributor: Credentials;
  /** A record of each kind, created by the administrator, with the event linked to nothing. */
  const ids = {} as Record<Kind, number>;
  const slugs = {} as Record<Kind, string>;

  const create = async (kind: Kind, extra: Record<string, unknown> = {}) => {
    const name = unique(`Conditional ${kind}`);
    const body =
      kind === 'events'
        ? { title: name, start_date: 'tomorrow 10am', end_date: 'tomorrow 11am', ...extra }
        : kind === 'venues'
          ? { venue: name, ...extra }
          : kind === 'organizers'
            ? { organizer: name, ...extra }
            : { name, ...extra };
    const res = await t.http().post(`${API}/${kind}`).set('Authorization', admin).send(body);
    expect(res.status).toBe(201);
    return res.body as { id: number; slug: string };
  };
  const get = (path: string, headers: Record<string, string> = {}) => t.http().get(`${API}${path}`).set(headers).buffer(true);
  const tagOf = async (path: string, headers: Record<string, string> = {}) => {
    const res = await get(path, headers);
    expect(res.status).toBe(200);
    return res.headers.etag;
  };

  beforeAll(async () => {
    t = await startTestApp({ HTTP_CACHE_MAX_AGE: String(MAX_AGE) });
    editor = await t.user('editor');
    contributor = await t.user('contributor');
    for (const kind of ALL_KINDS) {
      const record = await create(kind);
      ids[kind] = record.id;
      slugs[kind] = record.slug;
    }
  });
  afterAll(() => t.close());

  describe('ETag on every read', () => {
    /** Every GET route of the namespace index, with real ids and slugs, plus the API index. */
    const readPaths = async (lang: string): Promise<string[]> => {
      const index = await t.http().get(`${prefix(lang)}${API}`);
      expect(index.status).toBe(200);
      const paths = Object.entries(index.body.routes as Record<string, { methods: string[] }>)
        .filter(([, route]) => route.methods.includes('GET'))
        // routes of records this test does not create (webhooks, import jobs) are read as collections only
        .filter(([pattern]) => !pattern.includes('(?P<') || pattern.slice(NS.length + 2).split(/[/.]/)[0] in ids)
        .map(([pattern]) => {
          const kind = pattern.slice(NS.length + 2).split(/[/.]/)[0] as Kind;
          return pattern
            .slice(NS.length + 1)
            .replace(/\(\?P<id>[^)]*\)/, String(ids[kind]))
            .replace(/\(\?P<slug>[^)]*\)/, slugs[kind])
            .replace(/\\\./g, '.');
        });
      expect(paths).toEqual(
        expect.arrayContaining(['', '/doc', '/events', `/events/${ids.events}`, '/events.ics', `/events/${ids.events}.ics`]),
      );
      expect(paths.some((path) => /[(?<>\\]/.test(path))).toBe(false);
      return paths;
    };

    it.each(EDITIONS)('%s: every GET route of the namespace index and the API index answer a stable strong ETag', async (lang) => {
      const paths = await readPaths(lang);
      expect(paths.length).toBeGreaterThanOrEqual(17);
      const seen = new Map<string, { tag: string; answer: string }>();
      for (const path of [...paths.map((p) => `${prefix(lang)}${API}${p}`), `${prefix(lang)}/wp-json/`]) {
        // administrator-only routes (webhooks, import jobs) are read as the administrator
        const adminOnly = (await t.http().get(path)).status === 401;
        const read = () => (adminOnly ? t.http().get(path).set('Authorization', admin) : t.http().get(path)).buffer(true);
        const first = await read();
        const second = await read();
        const auth = await t.http().get(path).set('Authorization', admin).buffer(true);
        for (const res of [first, second, auth])
          expect({ path, status: res.status, tag: STRONG_TAG.test(res.headers.etag) }).toEqual({ path, status: 200, tag: true });
        expect({ path, same: second.headers.etag }).toEqual({ path, same: first.headers.etag });
        if (first.text === auth.text) expect({ path, same: auth.headers.etag }).toEqual({ path, same: first.headers.etag });
        seen.set(path, {
          tag: first.headers.etag,
          answer: `${first.headers['x-tec-total']}|${first.headers['x-wp-total']}|${first.headers.link}|${first.text}`,
        });
      }
      // equal tags exactly for equal answers (by id and by slug answer alike)
      const answers = [...seen.values()];
      const paired = [...seen.entries()];
      for (const [pa, a] of paired)
        for (const [pb, b] of paired) expect({ pa, pb, sameTag: a.tag === b.tag }).toEqual({ pa, pb, sameTag: a.answer === b.answer });
      expect(new Set(answers.map((answer) => answer.tag)).size).toBeGreaterThanOrEqual(answers.length - 3);
    });

    it('gives every edition its own tag (the bodies differ) and HEAD the tag of GET', async () => {
      const tags = new Set<string>();
      for (const lang of EDITIONS) {
        const path = `${prefix(lang)}${API}/events/${ids.events}`;
        const got = await t.http().get(path);
        const head = await t.http().head(path);
        expect(head.status).toBe(200);
        expect(head.headers.etag).toBe(got.headers.etag);
        expect(head.headers['content-length']).toBe(got.headers['content-length']);
        expect(head.text ?? '').toBe('');
        tags.add(got.headers.etag);
      }
      expect(tags.size).toBe(EDITIONS.length);
    });

    it('covers the list headers: pages with equal bodies but other totals would differ', async () => {
      await create('tags');
      await create('tags');
      const page = await get('/tags?hide_empty=0&per_page=1');
      const all = await get('/tags?hide_empty=0&per_page=50');
      expect(page.headers['x-wp-totalpages']).not.toBe(all.headers['x-wp-totalpages']);
      expect(page.headers.etag).not.toBe(all.headers.etag);
    });

    it('changes after a write that changes the answer, and only then', async () => {
      const event = `/events/${ids.events}`;
      const venue = `/venues/${ids.venues}`;
      const before = {
        event: await tagOf(event),
        venue: await tagOf(venue),
        list: await tagOf('/events'),
        ics: await tagOf(`${event}.ics`),
      };
      // unrelated writes: a tag and a category the event does not carry, an organizer it does not name
      await create('tags');
      await create('categories');
      await t.http().patch(`${API}/organizers/${ids.organizers}`).set('Authorization', admin).send({ phone: '555-0100' });
      const missAfterWrite = await get(event);
      expect(missAfterWrite.headers['x-cache']).toBe('MISS');
      expect(missAfterWrite.headers.etag).toBe(before.event);
      expect(await tagOf(venue)).toBe(before.venue);
      expect(await tagOf(`${event}.ics`)).toBe(before.ics);
      // a write to the event itself
      const renamed = await t
        .http()
        .post(`${API}${event}`)
        .set('Authorization', admin)
        .send({ title: unique('Renamed event') });
      expect(renamed.status).toBe(200);
      expect(await tagOf(event)).not.toBe(before.event);
      expect(await tagOf('/events')).not.toBe(before.list);
      expect(await tagOf(`${event}.ics`)).not.toBe(before.ics);
      expect(await tagOf(venue)).toBe(before.venue);
    });
  });

  describe('If-None-Match', () => {
    it('answers 304 for a listed tag, a list of tags, the weak form and *, on a miss and on a hit', async () => {
      const path = '/events';
      // a write makes the next read a miss
      await create('tags');
      const fresh = await get(path);
      const etag = fresh.headers.etag;
      await create('tags');
      const miss = await get(path, { 'If-None-Match': etag });
      expect(miss.headers['x-cache']).toBe('MISS');
      expectNotModified(miss, etag);
      for (const field of [etag, `"nope", ${etag}`, `W/${etag}`, `W/"other" , W/${etag}`, '*']) {
        const hit = await get(path, { 'If-None-Match': field });
        expect(hit.headers['x-cache']).toBe('HIT');
        expectNotModified(hit, etag);
        expect(hit.headers['cache-control']).toBe(PUBLIC_READ);
        expect(hit.headers.vary).toBe('Origin, Authorization');
        expect(hit.headers['last-modified']).toBe(fresh.headers['last-modified']);
      }
      // the entry built by the 304 serves the whole answer, headers included
      const full = await get(path);
      expect(full.headers['x-cache']).toBe('HIT');
      expect(full.status).toBe(200);
      expect(full.text).toBe(fresh.text);
      for (const name of ['etag', 'x-wp-total', 'x-wp-totalpages', 'x-tec-total', 'x-tec-totalpages', 'link', 'last-modified', 'allow'])
        expect({ name, value: full.headers[name] }).toEqual({ name, value: fresh.headers[name] });
    });

    it('answers 200 with the body when no listed tag matches', async () => {
      const path = `/venues/${ids.venues}`;
      const current = await get(path);
      for (const field of ['"nope"', `"${current.headers.etag.slice(1, -2)}"`, 'garbage']) {
        const res = await get(path, { 'If-None-Match': field });
        expect(res.status).toBe(200);
        expect(res.body.id).toBe(ids.venues);
        expect(res.headers.etag).toBe(current.headers.etag);
      }
    });

    it('answers 304 to authenticated requests (never cached) with their own tag and private caching', async () => {
      const path = `/events?status=any&per_page=50`;
      const authed = await get(path, { Authorization: admin });
      expect(authed.headers['x-cache']).toBeUndefined();
      expect(authed.headers['cache-control']).toBe(PRIVATE_READ);
      const res = await get(path, { Authorization: admin, 'If-None-Match': authed.headers.etag });
      expectNotModified(res, authed.headers.etag);
      expect(res.headers['cache-control']).toBe(PRIVATE_READ);
      expect(res.headers.vary).toBe('Origin, Authorization');
      const single = await get(`/categories/${ids.categories}`, { Authorization: basic(editor) });
      expectNotModified(
        await get(`/categories/${ids.categories}`, { Authorization: basic(editor), 'If-None-Match': '*' }),
        single.headers.etag,
      );
    });

    it('answers 304 to HEAD, to the iCalendar feeds, /doc and the namespace index', async () => {
      for (const path of ['/events.ics', `/events/${ids.events}.ics`, '/doc', '']) {
        const etag = await tagOf(path);
        expectNotModified(await get(path, { 'If-None-Match': etag }), etag);
        const head = await t.http().head(`${API}${path}`).set('If-None-Match', etag);
        expectNotModified(head, etag);
      }
    });

    it('is ignored on writes and on answers other than 200', async () => {
      const missing = await get('/events/987654', { 'If-None-Match': '*' });
      expect(missing.status).toBe(404);
      const write = await t
        .http()
        .patch(`${API}/tags/${ids.tags}`)
        .set('Authorization', admin)
        .set('If-None-Match', '*')
        .send({ description: unique('described') });
      expect(write.status).toBe(200);
      expect(write.headers.etag).toBeUndefined();
      expect(write.headers['cache-control']).toBe(V1_PRIVATE);
    });
  });

  describe('Last-Modified and If-Modified-Since', () => {
    it('dates items by modified_utc, lists by their newest item or their last change, and terms by their last change', async () => {
      const httpDate = (wall: string) => new Date(`${wall.replace(' ', 'T')}Z`).toUTCString();
      for (const kind of ITEM_KINDS) {
        const single = await get(`/${kind}/${ids[kind]}`);
        expect(single.headers['last-modified']).toMatch(HTTP_DATE);
        expect(single.headers['last-modified']).toBe(httpDate(single.body.modified_utc));
        const list = await get(`/${kind}?per_page=50`);
        const newest = Math.max(
          ...(list.body[kind] as Array<{ modified_utc: string }>).map((item) => Date.parse(`${item.modified_utc.replace(' ', 'T')}Z`)),
        );
        const dated = Date.parse(list.headers['last-modified']);
        // the newest item, or the change log's last change of the kind when that is later (written in the same second or the next)
        expect(dated).toBeGreaterThanOrEqual(newest);
        expect(dated - newest).toBeLessThanOrEqual(2000);
      }
      for (const path of ['/categories?hide_empty=0', `/categories/${ids.categories}`, '/tags?hide_empty=0', `/tags/${ids.tags}`]) {
        const res = await get(path);
        expect({ path, lastModified: res.headers['last-modified'] }).toEqual({ path, lastModified: expect.stringMatching(HTTP_DATE) });
      }
      for (const path of ['/doc', '/events.ics']) {
        const res = await get(path);
        expect({ path, lastModified: res.headers['last-modified'] }).toEqual({ path, lastModified: undefined });
      }
    });

    it('moves the date of a list when a record leaves it, and of the term lists when a term is deleted', async () => {
      const before = await get('/venues?per_page=50');
      const tagsBefore = await get('/tags?hide_empty=0');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const venue = await t
        .http()
        .post(`${API}/venues`)
        .set('Authorization', admin)
        .send({ venue: unique('Leaving hall') });
      expect(venue.status).toBe(201);
      const tag = await t
        .http()
        .post(`${API}/tags`)
        .set('Authorization', admin)
        .send({ name: unique('leaving') });
      expect(tag.status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const trashed = await t.http().delete(`${API}/venues/${venue.body.id}`).set('Authorization', admin);
      expect(trashed.status).toBe(200);
      expect((await t.http().delete(`${API}/tags/${tag.body.id}`).set('Authorization', admin)).status).toBe(200);
      const after = await get('/venues?per_page=50');
      expect((after.body.venues as Array<{ id: number }>).map((item) => item.id)).not.toContain(venue.body.id);
      // the list's items are the same as before, yet its date is the removal's
      expect(Date.parse(after.headers['last-modified'])).toBeGreaterThanOrEqual(
        Date.parse(`${trashed.body.modified_utc.replace(' ', 'T')}Z`),
      );
      expect(Date.parse(after.headers['last-modified'])).toBeGreaterThan(Date.parse(before.headers['last-modified']));
      expect((await get('/venues?per_page=50', { 'If-Modified-Since': before.headers['last-modified'] })).status).toBe(200);
      const tagsAfter = await get('/tags?hide_empty=0');
      expect(Date.parse(tagsAfter.headers['last-modified'])).toBeGreaterThan(Date.parse(tagsBefore.headers['last-modified']));
    });

    it('answers 304 when not modified since the date, 200 otherwise, and defers to If-None-Match', async () => {
      const path = `/organizers/${ids.organizers}`;
      const current = await get(path);
      const modified = current.headers['last-modified'];
      for (const since of [modified, shiftDate(modified, 3600)]) {
        const res = await get(path, { 'If-Modified-Since': since });
        expectNotModified(res, current.headers.etag);
        expect(res.headers['last-modified']).toBe(modified);
      }
      for (const since of [shiftDate(modified, -1), 'not a date']) {
        const res = await get(path, { 'If-Modified-Since': since });
        expect({ since, status: res.status }).toEqual({ since, status: 200 });
      }
      const withTag = await get(path, { 'If-Modified-Since': shiftDate(modified, 3600), 'If-None-Match': '"nope"' });
      expect(withTag.status).toBe(200);
      // answers without Last-Modified ignore the date
      expect((await get('/doc', { 'If-Modified-Since': shiftDate(modified, 3600) })).status).toBe(200);
      // a change moves the date: the old date no longer matches
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await t
        .http()
        .patch(`${API}${path}`)
        .set('Authorization', admin)
        .send({ phone: unique('555') });
      expect((await get(path, { 'If-Modified-Since': modified })).status).toBe(200);
    });
  });

  describe('If-Match on writes', () => {
    const methods = ['put', 'post', 'patch'] as const;
    /** `/kind/<id>` and, for items, `/kind/by-slug/<slug>` of a record; the slug is read back because writes may move it. */
    const addresses = async (kind: Kind, id: number): Promise<string[]> => {
      if (!ITEM_KINDS.includes(kind)) return [`/${kind}/${id}`];
      const { body } = await get(`/${kind}/${id}`, { Authorization: admin });
      return [`/${kind}/${id}`, `/${kind}/by-slug/${body.slug}`];
    };
    const readBack = async (kind: Kind, id: number) => (await get(`/${kind}/${id}`, { Authorization: admin })).body;

    it.each(ALL_KINDS)('%s: updates by id and slug when the tag matches, 412 and no change when it does not', async (kind) => {
      const { id } = await create(kind);
      const { field, body } = CHANGE[kind];
      for (const method of methods) {
        for (const path of await addresses(kind, id)) {
          const current = await tagOf(path, { Authorization: admin });
          // the same tag with its last character changed
          const stale = `"${current.slice(1, -2)}${current.at(-2) === 'x' ? 'y' : 'x'}"`;
          const before = await readBack(kind, id);
          for (const field412 of [stale, `W/${current}`, `"a", W/${current}`]) {
            const refused = await t
              .http()
              [method](`${API}${path}`)
              .set('Authorization', admin)
              .set('If-Match', field412)
              .send(body(unique('refused')));
            expectPreconditionFailed(refused);
            expect(await readBack(kind, id)).toEqual(before);
          }
          const value = unique(`${method} ok`);
          const accepted = await t
            .http()
            [method](`${API}${path}`)
            .set('Authorization', admin)
            .set('If-Match', `"other", ${current}`)
            .send(body(value));
          expect({ method, path, status: accepted.status }).toEqual({ method, path, status: 200 });
          expect((await readBack(kind, id))[field]).toBe(value);
          // the tag it matched is now stale
          const again = await t
            .http()
            [method](`${API}${path}`)
            .set('Authorization', admin)
            .set('If-Match', current)
            .send(body(unique('again')));
          expectPreconditionFailed(again);
          expect((await readBack(kind, id))[field]).toBe(value);
          // * only asks that the record exists
          const star = await t
            .http()
            [method](`${API}${path}`)
            .set('Authorization', admin)
            .set('If-Match', '*')
            .send(body(unique('star')));
          expect(star.status).toBe(200);
        }
      }
    });

    it.each(ALL_KINDS)('%s: deletes by id and slug only when the tag matches', async (kind) => {
      const paths: Array<(record: { id: number; slug: string }) => string> = [(record) => `/${kind}/${record.id}`];
      if (ITEM_KINDS.includes(kind)) paths.push((record) => `/${kind}/by-slug/${record.slug}`);
      for (const pathOf of paths) {
        const record = await create(kind);
        const path = pathOf(record);
        const current = await tagOf(path, { Authorization: admin });
        const before = await readBack(kind, record.id);
        const refused = await t.http().delete(`${API}${path}`).set('Authorization', admin).set('If-Match', '"stale"');
        expectPreconditionFailed(refused);
        expect(await readBack(kind, record.id)).toEqual(before);
        const deleted = await t.http().delete(`${API}${path}`).set('Authorization', admin).set('If-Match', current);
        expect({ path, status: deleted.status }).toEqual({ path, status: 200 });
        const after = await get(`/${kind}/${record.id}`, { Authorization: admin });
        // a trashed event reads 403 "no longer available"; venues and organizers show their status; terms are gone
        if (kind === 'events') expect(after.body.code).toBe('event-no-longer-available');
        else if (ITEM_KINDS.includes(kind)) expect(after.body.status).toBe('trash');
        else expect(after.status).toBe(400);
      }
    });

    it.each(ALL_KINDS)('%s: a missing record fails the precondition, with * and with a tag', async (kind) => {
      const missing = [`/${kind}/987654`, ...(ITEM_KINDS.includes(kind) ? [`/${kind}/by-slug/no-such-${kind}`] : [])];
      for (const path of missing) {
        for (const field of ['*', '"abc"']) {
          for (const method of [...methods, 'delete'] as const) {
            const req = t.http()[method](`${API}${path}`).set('Authorization', admin).set('If-Match', field);
            const res = method === 'delete' ? await req : await req.send(CHANGE[kind].body(unique('ghost')));
            expect({ path, field, method, status: res.status }).toEqual({ path, field, method, status: 412 });
            expectPreconditionFailed(res);
          }
        }
      }
    });

    it('checks permission before the precondition, and after validation', async () => {
      const { id } = await create('events');
      const path = `${API}/events/${id}`;
      const current = await tagOf(`/events/${id}`, { Authorization: admin });
      const anonymous = await t.http().put(path).set('If-Match', '"stale"').send({ title: 'x' });
      expect(anonymous.status).toBe(401);
      const stranger = await t.http().put(path).set('Authorization', basic(contributor)).set('If-Match', '"stale"').send({ title: 'x' });
      expect(stranger.status).toBe(403);
      const invalid = await t.http().put(path).set('Authorization', admin).set('If-Match', '"stale"').send({ start_date: 'not a date' });
      expect(invalid.status).toBe(400);
      // missing records: the requester who may not write is told so first
      for (const missing of [`${API}/venues/987654`, `${API}/tags/987654`, `${API}/events/987654`]) {
        expect((await t.http().delete(missing).set('If-Match', '*')).status).toBe(401);
        const res = await t.http().delete(missing).set('Authorization', basic(contributor)).set('If-Match', '*');
        expect({ missing, status: res.status }).toEqual({ missing, status: missing.includes('tags') ? 403 : 412 });
      }
      // without If-Match nothing changed
      expect((await t.http().delete(`${API}/venues/987654`)).status).toBe(400);
      expect((await t.http().put(path).set('Authorization', admin).send({ title: 'unconditional' })).status).toBe(200);
      expect(await tagOf(`/events/${id}`, { Authorization: admin })).not.toBe(current);
    });

    it('compares with the tag a GET by the same requester in the same edition answers', async () => {
      const { id } = await create('events');
      const path = `/events/${id}`;
      const asAdmin = await tagOf(path, { Authorization: admin });
      const asEditor = await tagOf(path, { Authorization: basic(editor) });
      const deTag = (await t.http().get(`/de${API}${path}`).set('Authorization', basic(editor))).headers.etag;
      expect(deTag).not.toBe(asEditor);
      // the German edition refuses the English tag, in German
      const wrongEdition = await t
        .http()
        .patch(`/de${API}${path}`)
        .set('Authorization', basic(editor))
        .set('If-Match', asEditor)
        .send({ title: 'x' });
      expectPreconditionFailed(wrongEdition, 'de');
      const ok = await t
        .http()
        .patch(`/de${API}${path}`)
        .set('Authorization', basic(editor))
        .set('If-Match', deTag)
        .send({ title: unique('Bearbeitet') });
      expect(ok.status).toBe(200);
      expect(asAdmin).toMatch(STRONG_TAG);
    });

    it('uses the URL password as a GET of the same URL would', async () => {
      const { id } = await create('venues', { password: 'sesame' });
      const path = `/venues/${id}`;
      const unlocked = await tagOf(`${path}?password=sesame`, { Authorization: admin });
      const plain = await tagOf(path, { Authorization: admin });
      expect(unlocked).toBe(plain); // the administrator is never locked out
      const res = await t
        .http()
        .patch(`${API}${path}?password=sesame`)
        .set('Authorization', admin)
        .set('If-Match', unlocked)
        .send({ city: 'Halden' });
      expect(res.status).toBe(200);
    });

    it('refuses a tag of a trashed event (a GET answers 403), while * reaches the trash check', async () => {
      const { id } = await create('events');
      const tag = await tagOf(`/events/${id}`, { Authorization: admin });
      expect((await t.http().delete(`${API}/events/${id}`).set('Authorization', admin).set('If-Match', tag)).status).toBe(200);
      expectPreconditionFailed(await t.http().delete(`${API}/events/${id}`).set('Authorization', admin).set('If-Match', tag));
      expect((await t.http().delete(`${API}/events/${id}`).set('Authorization', admin).set('If-Match', '*')).status).toBe(410);
    });

    it('refuses the write when the row changes after the condition was evaluated (the check under the row lock)', async () => {
      const dataSource = t.app.get<DataSource>(getDataSourceToken());
      /** Runs `write` while every render of `service.findOne` is followed by a change of the row made behind its back. */
      const racing = async <S extends { findOne: (...args: never[]) => Promise<unknown> }>(
        service: S,
        change: () => Promise<unknown>,
        write: () => Promise<Response>,
      ): Promise<Response> => {
        const original = service.findOne;
        service.findOne = async (...args: never[]) => {
          const body = await original.apply(service, args);
          await change();
          return body;
        };
        try {
          return await write();
        } finally {
          service.findOne = original;
        }
      };
      const cases: Array<
        [Kind, { findOne: (...args: never[]) => Promise<unknown> }, EntityTarget<{ id: number }>, Record<string, string>]
      > = [
        ['events', t.app.get(EventReadsService), EventEntity, { title: 'Changed behind its back' }],
        ['venues', t.app.get(VenuesService), VenueEntity, { city: 'Changed behind its back' }],
        ['tags', t.app.get(TagsService), TagEntity, { description: 'Changed behind its back' }],
      ];
      for (const [kind, service, entity, behind] of cases) {
        for (const method of ['put', 'delete'] as const) {
          const { id } = await create(kind);
          const path = `${API}/${kind}/${id}`;
          const current = await tagOf(`/${kind}/${id}`, { Authorization: admin });
          const change = () => dataSource.getRepository(entity).update({ id }, behind);
          const send = () => {
            const req = t.http()[method](path).set('Authorization', admin).set('If-Match', current);
            return method === 'delete' ? req : req.send(CHANGE[kind].body('Lost update'));
          };
          expectPreconditionFailed(await racing(service, change, send));
          const stored = await dataSource.getRepository(entity).findOneByOrFail({ id });
          expect({ kind, method, stored: { ...stored } }).toMatchObject({ kind, method, stored: behind });
          if (kind !== 'tags') expect((stored as unknown as { status: string }).status).not.toBe('trash');
        }
      }
      // the same write without the interference succeeds
      const { id } = await create('venues');
      const current = await tagOf(`/venues/${id}`, { Authorization: admin });
      const plain = await t.http().put(`${API}/venues/${id}`).set('Authorization', admin).set('If-Match', current).send({ city: 'Calm' });
      expect(plain.status).toBe(200);
      const seen = await dataSource.getRepository(EventEntity).findOneByOrFail({ id: ids.events });
      expect(await dataSource.transaction((manager) => rowUnchanged(manager, EventEntity, seen))).toBe(true);
    });
  });

  describe('Cache-Control, Vary and CORS', () => {
    it('marks anonymous reads public and authenticated reads private; writes and errors keep the v1 header', async () => {
      for (const path of ['/events', `/events/${ids.events}`, '/categories?hide_empty=0', '/doc', '', '/events.ics']) {
        const anonymous = await get(path);
        expect({ path, cc: anonymous.headers['cache-control'], vary: anonymous.headers.vary }).toEqual({
          path,
          cc: PUBLIC_READ,
          vary: 'Origin, Authorization',
        });
        const authed = await get(path, { Authorization: basic(editor) });
        expect({ path, cc: authed.headers['cache-control'], vary: authed.headers.vary }).toEqual({
          path,
          cc: PRIVATE_READ,
          vary: 'Origin, Authorization',
        });
      }
      const error = await get('/events/987654', { Authorization: admin });
      expect(error.headers['cache-control']).toBe(V1_PRIVATE);
      expect(error.headers.vary).toBe('Origin');
      const anonymousError = await get('/events/987654');
      expect(anonymousError.headers['cache-control']).toBeUndefined();
      const write = await t
        .http()
        .post(`${API}/tags`)
        .set('Authorization', admin)
        .send({ name: unique('Cache tag') });
      expect(write.status).toBe(201);
      expect(write.headers['cache-control']).toBe(V1_PRIVATE);
      expect(write.headers.etag).toBeUndefined();
    });

    it('exposes ETag and Last-Modified and allows the condition headers in preflights', async () => {
      const origin = 'https://client.example';
      const read = await get('/events', { Origin: origin });
      const exposed = String(read.headers['access-control-expose-headers']).split(/,\s*/);
      expect(exposed).toEqual(expect.arrayContaining(['ETag', 'Last-Modified']));
      const preflight = await t
        .http()
        .options(`${API}/events/${ids.events}`)
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'PUT')
        .set('Access-Control-Request-Headers', 'if-match, if-none-match, if-modified-since');
      expect(preflight.status).toBe(200);
      expect(String(preflight.headers['access-control-allow-headers']).split(/,\s*/)).toEqual(
        expect.arrayContaining(['If-None-Match', 'If-Match', 'If-Modified-Since']),
      );
    });
  });

  describe('/doc', () => {
    it('documents If-Match and 412 on writes, If-None-Match, 304 and ETag on reads; the index lists no headers', async () => {
      const doc = (await get('/doc')).body;
      for (const path of [
        '/events/{id}',
        '/events/by-slug/{slug}',
        '/venues/{id}',
        '/organizers/by-slug/{slug}',
        '/categories/{id}',
        '/tags/{id}',
      ]) {
        for (const method of ['post', 'put', 'patch', 'delete']) {
          const operation = doc.paths[path][method];
          expect({ path, method, has412: '412' in operation.responses }).toEqual({ path, method, has412: true });
          expect(operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toContain('header:If-Match');
        }
        expect(Object.keys(doc.paths[path].get.responses['200'].headers)).toContain('ETag');
        expect(doc.paths[path].get.parameters.map((p: { name: string }) => p.name)).toContain('If-None-Match');
        expect(doc.paths[path].get.responses).toHaveProperty('304');
      }
      expect(doc.paths['/events'].post.responses).not.toHaveProperty('412');
      const index = (await get('')).body;
      expect(index.routes[`/${NS}/events/(?P<id>\\d+)`].endpoints.flatMap((e: { args: object }) => Object.keys(e.args))).not.toContain(
        'If-Match',
      );
      expect(Object.keys(index.routes[`/${NS}/events`].endpoints[0].args)).not.toContain('If-None-Match');
    });
  });
});
