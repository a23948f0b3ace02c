/**
 * Hostile-input properties (fast-check): random junk in query strings, paths, JSON/form/multipart
 * bodies and headers, on every route of Appendix A, as administrator, author, contributor,
 * subscriber and anonymous. For every generated request:
 *  - never a 5xx;
 *  - every non-2xx answer is exactly `{code, message, data: {status, ...}}` with
 *    `Content-Type: application/json; charset=UTF-8` and `data.status` = the HTTP status (spec §12.1);
 *  - nothing changes after a rejected request (every table, the administrator's view of the addressed
 *    collection with every status, and of the addressed item), and nothing ever changes after a GET;
 *  - text that comes back (titles, descriptions, excerpts, names) never contains `<script`,
 *    `onerror=` or `javascript:` (spec §7.6), error texts never echo input containing `<`, and REST
 *    links are built from PUBLIC_URL and encoded;
 *  - Object.prototype is never polluted.
 *
 * Bounded: a few dozen random runs per property on top of fixed examples (including a sweep of
 * every write field of spec §11), and a time budget per property, shrinking included.
 *
 * Replay: the seed is printed at start; run again with FC_SEED=<seed>. A failure prints its seed
 * and path; FC_SEED=<seed> FC_PATH=<path> with `-t '<test name>'` replays exactly that case.
 * FC_NUM_RUNS=<n> sets the number of random runs per property (examples always run).
 */
import * as fc from 'fast-check';
import { ADMIN, API, basic, startTestApp, type Credentials, type TestApp } from './support/test-app.js';
import {
  answerViolations,
  BAD_AUTHORIZATIONS,
  CONTENT_TYPES,
  describeRequest,
  describeResponse,
  executableMarkup,
  fieldSweep,
  formBody,
  KINDS,
  TOO_LONG,
  WRONG_TYPES,
  hostileBody,
  shortJunk,
  MALFORMED_JSON,
  METHOD_OVERRIDES,
  multipartBody,
  pathSegment,
  pct,
  prototypeKeys,
  queryString,
  RawClient,
  snapshotChanges,
  StateProbe,
  validBody,
  type HostileRequest,
  type Kind,
  type RawResponse,
} from './support/hostile.js';

const SEED = process.env.FC_SEED !== undefined && process.env.FC_SEED !== '' ? Number(process.env.FC_SEED) : Date.now() % 2_147_483_647;
const RUN_SCALE = process.env.FC_NUM_RUNS !== undefined && process.env.FC_NUM_RUNS !== '' ? Number(process.env.FC_NUM_RUNS) : undefined;
/** Time budget of one property, shrinking included; a failure found earlier is still reported shrunk as far as it got. */
const PROPERTY_BUDGET_MS = 5_000;
const TEST_TIMEOUT_MS = 40_000;

const ROOT = '/wp-json';
/** Marks the API index `{base}/` (spec §13.3) among the GET routes. */
const API_INDEX = '{base}/';

type Actor = 'admin' | 'author' | 'contributor' | 'subscriber' | 'anonymous';
const ACTORS: Actor[] = ['admin', 'author', 'contributor', 'subscriber', 'anonymous'];
const actor = fc.constantFrom<Actor>(...ACTORS);
const ITEM_KINDS: Kind[] = ['events', 'venues', 'organizers'];
const kind = fc.constantFrom<Kind>('events', 'venues', 'organizers', 'categories', 'tags');

function params(numRuns: number, examples: unknown[][] = [], budgetMs = PROPERTY_BUDGET_MS): fc.Parameters<any> {
  return {
    seed: SEED,
    // Examples run first and count towards numRuns: the random runs come on top of them.
    numRuns: examples.length + (RUN_SCALE ?? numRuns),
    interruptAfterTimeLimit: budgetMs,
    examples: examples as never,
    verbose: 0,
  };
}

const REPLAY_PATH = process.env.FC_PATH !== undefined && process.env.FC_PATH !== '' ? process.env.FC_PATH : undefined;

/**
 * fc.assert with a short report: the seed and path to replay, and the shrunk request with the
 * answer (fast-check's own report would print megabyte-long generated values in full).
 */
