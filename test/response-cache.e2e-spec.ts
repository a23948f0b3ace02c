import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { rawGet } from './support/raw-answers.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

const admin = basic(ADMIN);
const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: 'tomorrow 10am',
  end_date: 'tomorrow 11am',
  ...extra,
});

/**
 * Slows every count of events the app runs down by `ms` until the returned function is called
 * (at the query runners' prototype, which every connection shares); `counted()` says how many ran.
 */
async function slowEventCounts(t: TestApp, ms: number): Promise<{ restore: () => void; counted: () => number }> {
  const runner = t.app.get<DataSource>(getDataSourceToken()).createQueryRunner();
  const prototype = Object.getPrototypeOf(runner) as { query: (...args: unknown[]) => Promise<unknown> };
  await runner.release();
  const original = prototype.query;
  let counts = 0;
  prototype.query = async function (this: unknown, ...args: unknown[]) {
    if (/COUNT\(/i.test(String(args[0])) && /events/.test(String(args[0]))) {
      counts++;
      await sleep(ms);
    }
    return original.apply(this, args);
  };
  return { restore: () => (prototype.query = original), counted: () => counts };
}

describe('response cache', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await startTestApp();
    second = await startTestApp({}, { sharing: first });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('shows a write on the very next read, in the same process and in a second one', async () => {
    const before = await first.http().get(`${API}/events`);
    expect((await second.http().get(`${API}/events`)).body.total).toBe(before.body.total);
    for (let round = 1; round <= 3; round++) {
      const created = await first
        .http()
        .post(`${API}/events`)
        .set('Authorization', admin)
        .send(event(`Cached ${round}`));
      expect(created.status).toBe(201);
      expect((await first.http().get(`${API}/events`)).body.total).toBe(before.body.total + round);
      expect((await second.http().get(`${API}/events`)).body.total).toBe(before.body.total + round);
      const single = await second.http().get(`${API}/events/${created.body.id}`);
      expect(single.body.title).toBe(`Cached ${round}`);
      await second
        .http()
        .post(`${API}/events/${created.body.id}`)
        .set('Authorization', admin)
        .send({ title: `Renamed ${round}` });
      expect((await first.http().get(`${API}/events/${created.body.id}`)).body.title).toBe(`Renamed ${round}`);
    }
  });

  it('keeps term counts and lists in step with writes made through the other process', async () => {
    const category = await first.http().post(`${API}/categories`).set('Authorization', admin).send({ name: 'Cached category' });
    expect((await second.http().get(`${API}/categories/${category.body.id}`)).body.count).toBe(0);
    await second
      .http()
      .post(`${API}/events`)
      .set('Authorization', admin)
      .send(event('In the category', { categories: [category.body.id] }));
    expect((await first.http().get(`${API}/categories/${category.body.id}`)).body.count).toBe(1);
    expect((await first.http().get(`${API}/categories`)).body.categories.map((term: { id: number }) => term.id)).toContain(
      category.body.id,
    );
  });

  it('never serves one requester what another may see', async () => {
    const draft = await first
      .http()
      .post(`${API}/events`)
      .set('Authorization', admin)
      .send(event('Editors only', { status: 'draft' }));
    const protectedEvent = await first
      .http()
      .post(`${API}/events`)
      .set('Authorization', admin)
      .send(event('Locked', { post_password: 'sesame', description: 'Secret' }));
    for (let pass = 0; pass < 2; pass++) {
      const asAdmin = await first.http().get(`${API}/events?status=any&per_page=50`).set('Authorization', admin);
      expect(asAdmin.body.events.map((item: { id: number }) => item.id)).toContain(draft.body.id);
      const anonymous = await first.http().get(`${API}/events?per_page=50`);
      expect(anonymous.body.events.map((item: { id: number }) => item.id)).not.toContain(draft.body.id);
      expect((await first.http().get(`${API}/events/${draft.body.id}`)).status).toBe(403);
      const unlocked = await first.http().get(`${API}/events/${protectedEvent.body.id}?password=sesame`);
      expect(unlocked.body.description).toBe('<p>Secret</p>');
      expect((await first.http().get(`${API}/events/${protectedEvent.body.id}`)).status).toBe(403);
      const listed = (await first.http().get(`${API}/events?per_page=50`)).body.events.find(
        (item: { id: number }) => item.id === protectedEvent.body.id,
      );
      expect(listed.description).toBe('');
      expect(
        (await first.http().get(`${API}/events?per_page=50&password=sesame`)).body.events.find(
          (item: { id: number }) => item.id === protectedEvent.body.id,
        ).description,
      ).toBe('<p>Secret</p>');
      const editorView = (await first.http().get(`${API}/events?per_page=50`).set('Authorization', admin)).body.events.find(
        (item: { id: number }) => item.id === protectedEvent.body.id,
      );
      expect(editorView.description).toBe('<p>Secret</p>');
    }
  });

  it('serves repeated anonymous reads from the cache until a write, never authenticated ones', async () => {
    const path = `${API}/venues?per_page=2`;
    expect((await first.http().get(path)).headers['x-cache']).toBe('MISS');
    expect((await first.http().get(path)).headers['x-cache']).toBe('HIT');
    expect((await second.http().get(path)).headers['x-cache']).toBe('MISS');
    expect((await second.http().get(path)).headers['x-cache']).toBe('HIT');
    await second.http().post(`${API}/tags`).set('Authorization', admin).send({ name: 'Any write' });
    expect((await first.http().get(path)).headers['x-cache']).toBe('MISS');
    expect((await first.http().get(path).set('Authorization', admin)).headers['x-cache']).toBeUndefined();
    expect((await first.http().get(`${path}&password=x`)).headers['x-cache']).toBeUndefined();
  });

  it('serves cached answers with the same headers', async () => {
    const one = await first.http().get(`${API}/events?per_page=1`);
    const two = await first.http().get(`${API}/events?per_page=1`);
    expect(two.headers['x-cache']).toBe('HIT');
    expect(two.body).toEqual(one.body);
    for (const header of ['x-tec-total', 'x-tec-totalpages', 'content-type', 'allow', 'link', 'content-language'])
      expect(two.headers[header]).toBe(one.headers[header]);
  });

  it('builds an answer once for concurrent misses and shares it with the requests that waited', async () => {
    // Slow the list's count down, so that every request below arrives while the first is building.
    const slow = await slowEventCounts(first, 300);
    try {
      await first.http().post(`${API}/categories`).set('Authorization', admin).send({ name: 'New version' });
      const before = slow.counted();
      const answers = await Promise.all(Array.from({ length: 8 }, () => first.http().get(`${API}/events?per_page=3`)));
      expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
      expect(answers.filter((res) => res.headers['x-cache'] === 'MISS')).toHaveLength(1);
      expect(answers.filter((res) => res.headers['x-cache'] === 'SHARED')).toHaveLength(7);
      for (const res of answers) expect(res.body).toEqual(answers[0].body);
      expect(slow.counted() - before).toBe(1);
    } finally {
      slow.restore();
    }
  });

  it('never shares a failed answer: each waiting request answers for itself', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => first.http().get(`${API}/events?per_page=0`)));
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(res.headers['x-cache']).toBe('MISS');
    }
  });
});

