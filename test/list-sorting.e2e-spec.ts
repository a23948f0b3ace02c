import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CategoryEntity } from '../src/categories/category.entity.js';
import { TagEntity } from '../src/tags/tag.entity.js';
import { day, eventBody, eventClient, expectError, type EventClient } from './support/events.js';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app.js';

const admin = basic(ADMIN);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A `YYYY-MM-DD HH:MM:SS` UTC wall time moved by `seconds`, as an ISO instant with an offset. */
const shifted = (utcWall: string, seconds: number, offsetHours = 0): string => {
  const moment = new Date(Date.parse(`${utcWall.replace(' ', 'T')}Z`) + seconds * 1000 + offsetHours * 3_600_000);
  const sign = offsetHours < 0 ? '-' : '+';
  const offset = `${sign}${String(Math.abs(offsetHours)).padStart(2, '0')}:00`;
  return `${moment.toISOString().slice(0, 19)}${offset}`;
};
const q = (value: string) => encodeURIComponent(value);

describe('list sorting and change filters (issue 14 §2)', () => {
  let t: TestApp;
  let ev: EventClient;
  /** Created in this order, so their ids ascend a < b < c < d. */
  const e: Record<'a' | 'b' | 'c' | 'd', number> = { a: 0, b: 0, c: 0, d: 0 };
  let bModified: { utc: string; site: string };

  const eventIds = async (query: string): Promise<number[]> => {
    const res = await ev.list(query);
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.events.map((event: { id: number }) => event.id);
  };

  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: '*' });
    ev = eventClient(t);
    // start order b, c = d, a; publication order b, d, a = c; title order b, c = d, a
    const make = async (title: string, startDay: number, date: string) =>
      (
        await ev.make(
          eventBody({ title, start_date: `${day('UTC', startDay)} 10:00:00`, end_date: `${day('UTC', startDay)} 11:00:00`, date }),
        )
      ).id as number;
    e.a = await make('Charlie', 3, '2026-01-03 10:00:00');
    e.b = await make('Alpha', 1, '2026-01-01 10:00:00');
    e.c = await make('Bravo', 2, '2026-01-03 10:00:00');
    e.d = await make('Bravo', 2, '2026-01-02 10:00:00');
    // b becomes the last modified, at least one second after the others
    await sleep(1100);
    const updated = await ev.update(e.b, { description: 'changed' });
    expect(updated.status).toBe(200);
    bModified = { utc: updated.body.modified_utc, site: updated.body.modified };
  });
  afterAll(() => t.close());

  it('lists the new parameters in the namespace index and in /doc', async () => {
    const index = await t.http().get(API);
    const doc = await t.http().get(`${API}/doc`);
    const wanted: Record<string, string[]> = {
      events: ['orderby', 'order', 'modified_after', 'modified_before'],
      venues: ['orderby', 'order', 'modified_after', 'modified_before'],
      organizers: ['orderby', 'order', 'modified_after', 'modified_before'],
      categories: ['modified_after', 'modified_before'],
      tags: ['modified_after', 'modified_before'],
    };
    for (const [resource, names] of Object.entries(wanted)) {
      const args = index.body.routes[`/tribe/events/v1/${resource}`].endpoints[0].args;
      const documented = Object.values(doc.body.paths as Record<string, any>)
        .flatMap((path) => (path.get?.parameters ?? []) as Array<{ name: string }>)
        .map((parameter) => parameter.name);
      for (const name of names) {
        expect(args).toHaveProperty(name);
        expect(documented).toContain(name);
      }
    }
    expect(index.body.routes['/tribe/events/v1/events'].endpoints[0].args.orderby.enum).toEqual([
      'event_date',
      'date',
      'modified',
      'title',
      'id',
    ]);
  });

  describe('GET /events orderby/order', () => {
    it.each([
      ['', ['b', 'c', 'd', 'a']],
      ['?orderby=event_date', ['b', 'c', 'd', 'a']],
      ['?order=asc', ['b', 'c', 'd', 'a']],
      ['?orderby=event_date&order=desc', ['a', 'd', 'c', 'b']],
      ['?orderby=date', ['c', 'a', 'd', 'b']],
      ['?orderby=date&order=asc', ['b', 'd', 'a', 'c']],
      ['?orderby=modified', ['b', 'd', 'c', 'a']],
      ['?orderby=modified&order=asc', ['a', 'c', 'd', 'b']],
      ['?orderby=title', ['b', 'c', 'd', 'a']],
      ['?orderby=title&order=desc', ['a', 'd', 'c', 'b']],
      ['?orderby=id', ['a', 'b', 'c', 'd']],
      ['?orderby=ID&order=DESC', ['d', 'c', 'b', 'a']],
    ] as const)('%s lists %j (ties by id in the same direction)', async (query, order) => {
      expect(await eventIds(query)).toEqual(order.map((name) => e[name]));
    });

    it('refuses unknown values with 400 rest_invalid_param naming each parameter', async () => {
      expectError(await ev.list('?orderby=start'), 400, 'rest_invalid_param', ['orderby']);
      expectError(await ev.list('?order=up'), 400, 'rest_invalid_param', ['order']);
      expectError(await ev.list('?orderby=nope&order=sideways&modified_after=whenever'), 400, 'rest_invalid_param', [
        'orderby',
        'order',
        'modified_after',
      ]);
      expectError(await ev.list('?modified_before=2026-13-45'), 400, 'rest_invalid_param', ['modified_before']);
    });

    it('leaves the links of a request without the new parameters as they were', async () => {
      const res = await ev.list('?per_page=2');
      expect(res.body.rest_url).not.toMatch(/orderby|order=|modified_/);
      expect(res.body.next_rest_url).not.toMatch(/orderby|order=|modified_/);
    });
  });

  describe('GET /events modified_after/modified_before', () => {
    it('compares strictly, in UTC with an offset or in site time without one', async () => {
      expect(await eventIds(`?modified_after=${q(shifted(bModified.utc, 0))}`)).toEqual([]);
      expect(await eventIds(`?modified_after=${q(shifted(bModified.utc, 0, 2))}`)).toEqual([]);
      expect(await eventIds(`?modified_after=${q(bModified.site)}`)).toEqual([]);
      expect(await eventIds(`?modified_after=${q(shifted(bModified.utc, -1))}`)).toEqual([e.b]);
      expect(await eventIds(`?modified_before=${q(shifted(bModified.utc, 0, -5))}`)).toEqual([e.c, e.d, e.a]);
      expect(await eventIds(`?modified_before=${q(bModified.site)}`)).toEqual([e.c, e.d, e.a]);
      expect(await eventIds(`?modified_before=${q(shifted(bModified.utc, 1))}`)).toEqual([e.b, e.c, e.d, e.a]);
    });
  });

  describe('headers and links of a multi-page list', () => {
    it('sends X-WP-Total*, Link rel next/prev beside api.w.org, and echoes the new parameters', async () => {
      const after = shifted(bModified.utc, -3600);
      const first = await ev.list(`?per_page=3&orderby=TITLE&order=Desc&modified_after=${q(after)}`);
      expect(first.status).toBe(200);
      expect(first.body.events.map((event: { id: number }) => event.id)).toEqual([e.a, e.d, e.c]);
      expect(first.headers['x-wp-total']).toBe('4');
      expect(first.headers['x-wp-totalpages']).toBe('2');
      expect(first.headers['x-tec-total']).toBe('4');
      expect(first.headers['x-tec-totalpages']).toBe('2');
      const echoed = `orderby=title&order=desc&modified_after=${q(`${shifted(bModified.utc, -3600).slice(0, 19)}Z`)}`;
      expect(first.body.next_rest_url).toContain(echoed);
      const firstLinks = String(first.headers.link);
      expect(firstLinks).toContain(`<${PUBLIC_URL}/wp-json/>; rel="https://api.w.org/"`);
      expect(firstLinks).toContain(`<${first.body.next_rest_url}>; rel="next"`);
      expect(firstLinks).not.toContain('rel="prev"');

      const second = await t.http().get(first.body.next_rest_url.slice(PUBLIC_URL.length));
      expect(second.status).toBe(200);
      expect(second.body.events.map((event: { id: number }) => event.id)).toEqual([e.b]);
      const secondLinks = String(second.headers.link);
      expect(secondLinks).toContain('rel="https://api.w.org/"');
      expect(secondLinks).toContain(`<${second.body.previous_rest_url}>; rel="prev"`);
      expect(secondLinks).not.toContain('rel="next"');
      expect(second.body.previous_rest_url).toContain(echoed);
    });

    it('replays the same headers from the response cache', async () => {
      const path = `${API}/events?per_page=2&orderby=id`;
      const miss = await t.http().get(path);
      const hit = await t.http().get(path);
      expect(hit.headers['x-cache']).toBe('HIT');
      for (const name of ['x-wp-total', 'x-wp-totalpages', 'x-tec-total', 'link']) expect(hit.headers[name]).toBe(miss.headers[name]);
      expect(hit.headers.link).toContain('rel="next"');
    });

    it('exposes the headers to browsers through CORS', async () => {
      const res = await t.http().get(`${API}/events?per_page=1`).set('Origin', 'https://client.example');
      const exposed = String(res.headers['access-control-expose-headers'])
        .split(',')
        .map((name) => name.trim());
      expect(exposed).toEqual(expect.arrayContaining(['X-WP-Total', 'X-WP-TotalPages', 'Link']));
    });

    it('adds no next/prev link to a single-page list', async () => {
      const res = await ev.list();
      expect(String(res.headers.link)).not.toMatch(/rel="(next|prev)"/);
      expect(res.headers['x-wp-total']).toBe('4');
      expect(res.headers['x-wp-totalpages']).toBe('1');
    });
  });

  describe.each([
    ['venues', 'venue'],
    ['organizers', 'organizer'],
  ])('GET /%s orderby/order and change filters', (resource, nameField) => {
    const v: Record<'a' | 'b' | 'c' | 'd', number> = { a: 0, b: 0, c: 0, d: 0 };
    let modified: { utc: string; site: string };
    const listIds = async (query: string): Promise<number[]> => {
      const res = await t.http().get(`${API}/${resource}${query}`);
      if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body[resource].map((item: { id: number }) => item.id);
    };

    beforeAll(async () => {
      const make = async (name: string, date: string) => {
        const res = await t
          .http()
          .post(`${API}/${resource}`)
          .set('Authorization', admin)
          .send({ [nameField]: name, date });
        if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body.id as number;
      };
      v.a = await make('Charlie', '2026-01-03 10:00:00');
      v.b = await make('Alpha', '2026-01-01 10:00:00');
      v.c = await make('Bravo 1', '2026-01-03 10:00:00');
      v.d = await make('Bravo 2', '2026-01-02 10:00:00');
      await sleep(1100);
      const updated = await t.http().post(`${API}/${resource}/${v.b}`).set('Authorization', admin).send({ description: 'changed' });
      expect(updated.status).toBe(200);
      modified = { utc: updated.body.modified_utc, site: updated.body.modified };
    });

    it.each([
      ['', ['c', 'a', 'd', 'b']],
      ['?orderby=date', ['c', 'a', 'd', 'b']],
      ['?orderby=date&order=asc', ['b', 'd', 'a', 'c']],
      ['?order=ASC', ['b', 'd', 'a', 'c']],
      ['?orderby=modified', ['b', 'd', 'c', 'a']],
      ['?orderby=modified&order=asc', ['a', 'c', 'd', 'b']],
      ['?orderby=title', ['b', 'c', 'd', 'a']],
      ['?orderby=title&order=desc', ['a', 'd', 'c', 'b']],
      ['?orderby=id', ['a', 'b', 'c', 'd']],
      ['?orderby=id&order=desc', ['d', 'c', 'b', 'a']],
    ] as const)('%s lists %j', async (query, order) => {
      expect(await listIds(query)).toEqual(order.map((name) => v[name]));
    });

    it('refuses unknown values with 400 rest_invalid_param', async () => {
      expectError(await t.http().get(`${API}/${resource}?orderby=event_date`), 400, 'rest_invalid_param', ['orderby']);
      expectError(await t.http().get(`${API}/${resource}?orderby=name&order=up&modified_before=soonish`), 400, 'rest_invalid_param', [
        'orderby',
        'order',
        'modified_before',
      ]);
    });

    it('filters strictly on the modification time', async () => {
      expect(await listIds(`?modified_after=${q(shifted(modified.utc, 0, 9))}`)).toEqual([]);
      expect(await listIds(`?modified_after=${q(modified.site)}`)).toEqual([]);
      expect(await listIds(`?modified_after=${q(shifted(modified.utc, -1))}`)).toEqual([v.b]);
      expect(await listIds(`?modified_before=${q(shifted(modified.utc, 0))}`)).toEqual([v.c, v.a, v.d]);
      expect(await listIds(`?modified_before=${q(shifted(modified.utc, 1))}`)).toEqual([v.c, v.a, v.d, v.b]);
    });

    it('sends the page headers and echoes the parameters in the links', async () => {
      const res = await t.http().get(`${API}/${resource}?per_page=3&orderby=id&order=desc`);
      expect(res.body[resource].map((item: { id: number }) => item.id)).toEqual([v.d, v.c, v.b]);
      expect(res.headers['x-wp-total']).toBe('4');
      expect(res.headers['x-wp-totalpages']).toBe('2');
      expect(res.body.next_rest_url).toContain('orderby=id&order=desc');
      expect(String(res.headers.link)).toContain(`<${res.body.next_rest_url}>; rel="next"`);
      expect(String(res.headers.link)).toContain('rel="https://api.w.org/"');
    });
  });

  describe.each([
    ['categories', CategoryEntity],
    ['tags', TagEntity],
  ] as const)('GET /%s modified_after/modified_before', (resource, entity) => {
    const ids: Record<'old' | 'changed', number> = { old: 0, changed: 0 };
    let changedAt: string;
    const listIds = async (query: string): Promise<number[]> => {
      const res = await t.http().get(`${API}/${resource}?hide_empty=0&orderby=id${query}`);
      if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body[resource].map((term: { id: number }) => term.id);
    };
    const storedModified = async (id: number): Promise<string> => {
      const term = await t.app.get<DataSource>(getDataSourceToken()).getRepository(entity).findOneByOrFail({ id });
      return term.modifiedUtc as string;
    };

    beforeAll(async () => {
      const make = async (name: string) => {
        const res = await t.http().post(`${API}/${resource}`).set('Authorization', admin).send({ name });
        if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body.id as number;
      };
      ids.old = await make('Old term');
      ids.changed = await make('Changed term');
      await sleep(1100);
      const updated = await t.http().post(`${API}/${resource}/${ids.changed}`).set('Authorization', admin).send({ description: 'new' });
      expect(updated.status).toBe(200);
      changedAt = await storedModified(ids.changed);
    });

    it('sets the modification time on create and update', async () => {
      expect(await storedModified(ids.old)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(changedAt > (await storedModified(ids.old))).toBe(true);
    });

    it('filters strictly on it, with an offset or in site time', async () => {
      expect(await listIds(`&modified_after=${q(shifted(changedAt, 0, 3))}`)).toEqual([]);
      expect(await listIds(`&modified_after=${q(shifted(changedAt, -1))}`)).toEqual([ids.changed]);
      expect(await listIds(`&modified_before=${q(shifted(changedAt, 0))}`)).toEqual([ids.old]);
      expect(await listIds(`&modified_before=${q(shifted(changedAt, 1))}`)).toEqual([ids.old, ids.changed]);
    });

    it('refuses an unreadable date and echoes a valid one in the links', async () => {
      expectError(await t.http().get(`${API}/${resource}?modified_after=whenever`), 400, 'rest_invalid_param', ['modified_after']);
      const res = await t.http().get(`${API}/${resource}?hide_empty=0&per_page=1&modified_before=${q(shifted(changedAt, 1))}`);
      expect(res.body.next_rest_url).toContain(`modified_before=${q(`${shifted(changedAt, 1).slice(0, 19)}Z`)}`);
      expect(res.headers['x-wp-total']).toBe('2');
      expect(String(res.headers.link)).toContain(`<${res.body.next_rest_url}>; rel="next"`);
    });
  });
});
