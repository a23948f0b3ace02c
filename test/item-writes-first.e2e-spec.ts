import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ItemWritesFirst, ItemWritesFirstMiddleware, writesBeforeFramework } from '../src/http/item-writes-first.js';
import { LoginFailureEntity } from '../src/limits/login-failure.entity.js';
import { AuthService } from '../src/users/auth.service.js';
import { BasicAuthMiddleware } from '../src/users/basic-auth.middleware.js';
import { callsDuring, type RawAnswer as Answer, rawRequest } from './support/raw-answers.js';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app.js';

const admin = basic(ADMIN);
const ORIGIN = 'https://app.example.org';
const JSON_BODY = { 'Content-Type': 'application/json' };
const spyOnPipeline = () => jest.spyOn(ItemWritesFirstMiddleware.prototype, 'use');
const spyOnPasswords = () => jest.spyOn(AuthService.prototype, 'authenticateWith');
/** The credentials step: every request with credentials the framework answers passes it (also those refused before the last step). */
const spyOnCredentialsStep = () => jest.spyOn(BasicAuthMiddleware.prototype, 'use');

/**
 * Authenticated creates (`POST` to the collection), updates (`POST`) and trashes (`DELETE`) of single
 * events by id are made before the framework once a write of the same shape (method, path up to the
 * id or the whole path, `Origin`) went through it:
 * each must answer and store what the whole pipeline answers and stores, and every request whose
 * checks before the write fail must still be answered by the framework.
 */
