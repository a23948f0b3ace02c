import { FeedTokensService } from '../src/users/feed-tokens.service.js';
import { ADMIN_AUTH, day } from './support/events.js';
import { nginxBinary, startEdge, type Edge } from './support/edge-nginx.js';
import { freePort } from './support/free-port.js';
import { API, startTestApp, type TestApp } from './support/test-app.js';

/**
 * The cache in front that deploy/ ships (deploy/nginx/calendar.conf.template), run with the real
 * nginx in front of the real app: what it keeps, for how long, and what it never keeps.
 */
const NGINX = nginxBinary();
if (!NGINX) console.warn('The cache-in-front tests are skipped: nginx is not installed (apt-get install -y nginx).');
const edgeDescribe = NGINX ? describe : describe.skip;

/** The service's `s-maxage`: the lifetime of the cache in front. */
const LIFETIME_SECONDS = 2;
const ORIGINS = ['https://a.example', 'https://b.example'];
const SECRET_DESCRIPTION = 'Only with the password';
const DRAFT_TITLE = 'Unpublished edge draft';

interface Answer {
  status: number;
  cache: string | null;
  cacheControl: string | null;
  etag: string | null;
  headers: Headers;
  text: string;
}

edgeDescribe('the cache in front (nginx, deploy/nginx/calendar.conf.template)', () => {
  let t: TestApp;
  let edge: Edge;
  let token: string;
  let locked: number;
  let draft: number;

  /** A request through nginx (path under the API unless it starts with `/de/`), with its cache status. */
  async function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
    const url = path.startsWith('/de/') ? `${edge.base}${path}` : `${edge.base}${API}${path}`;
    const res = await fetch(url, { method, headers });
    return {
      status: res.status,
      cache: res.headers.get('x-cache-status'),
      cacheControl: res.headers.get('cache-control'),
      etag: res.headers.get('etag'),
      headers: res.headers,
      text: await res.text(),
    };
  }

  const createEvent = async (body: Record<string, unknown>) => {
    const res = await fetch(`${edge.base}${API}/events`, {
      method: 'POST',
      headers: { Authorization: ADMIN_AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ start_date: `${day('UTC', 2)} 18:00:00`, end_date: `${day('UTC', 2)} 19:00:00`, ...body }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };

  beforeAll(async () => {
    t = await startTestApp({ HTTP_CACHE_SHARED_MAX_AGE: String(LIFETIME_SECONDS), CORS_ORIGINS: ORIGINS.join(',') });
    const port = await freePort();
    await t.app.listen(port, '127.0.0.1');
    edge = await startEdge(NGINX as string, `127.0.0.1:${port}`);
    await createEvent({ title: 'Open edge event' });
    locked = await createEvent({ title: 'Locked edge event', post_password: 'sesame', description: SECRET_DESCRIPTION });
    draft = await createEvent({ title: DRAFT_TITLE, status: 'draft' });
    token = (await t.app.get(FeedTokensService).create('admin')).token;
  });
  afterAll(async () => {
    await edge?.stop();
    await t?.close();
  });

  it('keeps an anonymous GET and answers the next ones from its copy, HEAD too', async () => {
    const first = await get('/events?per_page=3');
    expect([first.status, first.cache, first.cacheControl]).toEqual([
      200,
      'MISS',
      `public, max-age=0, s-maxage=${LIFETIME_SECONDS}, must-revalidate`,
    ]);
    const second = await get('/events?per_page=3');
    expect([second.status, second.cache]).toEqual([200, 'HIT']);
    expect(second.text).toBe(first.text);
    expect(second.etag).toBe(first.etag);
    for (const name of ['x-wp-total', 'x-tec-total', 'link', 'last-modified', 'content-type', 'vary'])
      expect({ name, value: second.headers.get(name) }).toEqual({ name, value: first.headers.get(name) });
    const head = await get('/events?per_page=3', {}, 'HEAD');
    expect([head.status, head.cache, head.etag]).toEqual([200, 'HIT', first.etag]);
  });

  it('answers If-None-Match from its copy, and revalidates the copy with the service once its time is up', async () => {
    const path = '/categories?hide_empty=0';
    const fresh = await get(path);
    const notModified = await get(path, { 'If-None-Match': fresh.etag as string });
    expect([notModified.status, notModified.cache, notModified.etag, notModified.text]).toEqual([304, 'HIT', fresh.etag, '']);
    const otherTag = await get(path, { 'If-None-Match': '"not-this-one"' });
    expect([otherTag.status, otherTag.cache, otherTag.text]).toEqual([200, 'HIT', fresh.text]);
    // nginx counts whole seconds: a copy is stale from one to two seconds after its lifetime, not before
    await new Promise((resolve) => setTimeout(resolve, (LIFETIME_SECONDS + 1.2) * 1000));
    // nothing changed: the service's 304 renews the copy
    const renewed = await get(path, { 'If-None-Match': fresh.etag as string });
    expect([renewed.status, renewed.cache, renewed.etag]).toEqual([304, 'REVALIDATED', fresh.etag]);
    expect((await get(path)).cache).toBe('HIT');
  });

  it('shows an anonymous reader a write within the lifetime', async () => {
    const path = '/events?per_page=50';
    expect((await get(path)).status).toBe(200);
    expect((await get(path)).cache).toBe('HIT');
    const title = `Written through the edge ${Date.now()}`;
    await createEvent({ title });
    const written = Date.now();
    let seen: number | null = null;
    while (seen === null && Date.now() - written < (LIFETIME_SECONDS + 3) * 1000) {
      if ((await get(path)).text.includes(title)) seen = Date.now() - written;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen).not.toBeNull();
    // the copy ends at most the lifetime after the write, plus the second nginx rounds to, plus a request's slack
    expect(seen as number).toBeLessThanOrEqual((LIFETIME_SECONDS + 1) * 1000 + 500);
  });

  it('never keeps an answer to Basic credentials: passed on unchanged, then an anonymous reader gets the public answer', async () => {
    for (const path of [`/events/${draft}`, '/events?per_page=49&status=any']) {
      const answers = [await get(path, { Authorization: ADMIN_AUTH }), await get(path, { Authorization: ADMIN_AUTH })];
      for (const answer of answers) {
        expect({ path, status: answer.status, cache: answer.cache, cacheControl: answer.cacheControl }).toEqual({
          path,
          status: 200,
          cache: 'BYPASS',
          cacheControl: 'private, no-cache',
        });
        expect(answer.text).toContain(DRAFT_TITLE);
      }
      // the requester's own revalidation reaches the service, which answers it
      const revalidated = await get(path, { Authorization: ADMIN_AUTH, 'If-None-Match': answers[1].etag as string });
      expect([revalidated.status, revalidated.cache, revalidated.cacheControl]).toEqual([304, 'BYPASS', 'private, no-cache']);
      // refused (403 no-store; the list: 400, a status anonymous requesters may not ask for), and never from a copy
      for (let pass = 0; pass < 2; pass++) {
        const anonymous = await get(path);
        expect({ path, pass, cache: anonymous.cache }).toEqual({ path, pass, cache: 'MISS' });
        expect(anonymous.text).not.toContain(DRAFT_TITLE);
        expect(anonymous.status).toBe(path.includes('status=any') ? 400 : 403);
      }
    }
    expect((await get(`/events/${draft}`)).cacheControl).toBe('no-store');
    const list = '/events?per_page=48';
    for (let pass = 0; pass < 2; pass++) expect((await get(list, { Authorization: ADMIN_AUTH })).text).toContain(SECRET_DESCRIPTION);
    const anonymousList = await get(list);
    expect([anonymousList.status, anonymousList.cache]).toEqual([200, 'MISS']);
    expect(anonymousList.text).not.toContain(SECRET_DESCRIPTION);
  });

  /** Asked twice, the answer comes from the service both times, marked private, and holds `text`. */
  async function expectNeverKept(path: string, text: string): Promise<void> {
    for (let pass = 0; pass < 2; pass++) {
      const answer = await get(path);
      expect({ path, status: answer.status, cache: answer.cache, cacheControl: answer.cacheControl }).toEqual({
        path,
        status: 200,
        cache: 'BYPASS',
        cacheControl: 'private, no-cache',
      });
      expect(answer.text).toContain(text);
    }
  }

  it('never keeps an answer to a feed token', async () => {
    for (const path of [`/events.ics?token=${token}`, `/events/${draft}.ics?token=${token}`]) await expectNeverKept(path, DRAFT_TITLE);
    for (let pass = 0; pass < 2; pass++) {
      const feed = await get('/events.ics');
      expect(feed.status).toBe(200);
      expect(feed.text).not.toContain(DRAFT_TITLE);
    }
    const single = await get(`/events/${draft}.ics`);
    expect([single.status, single.cache]).toEqual([403, 'MISS']);
  });

  it('never keeps an answer to an event password, in any spelling of the parameter', async () => {
    for (const query of ['password=sesame', 'p%61ssword=sesame', 'PASSWORD=x&password=sesame']) {
      for (const path of [`/events/${locked}?${query}`, `/events?per_page=47&${query}`]) await expectNeverKept(path, SECRET_DESCRIPTION);
    }
    for (let pass = 0; pass < 2; pass++) {
      const single = await get(`/events/${locked}`);
      expect({ pass, status: single.status, cache: single.cache, cacheControl: single.cacheControl }).toEqual({
        pass,
        status: 403,
        cache: 'MISS',
        cacheControl: 'no-store',
      });
      const list = await get('/events?per_page=47');
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(SECRET_DESCRIPTION);
    }
  });

  it('never keeps refusals: admin-only routes, missing and bad credentials', async () => {
    for (const path of ['/webhooks', '/imports', `/events.ics?token=calfeed_${'x'.repeat(43)}`]) {
      for (let pass = 0; pass < 2; pass++) {
        const answer = await get(path);
        expect({ path, pass, status: answer.status, cache: answer.cache === 'HIT', cacheControl: answer.cacheControl }).toEqual({
          path,
          pass,
          status: 401,
          cache: false,
          cacheControl: 'no-store',
        });
      }
    }
  });

  it('holds no private answer in its files, while it does hold public ones', () => {
    const files = edge.cachedBytes();
    expect(files.some((bytes) => bytes.includes('Open edge event'))).toBe(true);
    for (const secret of [SECRET_DESCRIPTION, DRAFT_TITLE, token]) {
      expect({ secret, kept: files.filter((bytes) => bytes.includes(secret)).length }).toEqual({ secret, kept: 0 });
    }
  });

  it('keeps one copy per variant the Vary header names (Origin), and one per edition', async () => {
    const path = '/tags?hide_empty=0';
    const [a, b] = ORIGINS;
    const seen: Array<[string, string | null, string | null]> = [];
    for (const origin of [a, a, b, b, '', '', a, b]) {
      const answer = await get(path, origin ? { Origin: origin } : {});
      seen.push([origin, answer.headers.get('access-control-allow-origin'), answer.cache]);
    }
    expect(seen).toEqual([
      [a, a, 'MISS'],
      [a, a, 'HIT'],
      [b, b, 'MISS'],
      [b, b, 'HIT'],
      ['', null, 'MISS'],
      ['', null, 'HIT'],
      [a, a, 'HIT'],
      [b, b, 'HIT'],
    ]);
    const german = '/de/wp-json/tribe/events/v1/tags?hide_empty=0';
    const first = await get(german);
    const second = await get(german);
    expect([first.cache, second.cache, second.headers.get('content-language')]).toEqual(['MISS', 'HIT', 'de']);
    expect((await get(path)).headers.get('content-language')).toBe('en');
  });

  it('gives every answer, cached or not, the request id of its own request', async () => {
    const path = '/events?per_page=2';
    await get(path);
    const cached = await get(path, { 'X-Request-Id': 'edge-test-1' });
    expect([cached.cache, cached.headers.get('x-request-id')]).toEqual(['HIT', 'edge-test-1']);
    const made = await get(path);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
  });
});
