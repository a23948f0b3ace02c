import { fixtureSource, type FixtureSource } from './support/fixture-source.js';
import { importTec } from './support/import-sources.js';
import { ADMIN, basic, startTestApp, type TestApp } from './support/test-app.js';
import {
  ACKNOWLEDGEMENT,
  expectedDetails,
  normalized,
  recordedBody,
  recordedRequests,
  type RecordedRequest,
} from './support/tec-v1-samples.js';

/**
 * The recorded `tec/v1` write sequence of the reference (creates, updates, trash, errors) replayed
 * in order on the imported data set, the ids of records created on the way put where the recording
 * names them: statuses, error codes and the written records, but for the deliberate differences of
 * docs/API.md ("tec/v1").
 */

type Json = Record<string, any>;

const all = recordedRequests();
const writes = all.slice(all.findIndex((entry) => entry.name === 'event-create-full-admin'));

const invalid = { status: 400, code: 'rest_invalid_param' };
const missing = { status: 400, code: 'rest_missing_callback_param' };
const notFound = { status: 404, code: 'rest_post_invalid_id' };
/** Where we answer otherwise on purpose: validation the v1 writes do, 400 for incomplete creates, 404 for unknown ids. */
const DELIBERATE: Record<string, { status: number; code?: string }> = {
  'event-create-all-day-string-admin': invalid,
  'event-create-impossible-date-admin': invalid,
  'event-create-unknown-timezone-admin': invalid,
  'error-event-create-empty-admin': missing,
  'error-event-create-title-only-admin': missing,
  // the v1 rule: an end before the start is moved to the start
  'error-event-create-end-before-start-admin': { status: 201 },
  'event-put-unknown-venue-admin': invalid,
  'error-event-put-trashed-admin': { status: 410, code: 'event-is-in-trash' },
  'error-event-put-venue-id-admin': notFound,
  'error-event-delete-venue-id-admin': notFound,
  'error-event-delete-unknown-id-admin': notFound,
  // deleted for good: unknown from then on
  'error-event-force-deleted-admin': notFound,
  'error-venue-force-deleted-admin': notFound,
  'error-organizer-force-deleted-admin': notFound,
  'error-venue-create-empty-admin': missing,
  'error-venue-create-venue-key-admin': missing,
  'error-organizer-create-empty-admin': missing,
  'error-event-delete-again-admin': { status: 410, code: 'event-is-in-trash' },
  // the reference answers [] to a search it should find its records with: checked below
  'events-list-search-recorded-admin': { status: 200 },
  'error-venue-delete-again-admin': { status: 410, code: 'venue-is-in-trash' },
  'error-organizer-delete-again-admin': { status: 410, code: 'organizer-is-in-trash' },
};

/** An end before the start: the end moves to the start (and the event keeps it in later updates). */
const END_BEFORE_START: Json = {
  featured: false,
  start_date: '2027-05-10 20:00:00',
  end_date: '2027-05-10 20:00:00',
  start_date_utc: '2027-05-10 18:00:00',
  end_date_utc: '2027-05-10 18:00:00',
  duration: '0',
};

/** Fields of written records where we differ on purpose (docs/API.md): what names a field changes it, and only that. */
const OURS: Record<string, Json> = {
  // `featured: false` is applied; a PATCH of the title leaves the status alone; the duration follows the end
  'event-put-admin': { featured: false },
  'event-patch-cost-admin': { featured: false },
  'event-put-end-date-only-admin': { featured: false, duration: '16200' },
  'event-put-end-before-start-admin': END_BEFORE_START,
  'event-after-updates-admin': END_BEFORE_START,
  'event-patch-draft-title-only-admin': { status: 'draft' },
  // the state of a United States address is its state_province, as v1 answers it
  'venue-create-us-state-admin': { state_province: 'TX' },
};
const COMPARED = [
  'title',
  'content',
  'excerpt',
  'status',
  'type',
  'author',
  'featured_media',
  'start_date',
  'end_date',
  'start_date_utc',
  'end_date_utc',
  'timezone',
  'duration',
  'all_day',
  'multiday',
  'featured',
  'sticky',
  'cost',
  'tags',
  'tribe_events_cat',
  'address',
  'city',
  'state_province',
  'state',
  'province',
  'zip',
  'country',
  'phone',
  'website',
  'email',
  'directions_link',
];