describe('response cache and requests whose client went away', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('answers later requests of a read whose waiting request was given up by its client', async () => {
    // A page past the last one: its answer (404) is never kept, so a request that waited for
    // another's build of it goes on to build its own, after its client has gone.
    const path = `${API}/events?per_page=2&page=9`;
    const slow = await slowEventCounts(t, 400);
    try {
      const building = rawGet(port, path);
      await sleep(100);
      const waiting = httpRequest({ host: '127.0.0.1', port, path });
      waiting.on('error', () => undefined);
      waiting.end();
      await sleep(100);
      waiting.destroy();
      expect((await building).status).toBe(404);
      // the given-up request builds meanwhile, for nobody
      await sleep(600);
    } finally {
      slow.restore();
    }
    const later = await Promise.race([rawGet(port, path), sleep(5000, 'no answer within 5 s', { ref: false })]);
    expect(typeof later === 'string' ? later : later.status).toBe(404);
  });
});

describe('response cache turned off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RESPONSE_CACHE: 'off' });
  });
  afterAll(() => t.close());

  it('answers from the database every time', async () => {
    expect((await t.http().get(`${API}/events`)).headers['x-cache']).toBeUndefined();
    expect((await t.http().get(`${API}/events`)).body.total).toBe(0);
    await t.http().post(`${API}/events`).set('Authorization', admin).send(event('Uncached'));
    expect((await t.http().get(`${API}/events`)).body.total).toBe(1);
  });
});
