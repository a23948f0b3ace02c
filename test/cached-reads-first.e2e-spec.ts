import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { ResponseCacheMiddleware } from '../src/cache/response-cache.js';
import { callsDuring, type RawAnswer as Answer, rawGet } from './support/raw-answers.js';
import { ADMIN, API, basic, bumpDataVersion, startTestApp, type TestApp } from './support/test-app.js';

const admin = basic(ADMIN);
const ORIGIN = 'https://app.example.org';
/** Requests without `Origin`, from an allowed origin and from another one: CORS headers differ. */
const ORIGINS: Array<Record<string, string>> = [{}, { Origin: ORIGIN }, { Origin: 'https://elsewhere.example' }];

/**
 * The cache answers a repeated anonymous read from the server's own request handler, before the
 * framework runs: the hit must be the answer the whole pipeline gave, byte for byte and header for
 * header (only `X-Cache` and `Date` differ), and so must a revalidation (`304`).
 */
describe('cached reads answered before the framework', () => {
  let t: TestApp;
  let second: TestApp;
  let port: number;
  const pipeline = jest.spyOn(ResponseCacheMiddleware.prototype, 'use');
  const paths: Record<string, string> = {};

  const get = (path: string, headers: Record<string, string> = {}) => rawGet(port, path, headers);

  /** Calls of the cache middleware (the framework's path) made by `work`. */
  const pipelineCalls = (work: () => Promise<unknown>) => callsDuring(pipeline, work);

  /** A write elsewhere: every cached answer is stale, so a read is built again. */
  const bump = () => bumpDataVersion(t);

  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: ORIGIN });
    second = await startTestApp({ CORS_ORIGINS: ORIGIN }, { sharing: t });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    const write = (path: string, body: object) => t.http().post(`${API}/${path}`).set('Authorization', admin).send(body);
    const venue = await write('venues', { venue: 'Harbour Hall', city: 'Port Halden' });
    const organizer = await write('organizers', { organizer: 'Tidewater Guild' });
    const category = await write('categories', { name: 'Outdoor' });
    const event = await write('events', {
      title: 'Lantern Walk',
      start_date: 'tomorrow 7pm',
      end_date: 'tomorrow 9pm',
      venue: venue.body.id,
      organizer: [organizer.body.id],
      categories: [category.body.id],
      tags: ['family'],
    });
    expect(event.status).toBe(201);
    Object.assign(paths, {
      'default list': `${API}/events`,
      'filtered list': `${API}/events?categories=${category.body.slug}&venue=${venue.body.id}&per_page=1`,
      'single by id': `${API}/events/${event.body.id}`,
      'single by slug': `${API}/events/by-slug/${event.body.slug}`,
      venues: `${API}/venues`,
      categories: `${API}/categories`,
      'another edition': `/de${API}/events/${event.body.id}`,
      'query-style route': `/?rest_route=/tribe/events/v1/events/${event.body.id}`,
      'calendar feed': `${API}/events.ics`,
    });
  });
  afterAll(async () => {
    await second.close();
    await t.close();
    pipeline.mockRestore();
  });

  it('answers a hit exactly as the whole pipeline answered the miss', async () => {
    for (const [name, path] of Object.entries(paths)) {
      for (const headers of ORIGINS) {
        await bump();
        const miss = await get(path, headers);
        expect([name, miss.status, miss.xCache]).toEqual([name, 200, 'MISS']);
        let hit: Answer | undefined;
        expect(await pipelineCalls(async () => (hit = await get(path, headers)))).toBe(0);
        expect([name, hit?.xCache]).toEqual([name, 'HIT']);
        expect({ name, status: hit?.status, headers: hit?.headers }).toEqual({ name, status: miss.status, headers: miss.headers });
        expect(hit?.body.equals(miss.body)).toBe(true);
      }
    }
  });

  it('answers a revalidation (304) exactly as the whole pipeline does, with the same validators', async () => {
    const path = paths.categories;
    const first = await get(path);
    const etag = first.headers.find((line) => line.startsWith('ETag: '))?.slice(6) as string;
    const lastModified = first.headers.find((line) => line.startsWith('Last-Modified: '))?.slice(15);
    await bump(); // a tag: the categories list keeps its bytes, but the entry must be built again
    const full = await get(path, { 'If-None-Match': etag, Origin: ORIGIN });
    expect([full.status, full.xCache, full.body.length]).toEqual([304, 'MISS', 0]);
    let fast: Answer | undefined;
    expect(await pipelineCalls(async () => (fast = await get(path, { 'If-None-Match': etag, Origin: ORIGIN })))).toBe(0);
    expect([fast?.status, fast?.xCache, fast?.body.length]).toEqual([304, 'HIT', 0]);
    expect(fast?.headers).toEqual(full.headers);
    if (lastModified) {
      const since = await get(path, { 'If-Modified-Since': lastModified, Origin: ORIGIN });
      expect([since.status, since.headers]).toEqual([304, full.headers]);
    }
    const stale = await get(path, { 'If-None-Match': '"something-else"', Origin: ORIGIN });
    expect([stale.status, stale.xCache]).toEqual([200, 'HIT']);
  });

  it('never answers from an entry that a write in another process made stale', async () => {
    const path = paths['single by id'];
    await get(path);
    expect((await get(path)).xCache).toBe('HIT');
    const id = Number(path.split('/').pop());
    const renamed = await second.http().post(`${API}/events/${id}`).set('Authorization', admin).send({ title: 'Renamed elsewhere' });
    expect(renamed.status).toBe(200);
    const after = await get(path);
    expect([after.xCache, JSON.parse(after.body.toString()).title]).toEqual(['MISS', 'Renamed elsewhere']);
  });

  it('leaves authenticated, bodied and never-seen requests to the pipeline', async () => {
    const path = paths['default list'];
    await get(path);
    expect(await pipelineCalls(() => get(path, { Authorization: admin }))).toBe(1);
    expect(await pipelineCalls(() => get(path, { Origin: 'https://new.example' }))).toBe(1);
    expect(await pipelineCalls(() => get(`${path}?page=1`))).toBe(1);
    const withBody = await pipelineCalls(() => t.http().get(path).set('Content-Type', 'application/json').send('{}'));
    expect(withBody).toBe(1);
    expect(await pipelineCalls(() => get(path))).toBe(0);
  });
});