describe('single event writes made before the framework', () => {
  let t: TestApp;
  let port: number;
  // made before the app starts (it binds the step's method then)
  let pipeline: ReturnType<typeof spyOnPipeline>;
  let passwords: ReturnType<typeof spyOnPasswords>;
  let credentialsStep: ReturnType<typeof spyOnCredentialsStep>;
  let category: number;

  /** Calls of the last lifecycle step (the framework's path) made by `work`. */
  const pipelineCalls = (work: () => Promise<unknown>) => callsDuring(pipeline, work);
  /** Calls of the framework's credentials step made by `work`. */
  const frameworkCalls = (work: () => Promise<unknown>) => callsDuring(credentialsStep, work);

  const send = (method: string, path: string, headers: Record<string, string>, body?: object | string) =>
    rawRequest(port, method, path, headers, typeof body === 'object' ? JSON.stringify(body) : body);

  /** A write answered by the whole pipeline: shapes learned so far are not used for it. */
  async function throughPipeline(method: string, path: string, headers: Record<string, string>, body?: object | string): Promise<Answer> {
    const off = jest.spyOn(ItemWritesFirst.prototype, 'templateFor').mockReturnValue(undefined);
    try {
      let answer: Answer | undefined;
      expect(await pipelineCalls(async () => (answer = await send(method, path, headers, body)))).toBe(1);
      return answer as Answer;
    } finally {
      off.mockRestore();
    }
  }

  /** A write made by the server's own handler, which must not reach the framework. */
  async function beforePipeline(method: string, path: string, headers: Record<string, string>, body?: object | string): Promise<Answer> {
    let answer: Answer | undefined;
    expect([method, path, await pipelineCalls(async () => (answer = await send(method, path, headers, body)))]).toEqual([method, path, 0]);
    return answer as Answer;
  }

  /**
   * A `POST` refused (4xx) as the pipeline refuses it: the same status, headers and bytes, answered by
   * the framework when `byFramework` (a check before the write failed), else before it.
   */
  async function refusedAlike(name: string, path: string, headers: Record<string, string>, body: object, byFramework: boolean) {
    const full = await throughPipeline('POST', path, headers, body);
    let fast = {} as Answer;
    expect([name, await frameworkCalls(async () => (fast = await send('POST', path, headers, body)))]).toEqual([name, byFramework ? 1 : 0]);
    expect([name, full.status >= 400 && full.status < 500]).toEqual([name, true]);
    expect({ name, status: fast.status, headers: fast.headers, body: fast.body.toString() }).toEqual({
      name,
      status: full.status,
      headers: full.headers,
      body: full.body.toString(),
    });
  }

  async function newEvent(title: string, extra: object = {}): Promise<number> {
    const res = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', admin)
      .send({ title, start_date: 'tomorrow 7pm', end_date: 'tomorrow 9pm', ...extra });
    expect(res.status).toBe(201);
    return (res.body as { id: number }).id;
  }

  /** The event as an administrator's read shows it now: what a write of it answers. */
  const readBack = async (id: number) =>
    (await t.http().get(`${API}/events/${id}`).set('Authorization', admin)).body as Record<string, unknown>;
  const countOf = async (id: number) =>
    ((await t.http().get(`${API}/categories/${id}`).set('Authorization', admin)).body as { count: number }).count;
  const payload = (answer: Answer) => JSON.parse(answer.body.toString()) as Record<string, unknown>;
  /** A payload without what names the event and the moments it was made and written. */
  const rest = (answer: Answer, more: string[] = []) => {
    const own = [
      'id',
      'global_id',
      'global_id_lineage',
      'slug',
      'title',
      'url',
      'rest_url',
      'website',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
    ];
    return Object.fromEntries(Object.entries(payload(answer)).filter(([key]) => !own.includes(key) && !more.includes(key)));
  };
  const withoutLength = (answer: Answer) => answer.headers.filter((line) => !line.startsWith('Content-Length: '));

  beforeAll(async () => {
    pipeline = spyOnPipeline();
    passwords = spyOnPasswords();
    credentialsStep = spyOnCredentialsStep();
    t = await startTestApp({ CORS_ORIGINS: ORIGIN });
    expect(writesBeforeFramework(t.config)).toBe(true);
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    const made = await t.http().post(`${API}/categories`).set('Authorization', admin).send({ name: 'Outdoor' });
    category = (made.body as { id: number }).id;
  });
  afterAll(async () => {
    await t.close();
    pipeline.mockRestore();
    passwords.mockRestore();
    credentialsStep.mockRestore();
  });

  it('updates another id of a learned shape as the whole pipeline does, per edition and Origin', async () => {
    for (const prefix of ['', '/de']) {
      const origins: Array<Record<string, string>> = [{}, { Origin: ORIGIN }, { Origin: 'https://elsewhere.example' }];
      for (const origin of origins) {
        const headers = { Authorization: admin, ...JSON_BODY, ...origin };
        const [learned, full, fast] = [await newEvent('Learned'), await newEvent('Full'), await newEvent('Fast')];
        await throughPipeline('POST', `${prefix}${API}/events/${learned}`, headers, { title: 'Learned again' });
        const byPipeline = await throughPipeline('POST', `${prefix}${API}/events/${full}`, headers, { title: 'Renamed', cost: '5' });
        const first = await beforePipeline('POST', `${prefix}${API}/events/${fast}`, headers, { title: 'Renamed', cost: '5' });
        expect([byPipeline.status, first.status]).toEqual([200, 200]);
        expect(withoutLength(first)).toEqual(withoutLength(byPipeline));
        // the answer is the event as written, with the edition's texts, as the pipeline's
        expect(payload(first)).toMatchObject({ id: fast, title: 'Renamed', cost: '$5' });
        expect(payload(byPipeline)).toMatchObject({ id: full, title: 'Renamed', cost: '$5' });
        expect(rest(first)).toEqual(rest(byPipeline));
        expect(await readBack(fast)).toMatchObject({ title: 'Renamed', cost: '$5', modified: payload(first).modified });
      }
    }
  });

  it('creates as the whole pipeline does, per edition and Origin: status, Location, payload, links, counts, change log', async () => {
    const category = ((await t.http().post(`${API}/categories`).set('Authorization', admin).send({ name: 'Walks' })).body as { id: number })
      .id;
    const tag = ((await t.http().post(`${API}/tags`).set('Authorization', admin).send({ name: 'Evening' })).body as { id: number }).id;
    const organizer = (
      (await t.http().post(`${API}/organizers`).set('Authorization', admin).send({ organizer: 'Harbour Club' })).body as {
        id: number;
      }
    ).id;
    const event = (title: string) => ({
      title,
      start_date: '2031-05-04 19:00:00',
      end_date: '2031-05-04 21:00:00',
      cost: '5',
      organizer: [organizer],
      categories: [category],
      tags: [tag],
    });
    const tagCount = async () => ((await t.http().get(`${API}/tags/${tag}`).set('Authorization', admin)).body as { count: number }).count;
    const counts = async () => [await countOf(category), await tagCount()];
    const before = await counts();
    let made = 0;
    let turn = 0;
    for (const prefix of ['', '/de']) {
      const origins: Array<Record<string, string>> = [{}, { Origin: ORIGIN }];
      for (const origin of origins) {
        const headers = { Authorization: admin, ...JSON_BODY, ...origin };
        const path = `${prefix}${API}/events`;
        await throughPipeline('POST', path, headers, event('Learned'));
        const byPipeline = await throughPipeline('POST', path, headers, event('Lantern walk'));
        const first = await beforePipeline('POST', path, headers, event('Lantern walk'));
        made += 3;
        expect([byPipeline.status, first.status]).toEqual([201, 201]);
        const [full, fast] = [payload(byPipeline).id as number, payload(first).id as number];
        expect(fast).toBeGreaterThan(full);
        // the same headers, the new event's own address in `Location`
        const location = (answer: Answer) => answer.headers.find((line) => line.startsWith('Location: '));
        expect([location(byPipeline), location(first)]).toEqual([
          `Location: ${PUBLIC_URL}${path}/${full}`,
          `Location: ${PUBLIC_URL}${path}/${fast}`,
        ]);
        const same = (answer: Answer) => withoutLength(answer).filter((line) => !line.startsWith('Location: '));
        expect(same(first)).toEqual(same(byPipeline));
        // the payload as the pipeline's, with the edition's texts; the slug competes with the one before
        expect(payload(first)).toMatchObject({ id: fast, title: 'Lantern walk', cost: '$5', organizer: [{ id: organizer }] });
        expect(rest(first, ['categories', 'tags'])).toEqual(rest(byPipeline, ['categories', 'tags']));
        // each answer's term counts are the ones after its own create
        const termCounts = (answer: Answer) =>
          (['categories', 'tags'] as const).map((key) => (payload(answer)[key] as Array<{ count: number }>).map((term) => term.count));
        expect(termCounts(first)).toEqual(termCounts(byPipeline).map((list) => list.map((count) => count + 1)));
        expect([payload(byPipeline).slug, payload(first).slug]).toEqual([
          turn === 0 ? 'lantern-walk' : `lantern-walk-${2 * turn + 1}`,
          `lantern-walk-${2 * turn + 2}`,
        ]);
        turn += 1;
        expect(await readBack(fast)).toMatchObject({ title: 'Lantern walk', modified: payload(first).modified, tags: [{ id: tag }] });
        const changes = await t.app.get(DataSource).query(`SELECT action FROM changes WHERE kind = 'event' AND record_id = ${fast}`);
        expect((changes as Array<{ action: string }>).map((row) => row.action)).toEqual(['created']);
      }
    }
    // every create counted in the terms' counts, exactly
    expect(await counts()).toEqual(before.map((count) => count + made));
  });

  it('answers what a create refuses after its parameter checks as the route does, and leaves the rest to the framework', async () => {
    const headers = { Authorization: admin, ...JSON_BODY };
    const path = `${API}/events`;
    const event = { title: 'Refused', start_date: '2031-05-04 19:00:00', end_date: '2031-05-04 21:00:00' };
    await throughPipeline('POST', path, headers, event);
    const subscriber = basic(await t.user('subscriber'));
    const refusals: Array<[string, Record<string, string>, object, boolean]> = [
      // refused by the write: answered here
      ['unknown venue', headers, { ...event, venue: 999999 }, false],
      ['bad status', headers, { ...event, status: 'bogus' }, false],
      ['bad date', headers, { ...event, start_date: 'nonsense' }, false],
      ['subscriber', { ...headers, Authorization: subscriber }, event, false],
      // refused by the route's pipes: the framework answers
      ['no title', headers, { start_date: event.start_date, end_date: event.end_date }, true],
    ];
    const stored = async () => Number((await t.app.get(DataSource).query<Array<{ n: unknown }>>(`SELECT COUNT(*) AS n FROM events`))[0].n);
    const storedBefore = await stored();
    for (const [name, sent, body, framework] of refusals) await refusedAlike(name, path, sent, body, framework);
    // nothing half-written
    expect(await stored()).toEqual(storedBefore);
    // other shapes of the collection's path go to the framework
    const shapes: Array<[string, string, Record<string, string>]> = [
      ['query string', `${path}?title=Other`, headers],
      ['trailing slash', `${path}/`, headers],
      ['other spelling', `${API}/EVENTS`, headers],
      ['anonymous', path, JSON_BODY],
    ];
    for (const [name, where, sent] of shapes) {
      expect([name, await frameworkCalls(() => send('POST', where, sent, event))]).toEqual([name, 1]);
    }
    // the trailing slash's shape was learned by its request
    const again = await beforePipeline('POST', `${path}/`, headers, event);
    expect(again.status).toBe(201);
  });

  it('trashes another id as the pipeline does: status, slug, term counts, change log', async () => {
    const headers = { Authorization: admin };
    const [learned, full, fast] = [
      await newEvent('One', { categories: [category] }),
      await newEvent('Two', { categories: [category] }),
      await newEvent('Three', { categories: [category] }),
    ];
    expect(await countOf(category)).toBe(3);
    await throughPipeline('DELETE', `${API}/events/${learned}`, headers);
    const byPipeline = await throughPipeline('DELETE', `${API}/events/${full}`, headers);
    const made = await beforePipeline('DELETE', `${API}/events/${fast}`, headers);
    expect([byPipeline.status, made.status]).toEqual([200, 200]);
    expect(withoutLength(made)).toEqual(withoutLength(byPipeline));
    // the category's count in each answer is the one after its own trash
    expect(rest(made, ['categories'])).toEqual(rest(byPipeline, ['categories']));
    expect(payload(made)).toMatchObject({ id: fast, status: 'trash', slug: 'three__trashed', title: 'Three' });
    expect(await countOf(category)).toBe(0);
    const changes = await t.app
      .get(DataSource)
      .query(`SELECT action FROM changes WHERE kind = 'event' AND record_id = ${fast} ORDER BY id`);
    expect((changes as Array<{ action: string }>).map((row) => row.action)).toEqual(['created', 'trashed']);
    // the trash of a trashed event is answered here too, as the route answers it
    const again = await beforePipeline('DELETE', `${API}/events/${fast}`, headers);
    const againByPipeline = await throughPipeline('DELETE', `${API}/events/${full}`, headers);
    expect(again.status).toBe(410);
    expect([again.headers, again.body.toString()]).toEqual([againByPipeline.headers, againByPipeline.body.toString()]);
  });

  it('answers what the write itself refuses as the route and the error answer do', async () => {
    const headers = { Authorization: admin, ...JSON_BODY };
    const [learned, target] = [await newEvent('Learned'), await newEvent('Target')];
    await throughPipeline('POST', `${API}/events/${learned}`, headers, { title: 'Learned again' });
    const refusals: Array<[string, number, object]> = [
      ['unknown id', 999999, { title: 'x' }],
      ['bad date', target, { start_date: 'nonsense' }],
      ['bad status', target, { status: 'bogus' }],
      ['unknown venue', target, { venue: 999999 }],
      ['bad scope', target, { recurrence_scope: 'bogus' }],
    ];
    for (const [name, id, body] of refusals) {
      // the parameter checks that refuse the request before the write go to the framework: a bad scope
      await refusedAlike(name, `${API}/events/${id}`, headers, body, name === 'bad scope');
    }
    expect((await readBack(target)).title).toBe('Target');
  });

  it('leaves failed checks before the write and other shapes to the framework', async () => {
    const headers = { Authorization: admin, ...JSON_BODY };
    const [learned, target] = [await newEvent('Learned'), await newEvent('Target')];
    await throughPipeline('POST', `${API}/events/${learned}`, headers, { title: 'Learned again' });
    const path = `${API}/events/${target}`;
    // a body that is not a JSON object: read once, then refused by the framework's body step
    for (const text of ['{"title":', '[1, 2]']) {
      let broken: Answer | undefined;
      expect(await frameworkCalls(async () => (broken = await send('POST', path, headers, text)))).toBe(1);
      expect([broken?.status, JSON.parse(broken?.body.toString() ?? '{}').code]).toEqual([400, 'rest_invalid_json']);
    }
    // a wrong password: refused by the framework's step, counted once, hashed once
    const failures = () => t.app.get(DataSource).getRepository(LoginFailureEntity).countBy({ loginKey: ADMIN.login });
    const before = await failures();
    const checked = passwords.mock.calls.length;
    let refused: Answer | undefined;
    const wrong = { ...headers, Authorization: basic({ login: ADMIN.login, password: 'not-the-password' }) };
    expect(await frameworkCalls(async () => (refused = await send('POST', path, wrong, { title: 'x' })))).toBe(1);
    expect([refused?.status, JSON.parse(refused?.body.toString() ?? '{}').code]).toEqual([401, 'incorrect_password']);
    expect(passwords.mock.calls.length - checked).toBe(1);
    expect(await failures()).toBe(before + 1);
    // the next right password clears the pair's failures in the framework's step, then writes go first again
    expect(await frameworkCalls(() => send('POST', path, headers, { title: 'After a failure' }))).toBe(1);
    expect(await failures()).toBe(before);
    expect(await frameworkCalls(() => send('POST', path, headers, { title: 'Fast again' }))).toBe(0);
    // other shapes
    const shapes: Array<[string, string, string, Record<string, string>, string | undefined]> = [
      ['If-Match', 'POST', path, { ...headers, 'If-Match': '*' }, '{"title":"a"}'],
      ['query string', 'POST', `${path}?recurrence_scope=this`, headers, '{"title":"b"}'],
      ['form body', 'POST', path, { Authorization: admin, 'Content-Type': 'application/x-www-form-urlencoded' }, 'title=c'],
      ['PUT', 'PUT', path, headers, '{"title":"d"}'],
      ['method override', 'POST', path, { ...headers, 'X-HTTP-Method-Override': 'PATCH' }, '{"title":"d2"}'],
      ['leading zero', 'POST', `${API}/events/0${target}`, headers, '{"title":"e"}'],
      ['anonymous', 'POST', path, JSON_BODY, '{"title":"f"}'],
      ['new Origin', 'POST', path, { ...headers, Origin: 'https://new.example' }, '{"title":"g"}'],
    ];
    for (const [name, method, where, sent, body] of shapes) {
      expect([name, await frameworkCalls(() => send(method, where, sent, body))]).toEqual([name, 1]);
    }
    // a POST the route step handles as a DELETE trashes, as the pipeline does
    const overridden = await newEvent('Overridden');
    let trashed: Answer | undefined;
    const override = { ...headers, 'X-HTTP-Method-Override': 'DELETE' };
    expect(await frameworkCalls(async () => (trashed = await send('POST', `${API}/events/${overridden}`, override, '{}')))).toBe(1);
    expect([trashed?.status, JSON.parse(trashed?.body.toString() ?? '{}').status]).toEqual([200, 'trash']);
    // the new Origin's shape was learned by its request
    expect(await frameworkCalls(() => send('POST', path, { ...headers, Origin: 'https://new.example' }, { title: 'h' }))).toBe(0);
    expect((await readBack(target)).title).toBe('h');
  });
});