async function check(property: fc.IAsyncProperty<any>, parameters: fc.Parameters<any>): Promise<void> {
  const out = await fc.check(property, REPLAY_PATH ? { ...parameters, path: REPLAY_PATH } : parameters);
  if (!out.failed) return;
  const replay = `{ seed: ${out.seed}, path: "${out.counterexamplePath ?? ''}" } (replay: FC_SEED=${out.seed} FC_PATH=${out.counterexamplePath ?? ''} with -t <this test>)`;
  if (out.counterexample === null) throw new Error(`Property interrupted before any run completed ${replay}`);
  const cause = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
  throw new Error(
    `Property failed after ${out.numRuns} run(s), shrunk ${out.numShrinks} time(s)${out.interrupted ? ' (time budget reached while shrinking)' : ''} ${replay}\n` +
      `Shrunk counterexample:\n${cause}`,
  );
}

describe('the executable-markup invariant', () => {
  it('flags markup a browser would run', () => {
    expect(executableMarkup('<script>alert(1)</script>')).toContain('a script tag');
    expect(executableMarkup('<scr<script>ipt>alert(1)')).toContain('a script tag');
    expect(executableMarkup('"><img src=x onerror=alert(1)>')).toContain('an event-handler attribute');
    expect(executableMarkup('<img src="x" ONLOAD = "alert(1)"')).toContain('an event-handler attribute');
    expect(executableMarkup('<a href="javascript:alert(1)">x</a>')).toContain('a javascript: URL');
    expect(executableMarkup('<a href="java\tscript&colon;alert(1)">x</a>')).toContain('a javascript: URL');
  });

  it('leaves inert text alone', () => {
    expect(executableMarkup('&lt;img src=x onerror=alert(1)&gt;')).toEqual([]);
    expect(executableMarkup('&lt;script&gt;alert(1)&lt;/script&gt;')).toEqual([]);
    expect(executableMarkup('Notes on javascript: and onerror= handlers, 3 < 4')).toEqual([]);
    expect(executableMarkup('<p>Bring a <a href="https://example.org/lantern">lantern</a>.</p>')).toEqual([]);
  });
});

