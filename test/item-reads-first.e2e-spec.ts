import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { ItemReadsFirst, ItemReadsFirstMiddleware } from '../src/cache/item-reads-first.js';
import { callsDuring, type RawAnswer as Answer, rawGet as get } from './support/raw-answers.js';
import { ADMIN, API, basic, bumpDataVersion, startTestApp, type TestApp } from './support/test-app.js';

const admin = basic(ADMIN);
const ORIGIN = 'https://app.example.org';
/** Requests without `Origin`, from an allowed origin and from another one: CORS headers differ. */
const ORIGINS: Array<Record<string, string>> = [{}, { Origin: ORIGIN }, { Origin: 'https://elsewhere.example' }];
const spyOnPipeline = () => jest.spyOn(ItemReadsFirstMiddleware.prototype, 'use');

/**
 * Anonymous reads of single events by id are answered before the framework once a read of the
 * same shape (path up to the id, `Origin`) went through it: the answer for any other id must be
 * the one the whole pipeline gives for that id, with the response cache on and off, and every
 * outcome but a `200` must still come from the route.
 */
describe.each([
  ['on', 'on'],
  ['off', 'off'],
])('single event reads answered before the framework (response cache %s)', (_name, cache) => {
  let t: TestApp;
  let second: TestApp;
  let port: number;
  // made before the apps start (they bind the step's method then), and per block
  let pipeline: ReturnType<typeof spyOnPipeline>;
  const ids: Record<string, number> = {};

  /** Calls of the last lifecycle step (the framework's path) made by `work`. */
  const pipelineCalls = (work: () => Promise<unknown>) => callsDuring(pipeline, work);

  /** A write elsewhere: every cached answer is stale, so a read is built again. */
  const bump = () => bumpDataVersion(t);

  /** The answer of the whole pipeline: shapes learned so far are not used for it. */
  async function throughPipeline(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    await bump();
    const off = jest.spyOn(ItemReadsFirst.prototype, 'templateFor').mockReturnValue(undefined);
    try {
      let answer: Answer | undefined;
      expect(await pipelineCalls(async () => (answer = await get(port, path, headers)))).toBe(1);
      return answer as Answer;
    } finally {
      off.mockRestore();
    }
  }

  /** The answer of the server's own handler, which must not reach the framework. */
  async function beforePipeline(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    await bump();
    let answer: Answer | undefined;
    expect(await pipelineCalls(async () => (answer = await get(port, path, headers)))).toBe(0);
    return answer as Answer;
  }

  beforeAll(async () => {
    pipeline = spyOnPipeline();
    t = await startTestApp({ CORS_ORIGINS: ORIGIN, RESPONSE_CACHE: cache });
    second = await startTestApp({ CORS_ORIGINS: ORIGIN, RESPONSE_CACHE: cache }, { sharing: t });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    const write = async (path: string, body: object) => {
      const res = await t.http().post(`${API}/${path}`).set('Authorization', admin).send(body);
      expect([path, res.status]).toEqual([path, 201]);
      return res.body as { id: number };
    };
    const venue = await write('venues', { venue: 'Harbour Hall', city: 'Port Halden' });
    const organizer = await write('organizers', { organizer: 'Tidewater Guild' });
    const when = { start_date: 'tomorrow 7pm', end_date: 'tomorrow 9pm' };
    ids.learned = (await write('events', { title: 'Lantern Walk', ...when })).id;
    ids.linked = (
      await write('events', {
        title: 'Harbour Night',
        description: '<p>Lights on the <strong>water</strong></p>',
        ...when,
        venue: venue.id,
        organizer: [organizer.id],
        categories: ['Outdoor'],
        tags: ['family'],
        cost: '5 - 10',
      })
    ).id;
    ids.allDay = (await write('events', { title: 'Fair', start_date: 'tomorrow', end_date: 'tomorrow', all_day: true })).id;
    ids.draft = (await write('events', { title: 'Draft', ...when, status: 'draft' })).id;
    ids.protected = (await write('events', { title: 'Members', ...when, post_password: 'secret' })).id;
    ids.trashed = (await write('events', { title: 'Gone', ...when })).id;
    expect((await t.http().delete(`${API}/events/${ids.trashed}`).set('Authorization', admin)).status).toBe(200);
    ids.venue = venue.id;
  });
  afterAll(async () => {
    await second.close();
    await t.close();
    pipeline.mockRestore();
  });

  it('answers another id of a learned shape exactly as the whole pipeline answers it', async () => {
    for (const prefix of ['', '/de']) {
      for (const headers of ORIGINS) {
        await throughPipeline(`${prefix}${API}/events/${ids.learned}`, headers);
        for (const name of ['linked', 'allDay', 'learned']) {
          const path = `${prefix}${API}/events/${ids[name]}`;
          const full = await throughPipeline(path, headers);
          const fast = await beforePipeline(path, headers);
          expect([name, full.status]).toEqual([name, 200]);
          expect({ name, status: fast.status, headers: fast.headers }).toEqual({ name, status: full.status, headers: full.headers });
          expect(fast.body.equals(full.body)).toBe(true);
          expect(fast.xCache).toBe(cache === 'on' ? 'MISS' : undefined);
          if (cache === 'on') expect((await get(port, path, headers)).xCache).toBe('HIT');
        }
      }
    }
  });

  it('answers a revalidation (304) as the pipeline does', async () => {
    const path = `${API}/events/${ids.linked}`;
    await throughPipeline(`${API}/events/${ids.learned}`);
    const first = await throughPipeline(path);
    const etag = first.headers.find((line) => line.startsWith('ETag: '))?.slice(6) as string;
    const lastModified = first.headers.find((line) => line.startsWith('Last-Modified: '))?.slice(15) as string;
    const conditionals: Array<Record<string, string>> = [{ 'If-None-Match': etag }, { 'If-Modified-Since': lastModified }];
    for (const conditional of conditionals) {
      const full = await throughPipeline(path, conditional);
      const fast = await beforePipeline(path, conditional);
      expect([full.status, full.body.length]).toEqual([304, 0]);
      expect([fast.status, fast.headers, fast.body.length]).toEqual([304, full.headers, 0]);
    }
    const changed = await beforePipeline(path, { 'If-None-Match': '"something-else"' });
    expect(changed.status).toBe(200);
  });

  it('leaves every other outcome to the route, as it answers it', async () => {
    await throughPipeline(`${API}/events/${ids.learned}`);
    for (const name of ['draft', 'protected', 'trashed', 'venue', 'unknown']) {
      const path = `${API}/events/${ids[name] ?? 999999}`;
      const full = await throughPipeline(path);
      await bump();
      let tried: Answer | undefined;
      // the server's own handler looks, finds no 200, and hands the request to the framework
      expect([name, await pipelineCalls(async () => (tried = await get(port, path)))]).toEqual([name, 1]);
      expect([name, full.status]).not.toEqual([name, 200]);
      expect({ name, status: tried?.status, headers: tried?.headers, body: tried?.body.toString() }).toEqual({
        name,
        status: full.status,
        headers: full.headers,
        body: full.body.toString(),
      });
    }
    // the password of a protected event, credentials, other spellings: the pipeline's
    const protectedPath = `${API}/events/${ids.protected}`;
    expect(await pipelineCalls(() => get(port, `${protectedPath}?password=secret`))).toBe(1);
    expect(await pipelineCalls(() => get(port, `${API}/events/${ids.linked}`, { Authorization: admin }))).toBe(1);
    expect(await pipelineCalls(() => get(port, `${API}/events/0${ids.linked}`))).toBe(1);
    expect(await pipelineCalls(() => get(port, `${API}/events/${ids.linked}/`))).toBe(1);
    expect(await pipelineCalls(() => get(port, `${API}/events/${ids.linked}`, { Origin: 'https://new.example' }))).toBe(1);
    expect(await pipelineCalls(() => get(port, `${API}/events/${ids.linked}`, { Origin: 'https://new.example' }))).toBe(0);
  });

  it('answers what a write in another process made of the event', async () => {
    const path = `${API}/events/${ids.linked}`;
    await throughPipeline(`${API}/events/${ids.learned}`);
    expect(JSON.parse((await beforePipeline(path)).body.toString()).title).toBe('Harbour Night');
    const renamed = await second.http().post(path).set('Authorization', admin).send({ title: 'Renamed elsewhere' });
    expect(renamed.status).toBe(200);
    let after: Answer | undefined;
    expect(await pipelineCalls(async () => (after = await get(port, path)))).toBe(0);
    expect(JSON.parse(after?.body.toString() ?? '{}').title).toBe('Renamed elsewhere');
    const draft = await second.http().post(path).set('Authorization', admin).send({ status: 'draft' });
    expect(draft.status).toBe(200);
    expect(await pipelineCalls(async () => (after = await get(port, path)))).toBe(1);
    expect(after?.status).not.toBe(200);
  });
});
