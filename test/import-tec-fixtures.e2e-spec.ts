import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeHTML } from 'entities';
import { FIXTURES, fixtureSource, type FixtureSource } from './support/fixture-source.js';
import { faultyProxy, importTec, summaryRow } from './support/import-sources.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/**
 * `import:tec` against recorded answers of a real site of the reference plugin
 * (`/work/shared/fixtures/tec-samples/`), served with their recorded bodies and headers by a fake
 * source: what lands here, field by field.
 */

type Json = Record<string, any>;

const fixture = (name: string): Json => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8'));
const index = fixture('index') as unknown as Array<{ name: string; status: number }>;
/** Every event the reference answered in full to its administrator (the protected one through context=edit). */
const recordedEvents = index
  .filter((entry) => /^event-\d+-admin(-context-edit)?$/.test(entry.name) && entry.status === 200)
  .map((entry) => fixture(entry.name));

/** What contract §7.6 stores for a title or name of the reference: tags removed, entities decoded. */
const plain = (text: string) => decodeHTML(text.replace(/<[^>]*>/g, '')).trim();

describe('import:tec from recorded answers of the reference plugin', () => {
  let source: FixtureSource;
  // the other targets of this file have databases of their own (MySQL/MariaDB): this one is read to the end
  let target: TestApp;
  let run: Awaited<ReturnType<typeof importTec>>;
  const get = (path: string, auth = true) => {
    const request = target.http().get(`${API}${path}`);
    return auth ? request.set('Authorization', basic(ADMIN)) : request;
  };

  beforeAll(async () => {
    source = await fixtureSource({ withWpV2: true });
    // the recorded site runs in UTC
    target = await startTestApp({ SITE_TIMEZONE: 'UTC' });
    run = await importTec(target, ['--from', source.url, '--user', 'admin', '--password', 'recorded-without-password']);
  }, 60_000);
  afterAll(async () => {
    await target.close();
    await source.close();
  });

  it('imports everything the credentials can read and exits 0', () => {
    expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
    const row = (name: string) => summaryRow(run.lines, name);
    // created, updated, unchanged, kept, trashed, deleted, skipped
    expect(row('categories')).toEqual([9, 0, 0, 0, 0, 0, 0]);
    expect(row('tags')).toEqual([7, 0, 0, 0, 0, 0, 0]);
    expect(row('venues')).toEqual([7, 0, 0, 0, 0, 0, 0]);
    expect(row('organizers')).toEqual([5, 0, 0, 0, 0, 0, 0]);
    // 43 events: 40 in the lists, 2 hidden from listings (51 through wp/v2, 60 only by its id), the trashed one unreadable
    expect(row('events')).toEqual([42, 0, 0, 0, 0, 0, 0]);
    // the trashed event: not listed, not in wp/v2's list of the statuses asked for, 403 when read alone
    expect(run.lines.join('\n')).not.toMatch(/Cancelled/);
    expect(run.lines).toContain('  event 50: 403 event-no-longer-available: This event is no longer available');
    // never a write to the source
    expect(source.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('keeps every id and slug of the reference, percent-encoded ones included', async () => {
    for (const recorded of recordedEvents) {
      const res = await get(`/events/${recorded.id}`);
      expect({ id: recorded.id, status: res.status }).toEqual({ id: recorded.id, status: 200 });
      // drafts and pending events have no slug yet at the reference; here they get one (contract §3.3)
      if (recorded.slug !== '') expect({ id: recorded.id, slug: res.body.slug }).toEqual({ id: recorded.id, slug: recorded.slug });
      else expect(res.body.slug).toMatch(/^[a-z0-9-]+$/);
    }
    const emoji = await get('/events/by-slug/%f0%9f%8e%b8%f0%9f%a5%81%f0%9f%8e%b9', false);
    expect(emoji.status).toBe(200);
    expect(emoji.body.id).toBe(56);
    expect(emoji.body).toEqual(
      fixture('event-by-slug-emoji-anon') && expect.objectContaining({ slug: '%f0%9f%8e%b8%f0%9f%a5%81%f0%9f%8e%b9' }),
    );
    const tag = await get('/tags/14', false);
    expect(tag.body).toEqual(expect.objectContaining({ name: '日本', slug: '%e6%97%a5%e6%9c%ac' }));
  });

  it('stores titles and names as plain text: entities decoded, tags removed', async () => {
    for (const recorded of recordedEvents) {
      const res = await get(`/events/${recorded.id}`);
      expect({ id: recorded.id, title: res.body.title }).toEqual({ id: recorded.id, title: plain(recorded.title) });
    }
    expect((await get('/events/16')).body.title).toBe('Jazz & Blues Night');
    expect((await get('/events/20')).body.title).toBe('O’Reilly’s St. Patrick’s Day Session');
    expect((await get('/events/21')).body.title).toBe('Learn Bold Lettering');
    expect((await get('/events/55')).body.title).toBe('Tom & Jerry Screening');
    expect((await get('/venues/4')).body.venue).toBe('O’Reilly’s Pub & Grill');
    expect((await get('/organizers/11')).body.organizer).toBe('The “Jazz Collective”');
    expect((await get('/categories/6')).body.name).toBe('Arts & “Crafts”');
  });

  it('keeps dates, zones, flags, costs, links and statuses of every event', async () => {
    const same = [
      'id',
      'author',
      'status',
      'date',
      'modified',
      'all_day',
      'start_date',
      'end_date',
      'utc_start_date',
      'utc_end_date',
      'timezone',
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'image',
    ];
    for (const recorded of recordedEvents) {
      const mine = (await get(`/events/${recorded.id}`)).body as Json;
      const pick = (event: Json) => ({
        ...Object.fromEntries(same.map((key) => [key, event[key]])),
        // the reference reports no UTC publication date for drafts; here it is the same instant
        date_utc: event.date_utc === '0000-00-00 00:00:00' ? event.date : event.date_utc,
        modified_utc: event.modified_utc === '0000-00-00 00:00:00' ? event.modified : event.modified_utc,
        // no website of its own: the event's own page, at the reference and here
        website: event.website === '' || event.website === event.url ? mine.url : event.website,
        venue: Array.isArray(event.venue) ? [] : event.venue.id,
        organizer: (event.organizer as Json[]).map((organizer) => organizer.id),
        categories: (event.categories as Json[]).map((term) => term.id).sort(),
        tags: (event.tags as Json[]).map((term) => term.id).sort(),
        // the same HTML; typographic entities are stored as the characters they stand for
        description: decodeHTML(event.description),
        cost: event.cost,
        cost_values: event.cost_details.values.map((value: string) => (value === 'free' ? '0' : value)),
        currency_symbol: event.cost_details.currency_symbol,
      });
      expect(pick(mine)).toEqual(pick(recorded));
    }
  });

  it('keeps venues, organizers and the category tree with their fields', async () => {
    for (const id of [4, 5, 6, 7, 8, 9, 10]) {
      const recorded = fixture(`venue-${id}-admin`);
      const mine = (await get(`/venues/${id}`)).body as Json;
      for (const key of [
        'address',
        'city',
        'country',
        'province',
        'state',
        'zip',
        'phone',
        'website',
        'stateprovince',
        'show_map',
        'show_map_link',
        'status',
        'slug',
        'description',
      ]) {
        expect({ id, key, value: mine[key] }).toEqual({ id, key, value: recorded[key] });
      }
    }
    for (const id of [11, 12, 13, 14, 15]) {
      const recorded = fixture(`organizer-${id}-admin`);
      const mine = (await get(`/organizers/${id}`)).body as Json;
      for (const key of ['email', 'phone', 'website', 'slug', 'status', 'description'])
        expect({ id, key, value: mine[key] }).toEqual({ id, key, value: recorded[key] });
    }
    const categories = fixture('categories-list-all-admin-p1').categories as Json[];
    for (const recorded of categories) {
      const mine = (await get(`/categories/${recorded.id}`)).body as Json;
      expect({ id: recorded.id, parent: mine.parent, slug: mine.slug, description: mine.description }).toEqual({
        id: recorded.id,
        parent: recorded.parent,
        slug: recorded.slug,
        description: decodeHTML(recorded.description),
      });
    }
  });

  it('leaves the trashed event out', async () => {
    expect((await get('/events/50')).status).toBe(404);
  });

  it('keeps the protected event protected, with the password the reference has', async () => {
    expect((await get('/events/49', false)).body.code).toBe('event-password-protected');
    const unlocked = await get('/events/49?password=peer-secret', false);
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.description).toBe('<p>Secret setlist inside.</p>');
    const hidden = await get('/events/51', false);
    expect(hidden.body.hide_from_listings).toBe(true);
  });

  it('imports the past event hidden from listings, which no list of the reference shows', async () => {
    const hidden = await get('/events/60', false);
    expect(hidden.status).toBe(200);
    expect(hidden.body).toEqual(
      expect.objectContaining({ title: 'Hidden Past Rehearsal', hide_from_listings: true, start_date: '2025-06-01 10:00:00' }),
    );
    // no list or wp/v2 answer named it: it was found by reading the ids no list accounted for
    expect(source.requests.some((request) => /\/tribe\/events\/v1\/events\/60$/.test(request.url))).toBe(true);
  });

  it('continues the id sequence above the reference ids', async () => {
    const created = await target
      .http()
      .post(`${API}/events`)
      .set('Authorization', basic(ADMIN))
      .send({ title: 'After the move', start_date: '2027-01-01 10:00', end_date: '2027-01-01 11:00' });
    expect(created.body.id).toBe(61);
  });

  describe('without credentials', () => {
    let anonymous: TestApp;
    let anonymousRun: Awaited<ReturnType<typeof importTec>>;

    let firstRequest = 0;

    beforeAll(async () => {
      anonymous = await startTestApp({ SITE_TIMEZONE: 'UTC' }, { database: 'anonymous' });
      firstRequest = source.requests.length;
      anonymousRun = await importTec(anonymous, ['--from', `${source.url}/wp-json/tribe/events/v1`]);
    }, 60_000);
    afterAll(() => anonymous.close());

    it('imports what a visitor reads: published records only, the protected one as a visitor sees it', async () => {
      expect({ code: anonymousRun.code, error: anonymousRun.error }).toEqual({ code: 0, error: null });
      const admin = (path: string) => anonymous.http().get(`${API}${path}`).set('Authorization', basic(ADMIN));
      expect((await admin('/events/45')).status).toBe(404);
      // the draft venue is embedded in full in a published event's answer, so it could be read
      expect((await admin('/venues/10')).body.status).toBe('draft');
      expect((await admin('/events/16')).body.title).toBe('Jazz & Blues Night');
      // hidden from every list but readable by anyone: the past one too
      expect((await admin('/events/60')).body.hide_from_listings).toBe(true);
      const locked = await admin('/events/49');
      expect(locked.body.description).toBe('');
      expect((await anonymous.http().get(`${API}/events/49`)).body.code).toBe('event-password-protected');
      expect(anonymousRun.lines.join('\n')).toMatch(/event 49 is password-protected at the source and these credentials do not unlock it/);
      expect(source.requests.slice(firstRequest).filter((request) => request.auth)).toEqual([]);
    });
  });

  describe("an anonymous re-run after the administrator's import", () => {
    const paths = () => [
      ...recordedEvents.map((event) => `/events/${event.id}`),
      ...[4, 5, 6, 7, 8, 9, 10].map((id) => `/venues/${id}`),
      ...[11, 12, 13, 14, 15].map((id) => `/organizers/${id}`),
      '/categories?hide_empty=0&per_page=50',
      '/tags?hide_empty=0&per_page=50',
    ];
    const snapshot = async () => Promise.all(paths().map(async (path) => ({ path, body: (await get(path)).body as Json })));
    let before: Array<{ path: string; body: Json }>;
    let rerun: Awaited<ReturnType<typeof importTec>>;

    beforeAll(async () => {
      before = await snapshot();
      rerun = await importTec(target, ['--from', source.url]);
    }, 60_000);

    it('changes nothing it cannot see: the protected event keeps its content, links and password', async () => {
      expect({ code: rerun.code, error: rerun.error }).toEqual({ code: 0, error: null });
      expect(await snapshot()).toEqual(before);
      const unlocked = await get('/events/49?password=peer-secret', false);
      expect(unlocked.body).toEqual(
        expect.objectContaining({ description: '<p>Secret setlist inside.</p>', cost: '$10', venue: expect.objectContaining({ id: 9 }) }),
      );
    });

    it('trashes nothing it cannot see: drafts, pending, private and scheduled events stay', async () => {
      for (const id of [45, 46, 47, 48]) expect({ id, status: (await get(`/events/${id}`)).status }).toEqual({ id, status: 200 });
      expect(summaryRow(rerun.lines, 'events')).toEqual([0, 0, 38, 0, 0, 0, 0]);
      expect(rerun.lines).toContain(
        '  5 record(s) imported by an earlier run with other credentials could not be read by this one: left as they are, not trashed',
      );
    });
  });

  describe('a record the source keeps failing to answer', () => {
    it('is named, and the run exits 1', async () => {
      const other = await startTestApp({ SITE_TIMEZONE: 'UTC' }, { database: 'failing' });
      const proxy = await faultyProxy(source.url, (req) =>
        /\/tribe\/events\/v1\/events\/60$/.test(req.url ?? '') ? { status: 500 } : null,
      );
      try {
        const run = await importTec(other, ['--from', proxy.url, '--retries', '1', '--retry-base', '10']);
        expect(run.code).toBe(1);
        expect(run.error).toBe('1 record(s) could not be read from the source (see "Could not be read" above)');
        const listed = run.lines.slice(run.lines.indexOf('Could not be read (run again to retry):') + 1);
        expect(listed[0]).toMatch(
          /^ {2}event 60: GET http:\/\/127\.0\.0\.1:\d+\/wp-json\/tribe\/events\/v1\/events\/60 answered 500 injected/,
        );
      } finally {
        await other.close();
        await proxy.close();
      }
    }, 60_000);
  });

  describe('records trashed or deleted for good at the source', () => {
    const CREDENTIALS = ['--user', 'admin', '--password', 'recorded-without-password'];
    /** Events of the recorded site linked to venue 5 (51 is hidden from listings). */
    const AT_VENUE_5 = [16, 28, 29, 30, 42, 45, 51, 59];
    let changing: FixtureSource;
    let here: TestApp;
    let rerun: Awaited<ReturnType<typeof importTec>>;
    const read = (app: TestApp, path: string) => app.http().get(`${API}${path}`).set('Authorization', basic(ADMIN));
    const aboutVenue5 = (lines: string[]) => lines.filter((line) => /\bvenue 5\b/.test(line));

    beforeAll(async () => {
      changing = await fixtureSource({ withWpV2: true });
      here = await startTestApp({ SITE_TIMEZONE: 'UTC' }, { database: 'changes' });
      expect((await importTec(here, ['--from', changing.url, ...CREDENTIALS])).code).toBe(0);
      changing.trash(56);
      changing.deleteForGood(55);
      changing.trash(5);
      rerun = await importTec(here, ['--from', changing.url, ...CREDENTIALS]);
    }, 90_000);
    afterAll(async () => {
      await here.close();
      await changing.close();
    });

    it('counts an event trashed there as trashed and one deleted for good as deleted; both stay in the trash here', async () => {
      expect({ code: rerun.code, error: rerun.error }).toEqual({ code: 0, error: null });
      // created, updated, unchanged, kept, trashed, deleted, skipped
      expect(summaryRow(rerun.lines, 'events')).toEqual([0, 0, 40, 0, 1, 1, 0]);
      expect(summaryRow(rerun.lines, 'venues')).toEqual([0, 0, 6, 0, 1, 0, 0]);
      for (const id of [55, 56])
        expect({ id, code: (await read(here, `/events/${id}`)).body.code }).toEqual({ id, code: 'event-no-longer-available' });
      expect((await read(here, '/venues/5')).body.status).toBe('trash');
    });

    it('keeps the events linked to a venue trashed there, as the source does, and says nothing per event', async () => {
      for (const id of AT_VENUE_5) expect({ id, venue: (await read(here, `/events/${id}`)).body.venue?.id }).toEqual({ id, venue: 5 });
      expect(aboutVenue5(rerun.lines)).toEqual([]);
    });

    it('links the events of a first import to a venue already in the trash there, with one note for all of them', async () => {
      const fresh = await startTestApp({ SITE_TIMEZONE: 'UTC' }, { database: 'fresh' });
      try {
        const run = await importTec(fresh, ['--from', changing.url, ...CREDENTIALS]);
        expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
        for (const id of AT_VENUE_5) expect({ id, venue: (await read(fresh, `/events/${id}`)).body.venue?.id }).toEqual({ id, venue: 5 });
        expect(aboutVenue5(run.lines)).toEqual([
          `  venue 5 is in the trash here, and still linked, as at the source, from 8 event(s) (${AT_VENUE_5.join(', ')})`,
        ]);
      } finally {
        await fresh.close();
      }
    }, 60_000);
  });
});