describe('tec/v1 write sequence replayed against the recorded answers of the reference', () => {
  let source: FixtureSource;
  let target: TestApp;
  const ids = new Map<string, number>();
  const answers = new Map<string, { status: number; body: any }>();

  const resolve = (text: string) => text.replace(/\{id:([^}]+)\}/g, (_whole, name: string) => String(ids.get(name)));
  const send = (entry: RecordedRequest) => {
    const url = entry.url_template ? resolve(entry.url_template) : entry.url_path_and_query;
    let req = target.http()[entry.method.toLowerCase() as 'get'](url);
    if (entry.auth === 'admin') req = req.set('Authorization', basic(ADMIN));
    if (entry.auth === 'bad-password') req = req.set('Authorization', basic({ login: ADMIN.login, password: 'not-the-password' }));
    if (entry.ack === 'sent') req = req.set('X-TEC-EEA', ACKNOWLEDGEMENT);
    if (entry.ack === 'wrong') req = req.set('X-TEC-EEA', 'yes');
    if (entry.body_raw !== undefined) return req.set('Content-Type', 'application/json').send(entry.body_raw);
    const body = entry.body_template !== undefined ? JSON.parse(resolve(JSON.stringify(entry.body_template))) : entry.body;
    return body !== undefined ? req.send(body as object) : req;
  };

  beforeAll(async () => {
    source = await fixtureSource({ withWpV2: true });
    target = await startTestApp({ SITE_TIMEZONE: 'UTC' });
    const run = await importTec(target, ['--from', source.url, '--user', 'admin', '--password', 'recorded-without-password']);
    expect(run.code).toBe(0);
    for (const entry of writes) {
      const res = await send(entry);
      answers.set(entry.name, { status: res.status, body: res.body });
      if (entry.method === 'POST' && res.status === 201) ids.set(entry.name, res.body.id as number);
    }
  }, 120_000);
  afterAll(async () => {
    await target?.close();
    await source?.close();
  });

  it.each(writes.map((entry) => [entry.name, entry] as const))('%s', (name, entry) => {
    const mine = answers.get(name) as { status: number; body: any };
    const expected = recordedBody(name) as any;
    const deliberate = DELIBERATE[name];
    expect({ name, status: mine.status }).toEqual({ name, status: deliberate?.status ?? entry.status });
    if (deliberate?.code) return expect(mine.body.code).toBe(deliberate.code);
    if (deliberate) return;
    if (Array.isArray(expected)) return expect(mine.body).toEqual([]);
    if (typeof expected?.code === 'string') {
      expect(mine.body.code).toBe(expected.code);
      const details = expected.data?.details as Json | undefined;
      if (details && !Array.isArray(details) && Object.keys(details).length > 0)
        expect(mine.body.data.details).toEqual(expectedDetails(details));
      return;
    }
    if (typeof expected?.id !== 'number') return;
    const pick = (body: Json, overrides: Json = {}) =>
      Object.fromEntries(
        COMPARED.filter((field) => field in body).map((field) => [field, normalized(overrides[field] ?? body[field], field)]),
      );
    const fields = pick(expected, OURS[name]);
    expect(pick(mine.body)).toEqual(fields);
    // venues and organizers of the event: the records the recording names, by our ids
    if (Array.isArray(expected.venues)) expect(mine.body.venues.length).toBe(expected.venues.length);
    if (Array.isArray(expected.organizers)) expect(mine.body.organizers.length).toBe(expected.organizers.length);
  });

  it('leaves the v1 answers of the records it wrote as v1 writes would', async () => {
    const id = ids.get('event-create-with-new-venue-organizer-admin') as number;
    const v1 = await target.http().get(`/wp-json/tribe/events/v1/events/${id}`).set('Authorization', basic(ADMIN));
    expect(v1.status).toBe(200);
    expect(v1.body.title).toBe('Recorded: At the new venue');
    // its venue and its organizer were trashed on the way: v1 no longer embeds them either
    expect(v1.body.venue).toEqual([]);
    expect(v1.body.organizer).toEqual([]);
  });

  it('deletes for good with force=true: gone from v1 too, with a deleted change in the feed', async () => {
    const id = ids.get('event-create-minimal-admin') as number;
    const v1 = await target.http().get(`/wp-json/tribe/events/v1/events/${id}`).set('Authorization', basic(ADMIN));
    expect(v1.status).toBe(404);
    const feed = await target.http().get('/wp-json/tribe/events/v1/changes?per_page=500').set('Authorization', basic(ADMIN));
    const actions = (feed.body.changes as Json[])
      .filter((change) => change.type === 'event' && change.id === id)
      .map((change) => change.action);
    expect(actions.at(-1)).toBe('deleted');
  });

  it('finds the records of the run by search, in the statuses asked for', () => {
    const found = answers.get('events-list-search-recorded-admin')?.body as Json[];
    expect(found.length).toBeGreaterThan(5);
    for (const event of found) {
      expect(event.title.rendered).toContain('Recorded');
      expect(['publish', 'draft', 'future']).toContain(event.status);
    }
  });
});
