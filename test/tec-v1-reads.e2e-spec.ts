import { fixtureSource, type FixtureSource } from './support/fixture-source.js';
import { importTec } from './support/import-sources.js';
import { ADMIN, basic, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app.js';
import {
  ACKNOWLEDGEMENT,
  expectedDetails,
  normalized,
  recordedBody,
  recordedHeaders,
  recordedRequests,
  type RecordedRequest,
} from './support/tec-v1-samples.js';

/**
 * The recorded `tec/v1` reads of the reference (`/work/shared/fixtures/tec-v1-samples/`) replayed
 * against the same data set imported here (`import:tec` of `tec-samples/`, the same ids): statuses,
 * error codes, paging headers and links, and every field of every object, but for what the README
 * calls volatile and the deliberate differences of docs/API.md ("tec/v1").
 */

type Json = Record<string, any>;

const all = recordedRequests();
const reads = all.slice(
  0,
  all.findIndex((entry) => entry.name === 'event-create-full-admin'),
);

/** Events 17 and 18 start at the same moment: the reference pages them in either order (README). */
const TIED = new Set([17, 18]);

/** The answers that differ on purpose (docs/API.md, "tec/v1"), as we give them. */
const NOT_FOUND = { status: 404, code: 'rest_post_invalid_id' };
const DELIBERATE: Record<string, { status: number; code?: string }> = {
  'error-event-24-revision-anon': NOT_FOUND,
  'error-event-24-revision-admin': NOT_FOUND,
  'error-event-id-is-a-venue-admin': NOT_FOUND,
  'error-event-id-is-an-organizer-anon': NOT_FOUND,
  'error-event-unknown-id-anon': NOT_FOUND,
  'error-event-unknown-id-admin': NOT_FOUND,
  'error-venue-id-is-an-event-admin': NOT_FOUND,
  'error-venue-unknown-id-anon': NOT_FOUND,
  'error-venue-unknown-id-admin': NOT_FOUND,
  'error-organizer-id-is-a-venue-admin': NOT_FOUND,
  'error-organizer-unknown-id-anon': NOT_FOUND,
  // the trashed event 50 is not imported (the importer cannot read it): unknown here
  'error-event-50-anon': NOT_FOUND,
  'error-event-50-admin': NOT_FOUND,
  // no tickets here: said plainly (the reference without its ticket plugin: 404 rest_no_route)
  'error-no-route-tickets-anon': { status: 501, code: 'tec_rest_tickets_not_supported' },
  // a filter filters
  'error-events-list-categories-single-anon': { status: 200 },
  'error-events-list-tags-single-anon': { status: 200 },
};
/** Lists whose filter the reference ignores and we apply: checked below on their own. */
const FILTERED_HERE = new Set(['events-list-categories-two-anon', 'events-list-featured-false-anon']);
/** Lists in an order the reference does not hold stable, or that depends on the database's collation. */
const ANY_ORDER = new Set(['venues-list-has-events-anon']);
/** Sorted by title: SQLite compares code points, MariaDB its collation (the curly quote of event 19 goes first or last). */
const COLLATED = 'events-list-orderby-title-desc-anon';
/** The reference writes `ticketed=false` back as `ticketed=1` in its links; here the value stays as sent. */
const LINK_AS_SENT = new Set(['events-list-ticketed-false-anon']);

describe('tec/v1 reads replayed against the recorded answers of the reference', () => {
  let source: FixtureSource;
  let target: TestApp;
  const answers = new Map<string, { status: number; body: any; headers: Record<string, string> }>();

  const send = (entry: RecordedRequest) => {
    let req = target.http()[entry.method.toLowerCase() as 'get'](entry.url_path_and_query);
    if (entry.auth === 'admin') req = req.set('Authorization', basic(ADMIN));
    if (entry.auth === 'bad-password') req = req.set('Authorization', basic({ login: ADMIN.login, password: 'not-the-password' }));
    if (entry.ack === 'sent') req = req.set('X-TEC-EEA', ACKNOWLEDGEMENT);
    if (entry.ack === 'wrong') req = req.set('X-TEC-EEA', 'yes');
    if (entry.body !== undefined) req = req.send(entry.body as object);
    return req;
  };

  beforeAll(async () => {
    source = await fixtureSource({ withWpV2: true });
    target = await startTestApp({ SITE_TIMEZONE: 'UTC' });
    const run = await importTec(target, ['--from', source.url, '--user', 'admin', '--password', 'recorded-without-password']);
    expect(run.code).toBe(0);
    for (const entry of reads) {
      const res = await send(entry);
      answers.set(entry.name, { status: res.status, body: res.body, headers: res.headers });
    }
  }, 120_000);
  afterAll(async () => {
    await target?.close();
    await source?.close();
  });

  const answer = (name: string) => answers.get(name) as { status: number; body: any; headers: Record<string, string> };
  const replayed = reads.filter(
    (entry) => !FILTERED_HERE.has(entry.name) && !/^(root-|docs|options-)/.test(entry.name) && entry.method === 'GET',
  );

  it.each(replayed.map((entry) => [entry.name, entry] as const))('%s', (name, entry) => {
    const mine = answer(name);
    const expected = recordedBody(name) as any;
    const deliberate = DELIBERATE[name];
    expect({ name, status: mine.status }).toEqual({ name, status: deliberate?.status ?? entry.status });
    if (deliberate?.code) return expect(mine.body.code).toBe(deliberate.code);
    if (deliberate) return;
    if (!Array.isArray(expected) && typeof expected?.code === 'string') {
      expect(mine.body.code).toBe(expected.code);
      if (expected.data?.status !== undefined) expect(mine.body.data.status).toBe(expected.data.status);
      if (expected.data?.params) expect(Object.keys(mine.body.data.params)).toEqual(Object.keys(expected.data.params));
      if (expected.data?.details && !Array.isArray(expected.data.details)) {
        expect(mine.body.data.details).toEqual(expectedDetails(expected.data.details));
      }
      return;
    }
    const headers = recordedHeaders(name);
    if (Array.isArray(expected)) {
      for (const header of ['x-wp-total', 'x-wp-totalpages', 'allow', ...(LINK_AS_SENT.has(name) ? [] : ['link'])]) {
        expect({ header, value: mine.headers[header] }).toEqual({ header, value: headers[header] });
      }
      const byId = new Map((mine.body as Json[]).map((item) => [item.id as number, item]));
      const ids = (list: Json[]) => list.map((item) => item.id as number).filter((id) => !TIED.has(id));
      if (ANY_ORDER.has(name)) expect([...ids(mine.body)].sort()).toEqual([...ids(expected)].sort());
      else if (name === COLLATED) expect(ids(mine.body).slice(0, 3)).toEqual(ids(expected).slice(0, 3));
      else expect(ids(mine.body)).toEqual(ids(expected));
      for (const item of expected as Json[]) if (byId.has(item.id)) expect(normalized(byId.get(item.id))).toEqual(normalized(item));
      return;
    }
    expect(normalized(mine.body)).toEqual(normalized(expected));
    expect(mine.headers.allow).toBe(headers.allow);
  });

  it('filters by category and featured=false, where the reference ignores both', async () => {
    // the protected event 49 hides its terms from this reader: left out of the comparison
    const everything = (answer('events-list-pp100-anon').body as Json[]).filter((event) => event.id !== 49);
    const categories = (await target.http().get('/wp-json/tribe/events/v1/categories?per_page=50')).body.categories as Json[];
    const withChildren = (ids: number[]) => [
      ...ids,
      ...categories.filter((term) => ids.includes(term.parent)).map((term) => term.id as number),
    ];
    const inCategories = (ids: number[]) =>
      everything.filter((event) => event.tribe_events_cat.some((id: number) => withChildren(ids).includes(id))).map((event) => event.id);
    const ids = (list: Json[]) => list.map((event) => event.id).filter((id) => id !== 49);
    const two = answer('events-list-categories-two-anon');
    // categories 3 and 5 and their children
    expect(ids(two.body).sort()).toEqual(inCategories([3, 5]).sort());
    expect(Number(two.headers['x-wp-total'])).toBeLessThan(everything.length);
    expect(ids(answer('error-events-list-categories-single-anon').body).sort()).toEqual(inCategories([3]).sort());
    const tagged = answer('error-events-list-tags-single-anon').body as Json[];
    expect(ids(tagged).sort()).toEqual(
      everything
        .filter((event) => event.tags.includes(11))
        .map((event) => event.id)
        .sort(),
    );
    const notFeatured = answer('events-list-featured-false-anon');
    expect(Number(notFeatured.headers['x-wp-total'])).toBe(38 - 4);
    for (const event of notFeatured.body as Json[]) expect(event.featured).toBe(false);
  });

  it('answers the namespace index, OPTIONS and the OpenAPI document with the reference routes and arguments', () => {
    const index = answer('root-tec-v1-namespace').body as Json;
    const recorded = recordedBody('root-tec-v1-namespace') as Json;
    const shape = (routes: Json) =>
      Object.fromEntries(
        Object.entries(routes).map(([path, route]) => [
          path,
          {
            methods: route.methods,
            endpoints: route.endpoints.map((endpoint: Json) => ({
              methods: endpoint.methods,
              args: Array.isArray(endpoint.args)
                ? endpoint.args
                : Object.fromEntries(
                    Object.entries(endpoint.args as Json).map(([arg, schema]) => [arg, { ...schema, description: undefined }]),
                  ),
            })),
          },
        ]),
      );
    expect(Object.keys(index.routes)).toEqual(Object.keys(recorded.routes));
    expect(shape(index.routes)).toEqual(shape(recorded.routes));
    expect(index._links).toEqual(recorded._links);
    expect(shape({ e: answer('options-events').body })).toEqual(shape({ e: recordedBody('options-events') }));
    const document = answer('docs').body as Json;
    expect(document.openapi).toBe('3.0.4');
    expect(document.servers).toEqual([{ url: `${PUBLIC_URL}/wp-json/tec/v1` }]);
    expect(Object.keys(document.paths)).toEqual(Object.keys((recordedBody('docs') as Json).paths));
  });

  it('serves every edition, and its routes in the root index', async () => {
    const root = await target.http().get('/wp-json/');
    expect(root.body.namespaces).toEqual(['tribe/events/v1', 'tec/v1']);
    expect(root.body.routes['/tec/v1/events/(?P<id>\\d+)'].methods).toEqual(['GET', 'PUT', 'PATCH', 'DELETE']);
    const german = await target.http().get('/de/wp-json/tec/v1/events/16').set('X-TEC-EEA', ACKNOWLEDGEMENT);
    expect(german.status).toBe(200);
    expect(german.body.id).toBe(16);
    const index = await target.http().get('/ja/wp-json/tec/v1');
    expect(index.body._links.up).toEqual([{ href: `${PUBLIC_URL}/ja/wp-json/` }]);
  });

  it('gives the vendor MCP server what it asks at start (wp/v2/users/me) and a plain refusal for tickets', async () => {
    const me = await target.http().get('/wp-json/wp/v2/users/me').set('Authorization', basic(ADMIN));
    expect(me.status).toBe(200);
    expect(me.body).toEqual(expect.objectContaining({ id: 1, name: ADMIN.login, slug: ADMIN.login }));
    expect((await target.http().get('/wp-json/wp/v2/users/me')).status).toBe(401);
    expect((await target.http().get('/wp-json/wp/v2/posts')).status).toBe(404);
    for (const [method, path] of [
      ['get', '/wp-json/tec/v1/tickets'],
      ['post', '/wp-json/tec/v1/tickets'],
      ['put', '/wp-json/tec/v1/tickets/5'],
    ] as const) {
      const res = await target.http()[method](path).set('Authorization', basic(ADMIN)).set('X-TEC-EEA', ACKNOWLEDGEMENT);
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 501, code: 'tec_rest_tickets_not_supported' });
    }
  });

  it('keeps an answer without the acknowledgement out of the response cache, and the tribe/events/v1 answers as they were', async () => {
    const path = '/wp-json/tec/v1/venues?per_page=3';
    expect((await target.http().get(path).set('X-TEC-EEA', ACKNOWLEDGEMENT)).status).toBe(200);
    expect((await target.http().get(path).set('X-TEC-EEA', ACKNOWLEDGEMENT)).headers['x-cache']).toBe('HIT');
    const refused = await target.http().get(path);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('missing_experimental_endpoint_acknowledgement');
    const v1 = await target.http().get('/wp-json/tribe/events/v1/events/16');
    expect(v1.status).toBe(200);
    expect(v1.body.rest_url).toBe(`${PUBLIC_URL}/wp-json/tribe/events/v1/events/16`);
  });
});

describe('tec/v1 with TEC_V1_REQUIRE_ACKNOWLEDGEMENT=false', () => {
  let target: TestApp;
  beforeAll(async () => {
    target = await startTestApp({ TEC_V1_REQUIRE_ACKNOWLEDGEMENT: 'false' });
  });
  afterAll(async () => {
    await target?.close();
  });

  it('serves the routes without the header', async () => {
    const res = await target.http().get('/wp-json/tec/v1/events');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers['x-wp-total']).toBe('0');
  });
});