describe('hostile input (property-based)', () => {
  let t: TestApp;
  let client: RawClient;
  let probe: StateProbe;
  const users: Partial<Record<Actor, Credentials>> = {};
  const admin = basic(ADMIN);
  /** Seeded ids (as strings) and slugs per kind. */
  const ids: Record<Kind, string[]> = { events: [], venues: [], organizers: [], categories: [], tags: [] };
  const slugs: Record<Kind, string[]> = { events: [], venues: [], organizers: [], categories: [], tags: [] };

  const authHeader = (who: Actor): Record<string, string> => {
    if (who === 'anonymous') return {};
    if (who === 'admin') return { Authorization: admin };
    return { Authorization: basic(users[who] as Credentials) };
  };

  const create = async (path: string, body: Record<string, unknown>, auth = admin): Promise<Record<string, any>> => {
    const res = await t.http().post(`${API}/${path}`).set('Authorization', auth).send(body);
    if (res.status !== 201) throw new Error(`seeding ${path} failed: ${res.status} ${res.text}`);
    return res.body;
  };

  const remember = (k: Kind, record: Record<string, any>) => {
    ids[k].push(String(record.id));
    if (typeof record.slug === 'string') slugs[k].push(record.slug);
  };

  beforeAll(async () => {
    console.log(`hostile-input: fast-check seed ${SEED} (replay with FC_SEED=${SEED})`);
    t = await startTestApp();
    users.author = await t.user('author');
    users.contributor = await t.user('contributor');
    users.subscriber = await t.user('subscriber');
    const contributor = basic(users.contributor);

    const category = await create('categories', { name: 'Hostile category', description: 'Seeded.' });
    remember('categories', category);
    remember('categories', await create('categories', { name: 'Hostile child', parent: category.id }));
    const tag = await create('tags', { name: 'Hostile tag' });
    remember('tags', tag);
    const venue = await create('venues', { venue: 'Hostile hall', city: 'Port Halden', geo_lat: 44.5, geo_lng: -88 });
    remember('venues', venue);
    remember('venues', await create('venues', { venue: 'Contributor shed' }, contributor));
    const trashedVenue = await create('venues', { venue: 'Trashed barn' });
    await t.http().delete(`${API}/venues/${trashedVenue.id}`).set('Authorization', admin);
    remember('venues', { id: trashedVenue.id, slug: `${trashedVenue.slug}__trashed` });
    const organizer = await create('organizers', { organizer: 'Hostile guild', email: 'guild@example.org' });
    remember('organizers', organizer);
    remember('organizers', await create('organizers', { organizer: 'Contributor club' }, contributor));
    remember(
      'events',
      await create('events', {
        ...validBody('events', 'seed'),
        title: 'Hostile harbour walk',
        description: 'Bring a lantern.',
        venue: venue.id,
        organizer: [organizer.id],
        categories: [category.id],
        tags: [tag.id],
      }),
    );
    remember('events', await create('events', { ...validBody('events', 'draft'), title: 'Contributor draft' }, contributor));
    remember('events', await create('events', { ...validBody('events', 'secret'), title: 'Protected event', post_password: 'secret-pw' }));
    const trashedEvent = await create('events', { ...validBody('events', 'trash'), title: 'Trashed event' });
    await t.http().delete(`${API}/events/${trashedEvent.id}`).set('Authorization', admin);
    remember('events', { id: trashedEvent.id, slug: `${trashedEvent.slug}__trashed` });

    client = new RawClient(t.app.getHttpServer());
    await client.start();
    probe = new StateProbe(t, admin);
  }, 60_000);

  afterAll(async () => {
    client?.stop();
    await t?.close();
  });

  /** Answers seen by the current property, reported after it (shows both accepted and rejected paths ran). */
  const statuses = new Map<number, number>();
  beforeEach(() => statuses.clear());
  afterEach(() => {
    const seen = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
    console.log(`hostile-input: ${expect.getState().currentTestName}: ${seen.join(' ')}`);
  });

  /** Every seeded id of any kind: the wrong-kind ids of spec §3.2 come from here. */
  const allIds = () => [...new Set(Object.values(ids).flat())];

  /** Sends one request and checks every invariant; throws a readable report on the first violation. */
  async function exercise(req: HostileRequest, scope: { kinds: Kind[]; items: string[] }): Promise<RawResponse> {
    const readOnly = req.method === 'GET';
    const before = await probe.take(scope.kinds, scope.items);
    const protoBefore = prototypeKeys().join(',');
    const res = await client.send(req);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const problems = answerViolations(res);
    const rejected = res.status < 200 || res.status >= 300;
    if (rejected || readOnly) {
      const after = await probe.take(scope.kinds, scope.items);
      const label = rejected ? `rejected (${res.status}) request changed data` : 'GET changed data';
      problems.push(...snapshotChanges(before, after).map((change) => `${label}: ${change}`));
    }
    if (prototypeKeys().join(',') !== protoBefore || ({} as Record<string, unknown>).polluted !== undefined) {
      problems.push(`Object.prototype polluted: ${prototypeKeys().join(',')}`);
    }
    if (problems.length > 0) {
      throw new Error(`${problems.join('\n')}\n  request:  ${describeRequest(req)}\n  response: ${describeResponse(res)}`);
    }
    return res;
  }

  const kindOfPath = (route: string): Kind[] => {
    const match = /^\/(events|venues|organizers|categories|tags)/.exec(route);
    return match ? [match[1] as Kind] : [];
  };

  /** Admin views of a seeded item addressed by a path segment, when the segment names one. */
  const itemScope = (k: Kind, segment: string, bySlug: boolean): string[] => {
    if (!bySlug && ids[k].includes(segment)) return [`${API}/${k}/${segment}`];
    if (bySlug && slugs[k].includes(segment)) return [`${API}/${k}/${ids[k][slugs[k].indexOf(segment)]}`];
    return [];
  };

  it(
    'GET on every collection, the namespace index, the API index and /doc with random query strings',
    async () => {
      const route = fc.constantFrom('/events', '/venues', '/organizers', '/categories', '/tags', '', '/', '/doc', API_INDEX);
      await check(
        fc.asyncProperty(route, queryString, actor, async (path, query, who) => {
          const target = path === API_INDEX ? `${ROOT}/${query}` : `${API}${path}${query}`;
          await exercise({ method: 'GET', path: target, headers: authHeader(who) }, { kinds: kindOfPath(path), items: [] });
        }),
        params(45, [
          ['/events', `?search=${pct("' OR 1=1 --")}`, 'anonymous'],
          ['/events', `?search=${pct('"; DROP TABLE events; --')}&status=any`, 'admin'],
          ['/venues', `?search=${pct("' UNION SELECT login, password_hash FROM users --")}`, 'anonymous'],
          ['/events', `?categories=${pct('<script>alert(1)</script>')}`, 'anonymous'],
          ['/events', `?tags=${pct('<img src=x onerror=alert(1)>')}&venue=${pct('<b>')}`, 'admin'],
          ['/categories', `?include=${pct('<script>')}&slug=${pct("' OR 1=1 --")}`, 'anonymous'],
          ['/events', '?page=99999999999999999999&per_page=-1', 'anonymous'],
          ['/events', '?page[]=1&page[]=2&status[][]=publish&__proto__[polluted]=1', 'contributor'],
          ['/events', '?start_date=%zz&end_date=%C0%80&search=%ED%A0%80', 'admin'],
          ['', `?namespace=${pct('<script>alert(1)</script>')}`, 'anonymous'],
          ['/doc', '?constructor[prototype][polluted]=1', 'anonymous'],
          ['/events', '?include=&venue=,&organizer=%20,', 'anonymous'],
          ['/tags', '?include=,&exclude=&slug[]=&orderby[]=name', 'anonymous'],
        ]),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'GET single items by random ids and slugs, with random query strings',
    async () => {
      const target = kind.chain((k) =>
        fc.record({
          k: fc.constant(k),
          bySlug: ITEM_KINDS.includes(k) ? fc.boolean() : fc.constant(false),
          segment: pathSegment(
            k === 'categories' || k === 'tags' ? [...ids.categories, ...ids.tags] : allIds(),
            slugs[k].length > 0 ? slugs[k] : ['none'],
          ),
          slash: fc.boolean(),
        }),
      );
      await check(
        fc.asyncProperty(target, queryString, actor, async ({ k, bySlug, segment, slash }, query, who) => {
          const path = `${API}/${k}/${bySlug ? 'by-slug/' : ''}${segment}${slash ? '/' : ''}${query}`;
          await exercise({ method: 'GET', path, headers: authHeader(who) }, { kinds: [k], items: itemScope(k, segment, bySlug) });
        }),
        params(45, [
          [{ k: 'events', bySlug: false, segment: '99999999999999999999999', slash: false }, '', 'anonymous'],
          [{ k: 'events', bySlug: true, segment: '%00', slash: false }, '', 'admin'],
          [{ k: 'venues', bySlug: true, segment: '..%2F..%2Fetc%2Fpasswd', slash: false }, '', 'anonymous'],
          [{ k: 'organizers', bySlug: true, segment: pct("' OR 1=1 --"), slash: false }, '', 'anonymous'],
          [{ k: 'events', bySlug: true, segment: pct('<script>alert(1)</script>'), slash: false }, '?password=%3Cscript%3E', 'anonymous'],
          [{ k: 'tags', bySlug: false, segment: '1'.repeat(400), slash: true }, '', 'anonymous'],
          [{ k: 'events', bySlug: true, segment: '%ff', slash: false }, '', 'anonymous'],
        ]),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'JSON writes on collections with wrong types in every field, as every role',
    async () => {
      const write = kind.chain((k) =>
        fc.tuple(fc.constant(k), fc.constantFrom('POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE'), hostileBody(k)),
      );
      await check(
        fc.asyncProperty(write, actor, async ([k, method, body], who) => {
          await exercise(
            {
              method,
              path: `${API}/${k}`,
              headers: { ...authHeader(who), 'Content-Type': 'application/json' },
              body: JSON.stringify(body),
            },
            { kinds: [k], items: [] },
          );
        }),
        params(
          55,
          [
            [['events', 'POST', { ...validBody('events', 'x1'), title: '&lt;script&gt;alert(1)&lt;/script&gt;' }], 'admin'],
            [['events', 'POST', { ...validBody('events', 'x2'), title: '<scr<script>ipt>alert(1)</scr</script>ipt>' }], 'admin'],
            [
              [
                'events',
                'POST',
                { ...validBody('events', 'x3'), description: '<img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>' },
              ],
              'author',
            ],
            [['events', 'POST', { ...validBody('events', 'x4'), title: '<script src=//evil.example/x.js' }], 'admin'],
            [
              [
                'venues',
                'POST',
                { venue: '<script>alert(1)</script>Hall', description: '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>' },
              ],
              'admin',
            ],
            [
              [
                'organizers',
                'POST',
                { organizer: '"><img src=x onerror=alert(1)>', excerpt: '<noscript><p title="</noscript><img src=x onerror=alert(1)>">' },
              ],
              'contributor',
            ],
            [['categories', 'POST', { name: '"; DROP TABLE events; --', description: '<script>alert(1)</script>' }], 'admin'],
            [['tags', 'POST', { name: "' OR 1=1 --", slug: '<script>' }], 'admin'],
            [
              [
                'events',
                'POST',
                { ...validBody('events', 'x5'), venue: { venue: 'Inline', geo_lat: 1e308 }, categories: ['new-category-x5'] },
              ],
              'admin',
            ],
            [
              [
                'events',
                'POST',
                { ...validBody('events', 'x6'), organizer: [{ organizer: 'Inline org x6' }, 987654321], tags: ['new-tag-x6'] },
              ],
              'admin',
            ],
            [['events', 'POST', { ...validBody('events', 'x7'), categories: Array.from({ length: 150 }, (_, i) => `bulk-${i}`) }], 'admin'],
            [['events', 'POST', { ...validBody('events', 'x8'), title: 'a'.repeat(1001) }], 'admin'],
            [['venues', 'POST', { venue: 'Long city', city: 'c'.repeat(256) }], 'admin'],
            [['events', 'POST', { ...validBody('events', 'x9'), author: 2147483648, post_parent: 1e21 }], 'admin'],
            [['events', 'POST', { ...validBody('events', 'x10'), title: '😀'.repeat(600) }], 'admin'],
            // Every field of spec §11 with a wrong type (rotating through WRONG_TYPES), on a valid create body.
            ...KINDS.flatMap((k) =>
              fieldSweep(k, true, (i) => WRONG_TYPES[i % WRONG_TYPES.length]).map((body) => [[k, 'POST', body], 'admin']),
            ),
          ],
          9_000,
        ),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'JSON updates and deletes on items by random ids and slugs, with wrong types in every field, as every role',
    async () => {
      const write = kind.chain((k) =>
        fc.tuple(
          fc.constant(k),
          fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'),
          ITEM_KINDS.includes(k) ? fc.boolean() : fc.constant(false),
          pathSegment(ids[k], slugs[k].length > 0 ? slugs[k] : ['none']),
          fc.option(hostileBody(k), { freq: 6 }),
        ),
      );
      await check(
        fc.asyncProperty(write, actor, async ([k, method, bySlug, segment, body], who) => {
          const headers: Record<string, string> = { ...authHeader(who) };
          if (body !== null) headers['Content-Type'] = 'application/json';
          await exercise(
            {
              method,
              path: `${API}/${k}/${bySlug ? 'by-slug/' : ''}${segment}`,
              headers,
              body: body === null ? undefined : JSON.stringify(body),
            },
            { kinds: [k], items: itemScope(k, segment, bySlug) },
          );
        }),
        params(
          55,
          (
            [
              [['events', 'PATCH', false, '__FIRST__', { title: '&lt;script&gt;alert(1)&lt;/script&gt;' }], 'admin'],
              [['events', 'PUT', false, '__FIRST__', { venue: 987654321, title: 'Never stored' }], 'contributor'],
              [['events', 'DELETE', false, '__FIRST__', null], 'contributor'],
              [['venues', 'PATCH', false, '__FIRST__', { geo_lat: 1e308, venue: 'Never stored' }], 'admin'],
              [['organizers', 'POST', false, '__FIRST__', { email: 'e'.repeat(256), organizer: 'Never stored' }], 'admin'],
              [['categories', 'PATCH', false, '__FIRST__', { parent: '__SELF__', name: 'Never stored' }], 'admin'],
              [['tags', 'PUT', false, '__FIRST__', { parent: 1, name: 'Never stored' }], 'admin'],
              [['events', 'PATCH', false, '99999999999999999999999', { title: 'x' }], 'admin'],
              [['venues', 'DELETE', true, '..%2F..%2Fetc%2Fpasswd', null], 'admin'],
              [['events', 'PATCH', false, '__FIRST__', { status: 'trash', title: 'Never stored' }], 'admin'],
              [['events', 'PATCH', false, '__FIRST__', { start_date: '2027-02-30', title: 'Never stored' }], 'admin'],
              [['events', 'PATCH', false, '__FIRST__', { categories: ['Never created category'], tags: [987654321] }], 'admin'],
              [
                [
                  'events',
                  'PATCH',
                  false,
                  '__FIRST__',
                  { venue: { venue: 'Never created venue' }, organizer: [{ organizer: 'Never created org' }, 987654321] },
                ],
                'admin',
              ],
              // Every field of spec §11 with a string above every length limit, as a partial update of a seeded item.
              ...KINDS.flatMap((k) =>
                fieldSweep(k, false, () => TOO_LONG).map(
                  (body) =>
                    [[k, 'PATCH', false, '__FIRST__', body], 'admin'] as [
                      [Kind, string, boolean, string, Record<string, unknown> | null],
                      Actor,
                    ],
                ),
              ),
            ] as Array<[[Kind, string, boolean, string, Record<string, unknown> | null], Actor]>
          ).map(([[k, m, s, seg, b], who]) => {
            // Placeholders resolved once the seed data exists.
            const first = ids[k][0] ?? '1';
            const body = b && b.parent === '__SELF__' ? { ...b, parent: Number(first) } : b;
            return [[k, m, s, seg === '__FIRST__' ? first : seg, body], who];
          }),
          8_000,
        ),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'malformed JSON, wrong content types, form and multipart bodies with bracket notation',
    async () => {
      const target = kind.chain((k) =>
        fc.record({
          k: fc.constant(k),
          item: fc.option(fc.constantFrom(...ids[k]), { freq: 2 }),
          method: fc.constantFrom('POST', 'POST', 'PUT', 'PATCH'),
        }),
      );
      const payload = fc.oneof(
        {
          weight: 3,
          arbitrary: fc.record({
            body: fc.constantFrom(...MALFORMED_JSON),
            contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/vnd.api+json'),
          }),
        },
        {
          weight: 3,
          arbitrary: fc.record({
            body: formBody,
            contentType: fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8'),
          }),
        },
        { weight: 2, arbitrary: multipartBody },
        {
          weight: 2,
          arbitrary: fc.record({
            body: fc.oneof(
              fc.constantFrom(...MALFORMED_JSON),
              formBody,
              kind.chain((k) => hostileBody(k)).map((b) => JSON.stringify(b)),
            ),
            contentType: fc.constantFrom(...CONTENT_TYPES),
          }),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain').map((contentType) => ({
            body: contentType === 'application/json' ? `{"title":"${'a'.repeat(1_100_000)}"}` : `title=${'a'.repeat(1_100_000)}`,
            contentType,
          })),
        },
      );
      await check(
        fc.asyncProperty(target, payload, actor, async ({ k, item, method }, { body, contentType }, who) => {
          const headers: Record<string, string> = { ...authHeader(who) };
          if (contentType !== '') headers['Content-Type'] = contentType;
          await exercise(
            { method, path: `${API}/${k}${item === null ? '' : `/${item}`}`, headers, body },
            { kinds: [k], items: item === null ? [] : [`${API}/${k}/${item}`] },
          );
        }),
        params(
          50,
          [
            [{ k: 'events', item: null, method: 'POST' }, { body: '{"title":', contentType: 'application/json' }, 'admin'],
            [
              { k: 'events', item: null, method: 'POST' },
              { body: `{"a":${'['.repeat(5000)}`, contentType: 'application/json' },
              'anonymous',
            ],
            [
              { k: 'categories', item: null, method: 'POST' },
              { body: '__proto__[polluted]=yes&name[]=a&name[]=b', contentType: 'application/x-www-form-urlencoded' },
              'admin',
            ],
            [
              { k: 'events', item: null, method: 'POST' },
              {
                body: 'title=Form&start_date=2027-05-01&end_date=2027-05-01&venue[a][b][c][d][e][f][g]=1&organizer[999999]=x',
                contentType: 'application/x-www-form-urlencoded',
              },
              'admin',
            ],
            [
              { k: 'venues', item: null, method: 'POST' },
              { body: `venue=${'v'.repeat(1_100_000)}`, contentType: 'application/x-www-form-urlencoded' },
              'anonymous',
            ],
            [{ k: 'tags', item: null, method: 'POST' }, { body: '{"name":"x"}', contentType: 'multipart/form-data' }, 'admin'],
          ],
          6_000,
        ),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'random headers: bad Authorization, bad Content-Type, X-HTTP-Method-Override and _method junk',
    async () => {
      const target = kind.chain((k) =>
        fc.record({
          k: fc.constant(k),
          item: fc.option(fc.constantFrom(...ids[k]), { freq: 2 }),
          method: fc.constantFrom('GET', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE'),
          body: fc.option(hostileBody(k), { freq: 4 }),
        }),
      );
      const headers = fc.record(
        {
          Authorization: fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...BAD_AUTHORIZATIONS) },
            { weight: 2, arbitrary: fc.constantFrom<Actor>(...ACTORS).map((who) => authHeader(who).Authorization ?? '') },
          ),
          'Content-Type': fc.constantFrom(...CONTENT_TYPES),
          'X-HTTP-Method-Override': fc.constantFrom(...METHOD_OVERRIDES),
          _method: fc.constantFrom(...METHOD_OVERRIDES),
          Origin: fc.constantFrom('null', 'http://evil.example', 'http://calendar.test', '<script>alert(1)</script>', 'file://'),
          Host: fc.constantFrom('evil.example', 'evil.example:1', 'calendar.test', '[::1]', 'a'.repeat(300)),
          'X-Forwarded-For': fc.constantFrom('127.0.0.1, 10.0.0.1', "' OR 1=1 --", '::ffff:1.2.3.4', 'x'.repeat(500)),
          'X-Forwarded-Host': fc.constantFrom('evil.example', '<script>'),
          'X-WP-Nonce': shortJunk.map((s) =>
            Buffer.from(s, 'utf8')
              .toString('latin1')
              .replace(/[^\t\x20-\x7e\x80-\xff]/g, '?'),
          ),
          Cookie: fc.constantFrom('wordpress_logged_in=admin', '__proto__=1', 'a=<script>'),
          Accept: fc.constantFrom('text/html', 'application/xml', '*/*', ';;;', 'application/json;q=0'),
          'Accept-Language': fc.constantFrom('de', 'xx-YY', '*', '<script>', 'en;q=abc'),
        },
        { requiredKeys: [] },
      );
      await check(
        fc.asyncProperty(target, headers, async ({ k, item, method, body }, raw) => {
          const { _method, ...sent } = raw as Record<string, string>;
          const query = _method === undefined ? '' : `?_method=${pct(_method)}`;
          for (const [name, value] of Object.entries(sent)) if (value === '') delete sent[name];
          await exercise(
            {
              method,
              path: `${API}/${k}${item === null ? '' : `/${item}`}${query}`,
              headers: sent,
              body: body === null ? undefined : JSON.stringify(body),
            },
            { kinds: [k], items: item === null ? [] : [`${API}/${k}/${item}`] },
          );
        }),
        params(
          50,
          [
            [{ k: 'events', item: '__FIRST__', method: 'POST', body: null }, { 'X-HTTP-Method-Override': 'DELETE' }],
            [
              { k: 'events', item: '__FIRST__', method: 'GET', body: null },
              { 'X-HTTP-Method-Override': 'DELETE', Authorization: admin },
            ],
            [
              { k: 'venues', item: '__FIRST__', method: 'POST', body: { venue: 'Never' } },
              { _method: 'DELETE', Authorization: BAD_AUTHORIZATIONS[8] },
            ],
            [
              { k: 'events', item: null, method: 'GET', body: null },
              { Authorization: `Basic ${Buffer.from("' OR 1=1 --:x").toString('base64')}` },
            ],
            [
              { k: 'categories', item: null, method: 'POST', body: { name: 'Never' } },
              { 'Content-Type': 'application/json; charset=utf-16le', Authorization: BAD_AUTHORIZATIONS[0] },
            ],
          ].map(([target, hdrs]) => {
            const tg = target as { k: Kind; item: string | null };
            return [{ ...tg, item: tg.item === '__FIRST__' ? ids[tg.k][0] : tg.item }, hdrs];
          }),
        ),
      );
    },
    TEST_TIMEOUT_MS,
  );
});
