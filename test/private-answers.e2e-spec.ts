import type { Response } from 'supertest';
import { FeedTokensService } from '../src/users/feed-tokens.service.js';
import { ADMIN_AUTH, day } from './support/events.js';
import { API, basic, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

/**
 * Every answer a credential, a password, a lock or a permission decided is marked so that no shared
 * cache keeps it (`private` or `no-store`), and anonymous reads say how long a cache in front may
 * keep them (`HTTP_CACHE_SHARED_MAX_AGE` as `s-maxage`).
 */
const PRIVATE_READ = 'private, no-cache';
const V1_PRIVATE = 'no-cache, must-revalidate, max-age=0, no-store, private';
const LOGIN_LIMIT = 2;

/** The answer's status and `Cache-Control`, named, for readable failures. */
const marking = (name: string, res: Response) => ({ name, status: res.status, cacheControl: res.headers['cache-control'] });

describe('cache marking of answers decided by credentials, passwords and permissions', () => {
  let t: TestApp;
  let subscriber: Credentials;
  let token: string;
  let locked: number;
  let draft: number;
  let open: number;

  beforeAll(async () => {
    t = await startTestApp({ HTTP_CACHE_MAX_AGE: '0', HTTP_CACHE_SHARED_MAX_AGE: '7', LOGIN_FAILURE_LIMIT: String(LOGIN_LIMIT) });
    subscriber = await t.user('subscriber');
    const event = (title: string, extra: Record<string, unknown>) => ({
      title,
      start_date: `${day('UTC', 3)} 10:00:00`,
      end_date: `${day('UTC', 3)} 11:00:00`,
      ...extra,
    });
    const create = (body: Record<string, unknown>) => t.http().post(`${API}/events`).set('Authorization', ADMIN_AUTH).send(body);
    locked = (await create(event('Locked marking', { post_password: 'sesame', description: 'Behind the password' }))).body.id;
    draft = (await create(event('Draft marking', { status: 'draft' }))).body.id;
    open = (await create(event('Open marking', {}))).body.id;
    token = (await t.app.get(FeedTokensService).create('admin')).token;
  });
  afterAll(() => t.close());

  it('gives anonymous reads public caching with the shared lifetime, and 304s the same', async () => {
    for (const path of ['/events', `/events/${open}`, '/events.ics', `/events/${open}.ics`, '/categories']) {
      const res = await t.http().get(`${API}${path}`);
      expect(marking(path, res)).toEqual({ name: path, status: 200, cacheControl: 'public, max-age=0, s-maxage=7, must-revalidate' });
      const again = await t.http().get(`${API}${path}`).set('If-None-Match', res.headers.etag);
      expect(marking(path, again)).toEqual({ name: path, status: 304, cacheControl: 'public, max-age=0, s-maxage=7, must-revalidate' });
    }
  });

  it('marks reads with a password private, spelled in any way the parser reads, and keeps them out of the response cache', async () => {
    for (const query of ['password=sesame', 'p%61ssword=sesame', 'per_page=5&password=sesame']) {
      const path = `/events/${locked}?${query}`;
      for (let pass = 0; pass < 2; pass++) {
        const res = await t.http().get(`${API}${path}`);
        expect(marking(path, res)).toEqual({ name: path, status: 200, cacheControl: PRIVATE_READ });
        expect(res.body.description).toBe('<p>Behind the password</p>');
        expect(res.headers['x-cache']).toBeUndefined();
        const head = await t.http().head(`${API}${path}`);
        expect(marking(`HEAD ${path}`, head)).toEqual({ name: `HEAD ${path}`, status: 200, cacheControl: PRIVATE_READ });
        const notModified = await t.http().get(`${API}${path}`).set('If-None-Match', res.headers.etag);
        expect(marking(path, notModified)).toEqual({ name: path, status: 304, cacheControl: PRIVATE_READ });
      }
    }
    const list = await t.http().get(`${API}/events?per_page=50&password=sesame`);
    expect(marking('list with a password', list)).toEqual({ name: 'list with a password', status: 200, cacheControl: PRIVATE_READ });
    const lockedListed = list.body.events.find((item: { id: number }) => item.id === locked);
    expect(lockedListed.description).toBe('<p>Behind the password</p>');
    const feed = await t.http().get(`${API}/events/${locked}.ics?password=sesame`);
    expect(marking('feed with a password', feed)).toEqual({ name: 'feed with a password', status: 200, cacheControl: PRIVATE_READ });
  });

  it('marks every read with a user private: Basic credentials and feed tokens', async () => {
    for (const path of ['/events?status=any', `/events/${draft}`, '/events.ics', `/events/${draft}.ics`]) {
      const res = await t.http().get(`${API}${path}`).set('Authorization', ADMIN_AUTH);
      expect(marking(path, res)).toEqual({ name: path, status: 200, cacheControl: PRIVATE_READ });
    }
    for (const path of [`/events.ics?token=${token}`, `/events/${draft}.ics?token=${token}`]) {
      const res = await t.http().get(`${API}${path}`);
      expect(marking(path, res)).toEqual({ name: path, status: 200, cacheControl: PRIVATE_READ });
      expect(res.text).toContain('Draft marking');
    }
    const admin = await t.http().get(`${API}/webhooks`).set('Authorization', ADMIN_AUTH);
    expect(marking('admin-only route', admin)).toEqual({ name: 'admin-only route', status: 200, cacheControl: PRIVATE_READ });
  });

  it('marks refusals no-store: missing or bad credentials, bad tokens, wrong passwords, permissions', async () => {
    const refusals: Array<[string, () => Promise<Response>, number]> = [
      ['anonymous admin-only list', () => t.http().get(`${API}/webhooks`), 401],
      ['anonymous import jobs', () => t.http().get(`${API}/imports`), 401],
      ['anonymous draft', () => t.http().get(`${API}/events/${draft}`), 403],
      ['anonymous draft feed', () => t.http().get(`${API}/events/${draft}.ics`), 403],
      ['no password', () => t.http().get(`${API}/events/${locked}`), 403],
      ['wrong password', () => t.http().get(`${API}/events/${locked}?password=open`), 403],
      ['bad feed token', () => t.http().get(`${API}/events.ics?token=calfeed_${'x'.repeat(43)}`), 401],
      [
        'unknown login',
        () =>
          t
            .http()
            .get(`${API}/events`)
            .set('Authorization', basic({ login: 'nobody', password: 'x' })),
        401,
      ],
      ['anonymous write', () => t.http().post(`${API}/tags`).send({ name: 'Refused' }), 401],
    ];
    for (const [name, send, status] of refusals) expect(marking(name, await send())).toEqual({ name, status, cacheControl: 'no-store' });
    // an authenticated refusal keeps the header of every answer to valid credentials
    const forbidden = await t.http().get(`${API}/webhooks`).set('Authorization', basic(subscriber));
    expect(marking('subscriber on an admin-only route', forbidden)).toEqual({
      name: 'subscriber on an admin-only route',
      status: 403,
      cacheControl: V1_PRIVATE,
    });
  });

  it('marks a login lock no-store', async () => {
    const wrong = basic({ login: subscriber.login, password: 'not-the-password' });
    for (let attempt = 0; attempt < LOGIN_LIMIT; attempt++) {
      const res = await t.http().get(`${API}/events`).set('Authorization', wrong);
      expect(marking('wrong password', res)).toEqual({ name: 'wrong password', status: 401, cacheControl: 'no-store' });
    }
    const lockedOut = await t.http().get(`${API}/events`).set('Authorization', wrong);
    expect(marking('locked login', lockedOut)).toEqual({ name: 'locked login', status: 429, cacheControl: 'no-store' });
  });

  it('leaves other errors of anonymous requests unmarked, as v1 does', async () => {
    const missing = await t.http().get(`${API}/events/987654`);
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBeUndefined();
  });
});
