import type { Response } from 'supertest';
import { eventLinks, seedEvent } from './support/seed-events.js';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

const admin = basic(ADMIN);
const HOST = 'calendar.test';
const V = `${API}/venues`;
const O = `${API}/organizers`;
const WALL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const FULL_KEYS = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'venue',
  'description',
  'excerpt',
  'slug',
  'image',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'website',
  'stateprovince',
  'geo_lat',
  'geo_lng',
  'show_map',
  'show_map_link',
  'global_id',
  'global_id_lineage',
];
const withJsonLd = (keys: string[]) => {
  const result = [...keys];
  result.splice(result.indexOf('show_map'), 0, 'json_ld');
  return result;
};

type Method = 'post' | 'put' | 'patch';

function expectInvalid(res: Response, params: string[]): void {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('rest_invalid_param');
  expect(res.body.data.status).toBe(400);
  expect(Object.keys(res.body.data.params)).toEqual(params);
}

function expectCode(res: Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.body.data.status).toBe(status);
}

/** Request helpers bound to one app; `auth` undefined means anonymous. */
function client(getApp: () => TestApp) {
  const withAuth = <T extends { set: (name: string, value: string) => T }>(req: T, auth?: string | null): T =>
    auth ? req.set('Authorization', auth) : req;
  return {
    create: (body: Record<string, unknown>, auth: string | null = admin) => withAuth(getApp().http().post(V), auth).send(body),
    read: (path: string | number, auth?: string | null) => withAuth(getApp().http().get(`${V}/${path}`), auth),
    update: (path: string | number, body: Record<string, unknown>, auth: string | null = admin, method: Method = 'patch') =>
      withAuth(getApp().http()[method](`${V}/${path}`), auth).send(body),
    trash: (path: string | number, auth: string | null = admin) => withAuth(getApp().http().delete(`${V}/${path}`), auth),
    list: (query = '', auth?: string | null) =>
      withAuth(
        getApp()
          .http()
          .get(`${V}${query ? `?${query}` : ''}`),
        auth,
      ),
  };
}

/** The ids of a list answer, failing with the answer itself when it is not a 200 list. */
function ids(res: Response): number[] {
  if (res.status !== 200 || !Array.isArray(res.body.venues))
    throw new Error(`expected a 200 list, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.venues.map((item: { id: number }) => item.id);
}

describe('venues', () => {
  let t: TestApp;
  let editor: Credentials;
  let author: Credentials;
  let author2: Credentials;
  let contributor: Credentials;
  let contributor2: Credentials;
  let subscriber: Credentials;
  const api = client(() => t);
  const { create, read, update, trash } = api;

  beforeAll(async () => {
    t = await startTestApp();
    editor = await t.user('editor');
    author = await t.user('author');
    author2 = await t.user('author');
    contributor = await t.user('contributor');
    contributor2 = await t.user('contributor');
    subscriber = await t.user('subscriber');
  });
  afterAll(() => t.close());

  describe('identity', () => {
    it('gives a venue then an organizer consecutive ids from the shared item sequence (§3.1)', async () => {
      const venue = await create({ venue: 'Sequence Venue' });
      const organizer = await t.http().post(O).set('Authorization', admin).send({ organizer: 'Sequence Organizer' });
      expect(venue.status).toBe(201);
      expect(organizer.status).toBe(201);
      expect(organizer.body.id).toBe(venue.body.id + 1);
    });

    it('answers 400 rest_invalid_param (id) for ids that are not venues, on GET, update and DELETE (§3.2)', async () => {
      const organizer = await t.http().post(O).set('Authorization', admin).send({ organizer: 'Wrong Kind Organizer' });
      const withImage = await create({ venue: 'Wrong Kind Image Holder', image: 'https://img.example/wrong-kind.png' });
      const imageId = withImage.body.image.id as number;
      const event = await seedEvent(t, {});
      // A category id that is not the id of any item (terms have their own sequence).
      let categoryId = 0;
      while (categoryId <= event.id) {
        const category = await t
          .http()
          .post(`${API}/categories`)
          .set('Authorization', admin)
          .send({ name: `Wrong kind ${categoryId}` });
        expect(category.status).toBe(201);
        categoryId = category.body.id;
      }
      for (const id of [organizer.body.id, imageId, event.id, categoryId, 0, 987654]) {
        expectInvalid(await read(id), ['id']);
        expectInvalid(await read(id, admin), ['id']);
        expectInvalid(await update(id, { city: 'Nowhere' }), ['id']);
        expectInvalid(await update(id, { city: 'Nowhere' }, admin, 'put'), ['id']);
        expectInvalid(await update(id, { city: 'Nowhere' }, admin, 'post'), ['id']);
        expectInvalid(await trash(id), ['id']);
      }
      expect((await read(`by-slug/${organizer.body.slug}`)).status).toBe(400);
      expectInvalid(await read(`by-slug/${organizer.body.slug}`), ['slug']);
      expectInvalid(await read('by-slug/no-such-venue'), ['slug']);
      expectInvalid(await update('by-slug/no-such-venue', { city: 'X' }), ['slug']);
      expectInvalid(await update('by-slug/no-such-venue', { city: 'X' }, admin, 'put'), ['slug']);
      expectInvalid(await update('by-slug/no-such-venue', { city: 'X' }, admin, 'post'), ['slug']);
      expectInvalid(await trash('by-slug/no-such-venue'), ['slug']);
      // the organizer and the image are untouched
      expect((await t.http().get(`${O}/${organizer.body.id}`)).body.status).toBe('publish');
    });
  });

  describe('payload shape (§8.3)', () => {
    it('creates with 201, Location and every field in the documented order', async () => {
      const res = await create(
        {
          venue: 'Old Harbour Hall',
          description: 'By the sea.',
          excerpt: 'Short.',
          address: '12 Quay Road',
          city: 'Port Halden',
          country: 'United States',
          province: 'Ontario',
          state: 'WI',
          zip: '54301',
          phone: '+1 920 555 0134',
          website: 'https://pier.example.net',
          geo_lat: 44.5192,
          geo_lng: -88.0198,
          show_map: false,
          show_map_link: 'no',
          image: 'https://img.example/pictures/Hall.JPG',
        },
        basic(editor),
      );
      expect(res.status).toBe(201);
      const id = res.body.id;
      expect(res.headers.location).toBe(`${PUBLIC_URL}${API}/venues/${id}`);
      expect(Object.keys(res.body)).toEqual(FULL_KEYS);
      expect(res.body).toEqual({
        id,
        author: String(editor.id),
        status: 'publish',
        date: expect.stringMatching(WALL),
        date_utc: res.body.date,
        modified: expect.stringMatching(WALL),
        modified_utc: res.body.modified,
        url: `${PUBLIC_URL}/venue/old-harbour-hall/`,
        venue: 'Old Harbour Hall',
        description: '<p>By the sea.</p>',
        excerpt: '<p>Short.</p>',
        slug: 'old-harbour-hall',
        image: { url: 'https://img.example/pictures/Hall.JPG', id: expect.any(Number), extension: 'jpg' },
        address: '12 Quay Road',
        city: 'Port Halden',
        country: 'United States',
        province: 'Ontario',
        state: 'WI',
        zip: '54301',
        phone: '+1 920 555 0134',
        website: 'https://pier.example.net',
        stateprovince: 'WI',
        geo_lat: 44.5192,
        geo_lng: -88.0198,
        show_map: false,
        show_map_link: false,
        global_id: `${HOST}?id=${id}`,
        global_id_lineage: [`${HOST}?id=${id}`],
      });
      expect(res.body.image.id).not.toBe(id);
      const single = await read(id);
      expect(single.status).toBe(200);
      expect(Object.keys(single.body)).toEqual(withJsonLd(FULL_KEYS));
      const { json_ld: _ignored, ...rest } = single.body;
      expect(rest).toEqual(res.body);
    });

    it('omits empty fields, has no image key without an image, defaults show_map flags to true and never sends rest_url', async () => {
      const res = await create({ venue: 'Bare Hall' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'venue',
        'slug',
        'show_map',
        'show_map_link',
        'global_id',
        'global_id_lineage',
      ]);
      expect(res.body).toMatchObject({ author: '1', status: 'publish', show_map: true, show_map_link: true });
      expect(typeof res.body.author).toBe('string');
      const single = await read(res.body.id);
      expect(Object.keys(single.body)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'venue',
        'slug',
        'json_ld',
        'show_map',
        'show_map_link',
        'global_id',
        'global_id_lineage',
      ]);
    });

    it('uses the url form that matches the status (§8.1)', async () => {
      const draft = await create({ venue: 'Url Draft Hall', status: 'draft' });
      expect(draft.body.url).toBe(`${PUBLIC_URL}/?post_type=tribe_venue&p=${draft.body.id}`);
      const pending = await create({ venue: 'Url Pending Hall', status: 'pending' });
      expect(pending.body.url).toBe(`${PUBLIC_URL}/?post_type=tribe_venue&p=${pending.body.id}`);
      const future = await create({ venue: 'Url Future Hall', status: 'future', date: '2099-01-01 10:00:00' });
      expect(future.body.url).toBe(`${PUBLIC_URL}/?post_type=tribe_venue&p=${future.body.id}`);
      const priv = await create({ venue: 'Url Private Hall', status: 'private' });
      expect(priv.body.url).toBe(`${PUBLIC_URL}/venue/url-private-hall/`);
      const published = await update(draft.body.id, { status: 'publish' });
      expect(published.body.url).toBe(`${PUBLIC_URL}/venue/url-draft-hall/`);
    });

    it('derives stateprovince from state or province unless one is stored', async () => {
      const noCountry = await create({ venue: 'Derive A', state: 'WI', province: 'Ontario' });
      expect(noCountry.body.stateprovince).toBe('WI');
      for (const country of ['US', 'usa', 'United States', 'UNITED STATES OF AMERICA']) {
        const us = await create({ venue: `Derive ${country}`, country, state: 'OR', province: 'Ignored' });
        expect(us.body.stateprovince).toBe('OR');
      }
      const canada = await create({ venue: 'Derive Canada', country: 'Canada', state: 'XX', province: 'Ontario' });
      expect(canada.body.stateprovince).toBe('Ontario');
      const stored = await create({
        venue: 'Derive Stored',
        country: 'Canada',
        state: 'XX',
        province: 'Ontario',
        stateprovince: 'Custom Region',
      });
      expect(stored.body.stateprovince).toBe('Custom Region');
      const none = await create({ venue: 'Derive None', country: 'Canada', state: 'XX' });
      expect(none.body).not.toHaveProperty('stateprovince');
      expect(none.body.state).toBe('XX');
      // clearing the stored value brings the derivation back
      const cleared = await update(stored.body.id, { stateprovince: '' });
      expect(cleared.body.stateprovince).toBe('Ontario');
    });

    it('returns geo_lat/geo_lng only when both are stored and not both 0', async () => {
      const geo = await create({ venue: 'Geo Both', geo_lat: '51.5', geo_lng: -0.125 });
      expect(geo.status).toBe(201);
      expect(geo.body).toMatchObject({ geo_lat: 51.5, geo_lng: -0.125 });
      const zero = await create({ venue: 'Geo Zero', geo_lat: 0, geo_lng: 0 });
      expect(zero.body).not.toHaveProperty('geo_lat');
      expect(zero.body).not.toHaveProperty('geo_lng');
      expectInvalid(await create({ venue: 'Geo Lat Only', geo_lat: 10 }), ['geo_lng']);
      expectInvalid(await create({ venue: 'Geo Lng Only', geo_lng: 10 }), ['geo_lat']);
      expectInvalid(await create({ venue: 'Geo Out Of Range', geo_lat: 91, geo_lng: 0 }), ['geo_lat']);
      expectInvalid(await create({ venue: 'Geo Not A Number', geo_lat: 'north', geo_lng: 0 }), ['geo_lat']);
      // removing one of two stored coordinates leaves one alone
      expect((await update(geo.body.id, { geo_lng: '' })).status).toBe(400);
      const removed = await update(geo.body.id, { geo_lat: '', geo_lng: null });
      expect(removed.status).toBe(200);
      expect(removed.body).not.toHaveProperty('geo_lat');
      expect(removed.body).not.toHaveProperty('geo_lng');
    });

    it('adds the schema.org Place to single reads only (§8.10)', async () => {
      const created = await create({
        venue: 'Pier & "Pavilion"',
        excerpt: 'Short <em>intro</em>',
        description: 'Long text',
        address: '12 Quay Road',
        city: 'Port Halden',
        state: 'WI',
        zip: '54301',
        country: 'United States',
        phone: '+1 920 555 0134',
        website: 'https://pier.example.net',
        geo_lat: 44.5,
        geo_lng: -88.25,
        image: 'https://img.example/pier.png',
      });
      expect(created.status).toBe(201);
      expect(created.body).not.toHaveProperty('json_ld');
      const expected = {
        '@type': 'Place',
        name: 'Pier &amp; &quot;Pavilion&quot;',
        description: '&lt;p&gt;Short &lt;em&gt;intro&lt;/em&gt;&lt;/p&gt;\\n',
        image: 'https://img.example/pier.png',
        url: '',
        address: {
          '@type': 'PostalAddress',
          streetAddress: '12 Quay Road',
          addressLocality: 'Port Halden',
          addressRegion: 'WI',
          postalCode: '54301',
          addressCountry: 'United States',
        },
        geo: { '@type': 'GeoCoordinates', latitude: 44.5, longitude: -88.25 },
        telephone: '+1 920 555 0134',
        sameAs: 'https://pier.example.net',
      };
      const byId = await read(created.body.id);
      expect(byId.body.json_ld).toEqual(expected);
      expect(Object.keys(byId.body.json_ld)).toEqual(Object.keys(expected));
      expect(Object.keys(byId.body.json_ld.address)).toEqual(Object.keys(expected.address));
      const bySlug = await read(`by-slug/${created.body.slug}`);
      expect(bySlug.status).toBe(200);
      expect(bySlug.body.json_ld).toEqual(expected);
      const updated = await update(created.body.id, { phone: '+1 920 555 0135' });
      expect(updated.body).not.toHaveProperty('json_ld');
      const listed = await api.list('status=any&per_page=50', admin);
      const inList = listed.body.venues.find((venue: { id: number }) => venue.id === created.body.id);
      expect(inList).toBeDefined();
      expect(inList).not.toHaveProperty('json_ld');

      // the description is used when there is no excerpt; empty parts are left out of the address
      const plain = await create({ venue: 'Plain Place', description: 'Line one\nLine two', city: 'Lyon' });
      const plainLd = (await read(plain.body.id)).body.json_ld;
      expect(plainLd).toEqual({
        '@type': 'Place',
        name: 'Plain Place',
        description: '&lt;p&gt;Line one&lt;br /&gt;\\nLine two&lt;/p&gt;\\n',
        url: '',
        address: { '@type': 'PostalAddress', addressLocality: 'Lyon' },
        telephone: '',
        sameAs: '',
      });
      const empty = await create({ venue: 'Empty Place' });
      expect((await read(empty.body.id)).body.json_ld).toEqual({
        '@type': 'Place',
        name: 'Empty Place',
        description: '',
        url: '',
        address: { '@type': 'PostalAddress' },
        telephone: '',
        sameAs: '',
      });
    });

    it('registers images from URLs, reuses a registered URL, accepts image ids and removes with ""', async () => {
      const url = 'https://img.example/a/photo.JPEG?size=large';
      const first = await create({ venue: 'Image One', image: url });
      expect(first.body.image).toEqual({ url, id: expect.any(Number), extension: 'jpeg' });
      const second = await create({ venue: 'Image Two', image: url });
      expect(second.body.image.id).toBe(first.body.image.id);
      const byId = await create({ venue: 'Image Three', image: String(first.body.image.id) });
      expect(byId.body.image).toEqual(first.body.image);
      const removed = await update(first.body.id, { image: '' });
      expect(removed.status).toBe(200);
      expect(removed.body).not.toHaveProperty('image');
      // a contributor may use a registered URL but not register a new one
      const reuse = await create({ venue: 'Image Contributor', image: url }, basic(contributor));
      expect(reuse.status).toBe(201);
      expect(reuse.body.image.id).toBe(first.body.image.id);
      expectInvalid(await create({ venue: 'Image Contributor New', image: 'https://img.example/new-one.png' }, basic(contributor)), [
        'image',
      ]);
      // ids that are not images
      expectInvalid(await create({ venue: 'Image Venue Id', image: first.body.id }), ['image']);
      expectInvalid(await create({ venue: 'Image Unknown Id', image: 987654 }), ['image']);
    });
  });

  describe('validation (§11.7)', () => {
    it('requires the name', async () => {
      const res = await create({ city: 'Nameless' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'rest_missing_callback_param',
        message: expect.any(String),
        data: { status: 400, params: ['venue'] },
      });
    });

    it('refuses each invalid field with rest_invalid_param naming it', async () => {
      expectInvalid(await create({ venue: 'Bad Status', status: 'kinda_thinking_about_it' }), ['status']);
      expectInvalid(await create({ venue: 'Trash Status', status: 'trash' }), ['status']);
      expectInvalid(await create({ venue: 'Bad Author', author: 23 }), ['author']);
      expectInvalid(await create({ venue: 'Bad Author Word', author: 'foo' }), ['author']);
      expectInvalid(await create({ venue: 'Bad Author Empty', author: '' }), ['author']);
      expectInvalid(await create({ venue: 'Bad Date', date: 'before my birthday' }), ['date']);
      expectInvalid(await create({ venue: 'Bad Date Utc', date_utc: '2027-02-30 10:00:00' }), ['date_utc']);
      expectInvalid(await create({ venue: 'Bad Website', website: 'not a url' }), ['website']);
      expectInvalid(await create({ venue: 'Bad Website Ftp', website: 'ftp://files.example' }), ['website']);
      expectInvalid(await create({ venue: 'Bad Image', image: 'foo bar' }), ['image']);
      expectInvalid(await create({ venue: 'Bad Image Page', image: 'https://img.example/page.html' }), ['image']);
      expectInvalid(await create({ venue: 'Bad Image Ftp', image: 'ftp://img.example/a.png' }), ['image']);
      expectInvalid(await create({ venue: 'Bad Show Map', show_map: 'perhaps' }), ['show_map']);
      expectInvalid(await create({ venue: 'Bad Show Map Link', show_map_link: 'sometimes' }), ['show_map_link']);
      expectInvalid(await create({ venue: 'Bad Slug', slug: '' }), ['slug']);
      expectInvalid(await create({ venue: 'Long City', city: 'c'.repeat(256) }), ['city']);
    });

    it('refuses an empty or null name on update (§7.4)', async () => {
      const { body } = await create({ venue: 'Null Name Hall' });
      expectInvalid(await update(body.id, { venue: '' }), ['venue']);
      expectInvalid(await update(body.id, { venue: null }), ['venue']);
      expect((await read(body.id)).body.venue).toBe('Null Name Hall');
    });

    it('applies the name rules on create: not empty, not null, at most 1000 characters (§7.4, §7.6, §11.7)', async () => {
      const before = (await api.list('status=any,trash', admin)).body.total;
      for (const venue of ['', '   ', null]) {
        const res = await create({ venue, city: 'Emptyname City' });
        expect({ venue, status: res.status, code: res.body.code, params: Object.keys(res.body.data?.params ?? {}) }).toEqual({
          venue,
          status: 400,
          code: 'rest_invalid_param',
          params: ['venue'],
        });
      }
      const form = await t.http().post(V).set('Authorization', admin).type('form').send('venue=&city=Emptyname+City');
      expectInvalid(form, ['venue']);
      expect((await api.list('status=any,trash', admin)).body.total).toBe(before);
      expectInvalid(await create({ venue: 'x'.repeat(1001) }), ['venue']);
      expect((await create({ venue: 'y'.repeat(1000) })).status).toBe(201);
    });

    it('reports all invalid fields at once in parameter-table order and writes nothing', async () => {
      const res = await create({
        venue: 'Never Stored Venue',
        image: 'foo bar',
        website: 'nope',
        show_map: 'perhaps',
        date: 'before my birthday',
        author: 'foo',
        status: 'kinda_thinking_about_it',
      });
      expectInvalid(res, ['status', 'author', 'date', 'show_map', 'website', 'image']);
      expect(res.body.message).toEqual(expect.any(String));
      expectInvalid(await read('by-slug/never-stored-venue', admin), ['slug']);
    });

    it('accepts truthy and falsy words for show_map and show_map_link', async () => {
      const created = await create({ venue: 'Map Words', show_map: 'Off', show_map_link: 'DISABLED' });
      expect(created.body).toMatchObject({ show_map: false, show_map_link: false });
      const on = await update(created.body.id, { show_map: 'yes', show_map_link: 'enable' });
      expect(on.body).toMatchObject({ show_map: true, show_map_link: true });
      const bools = await update(created.body.id, { show_map: false });
      expect(bools.body).toMatchObject({ show_map: false, show_map_link: true });
      const numbers = await update(created.body.id, { show_map: 1, show_map_link: 0 });
      expect(numbers.body).toMatchObject({ show_map: true, show_map_link: false });
      expectInvalid(await update(created.body.id, { show_map: 'maybe' }), ['show_map']);
    });

    it('applies the same checks on update', async () => {
      const { body } = await create({ venue: 'Update Checks Hall' });
      expectInvalid(await update(body.id, { venue: '' }), ['venue']);
      expectInvalid(await update(body.id, { status: 'kinda_thinking_about_it' }), ['status']);
      expectInvalid(await update(body.id, { status: 'trash' }), ['status']);
      expectInvalid(await update(body.id, { author: 23 }), ['author']);
      expectInvalid(await update(body.id, { website: 'www.example.com' }), ['website']);
      expectInvalid(await update(body.id, { image: 'foo bar' }), ['image']);
      expectInvalid(await update(body.id, { slug: '' }), ['slug']);
      expectInvalid(await update(body.id, { date: 'yesterday-ish' }), ['date']);
      const unchanged = await read(body.id);
      expect(unchanged.body.venue).toBe('Update Checks Hall');
      expect(unchanged.body.status).toBe('publish');
    });
  });

  describe('statuses (§5.2)', () => {
    const cases: Array<[string | undefined, string, string]> = [
      [undefined, 'publish', 'draft'],
      ['publish', 'publish', 'pending'],
      ['future', 'publish', 'pending'],
      ['private', 'private', 'pending'],
      ['draft', 'draft', 'draft'],
      ['pending', 'pending', 'pending'],
    ];

    it.each(cases)(
      'status %s on create → %s for publishers, %s for contributors',
      async (requested, publisherStatus, contributorStatus) => {
        const body = (label: string) => ({ venue: `Status ${requested ?? 'none'} ${label}`, ...(requested ? { status: requested } : {}) });
        for (const [label, auth] of [
          ['admin', admin],
          ['editor', basic(editor)],
          ['author', basic(author)],
        ] as const) {
          const res = await create(body(label), auth);
          expect(res.status).toBe(201);
          expect(res.body.status).toBe(publisherStatus);
        }
        const res = await create(body('contributor'), basic(contributor));
        expect(res.status).toBe(201);
        expect(res.body.status).toBe(contributorStatus);
        expect(res.body.author).toBe(String(contributor.id));
      },
    );

    it('uses the publication date: publish in the future → future, future in the past → publish', async () => {
      const scheduled = await create({ venue: 'Scheduled Hall', status: 'publish', date: '2099-01-01 10:00:00' }, basic(author));
      expect(scheduled.body).toMatchObject({ status: 'future', date: '2099-01-01 10:00:00', date_utc: '2099-01-01 10:00:00' });
      const future = await create({ venue: 'Future Hall', status: 'future', date_utc: '2098-05-06 07:08:09' });
      expect(future.body).toMatchObject({ status: 'future', date: '2098-05-06 07:08:09' });
      const pastFuture = await create({ venue: 'Past Future Hall', status: 'future', date: '2001-02-03 04:05:06' });
      expect(pastFuture.body).toMatchObject({ status: 'publish', date: '2001-02-03 04:05:06', date_utc: '2001-02-03 04:05:06' });
      const contributorFuture = await create(
        { venue: 'Contributor Future Hall', status: 'publish', date: '2099-01-01 10:00:00' },
        basic(contributor),
      );
      expect(contributorFuture.body.status).toBe('pending');
      // date_utc wins over date
      const both = await create({ venue: 'Both Dates Hall', date: '2010-01-01 00:00:00', date_utc: '2011-01-01 00:00:00' });
      expect(both.body).toMatchObject({ date: '2011-01-01 00:00:00', date_utc: '2011-01-01 00:00:00' });
      const upper = await create({ venue: 'Upper Status Hall', status: 'DRAFT' });
      expect(upper.body.status).toBe('draft');
    });

    it('publishes a scheduled venue once its publication date has passed (§5.3)', async () => {
      const soon = new Date(Date.now() + 2000).toISOString().slice(0, 19).replace('T', ' ');
      const scheduled = await create({ venue: 'Soon Published Hall', date: soon });
      expect(scheduled.body.status).toBe('future');
      expectCode(await read(scheduled.body.id), 403, 'venue-not-accessible');
      await new Promise((resolve) => setTimeout(resolve, 3200));
      const later = await read(scheduled.body.id);
      expect(later.status).toBe(200);
      expect(later.body).toMatchObject({ status: 'publish', url: `${PUBLIC_URL}/venue/soon-published-hall/`, date: soon });
      expect((await api.list('status=future&per_page=50', admin)).body.venues.map((v: { id: number }) => v.id)).not.toContain(
        scheduled.body.id,
      );
    });

    it('keeps the status on updates that do not send one', async () => {
      const draft = await create({ venue: 'Keep Draft Hall', status: 'draft' }, basic(author));
      const renamed = await update(draft.body.id, { city: 'Still Draft' }, basic(author));
      expect(renamed.status).toBe(200);
      expect(renamed.body.status).toBe('draft');
      const pending = await create({ venue: 'Keep Pending Hall', status: 'pending' }, basic(contributor));
      const edited = await update(pending.body.id, { city: 'Reviewed' }, basic(editor));
      expect(edited.body.status).toBe('pending');
      const priv = await create({ venue: 'Keep Private Hall', status: 'private' });
      expect((await update(priv.body.id, { zip: '1000' })).body.status).toBe('private');
      const published = await update(draft.body.id, { status: 'publish' }, basic(author));
      expect(published.body.status).toBe('publish');
      // a contributor's request to publish their draft becomes pending
      const contributorDraft = await create({ venue: 'Contributor Draft Hall' }, basic(contributor));
      expect(contributorDraft.body.status).toBe('draft');
      const submitted = await update(contributorDraft.body.id, { status: 'publish' }, basic(contributor));
      expect(submitted.status).toBe(200);
      expect(submitted.body.status).toBe('pending');
    });

    it('sets the author from the request or from `author`', async () => {
      const own = await create({ venue: 'Authored Hall' }, basic(author));
      expect(own.body.author).toBe(String(author.id));
      const assigned = await create({ venue: 'Assigned Hall', author: String(author2.id) });
      expect(assigned.body.author).toBe(String(author2.id));
      const reassigned = await update(assigned.body.id, { author: author.id });
      expect(reassigned.body.author).toBe(String(author.id));
    });
  });

  describe('reading single venues (§5.4, §10.2)', () => {
    it('hides drafts from anonymous users and subscribers, shows them to their author and to editors', async () => {
      const draft = await create({ venue: 'Read Draft Hall', status: 'draft' }, basic(author));
      const { id, slug } = draft.body;
      for (const path of [id, `by-slug/${slug}`]) {
        const anonymous = await read(path);
        expectCode(anonymous, 403, 'venue-not-accessible');
        expectCode(await read(path, basic(subscriber)), 403, 'venue-not-accessible');
        expectCode(await read(path, basic(author2)), 403, 'venue-not-accessible');
        expectCode(await read(path, basic(contributor)), 403, 'venue-not-accessible');
        const own = await read(path, basic(author));
        expect(own.status).toBe(200);
        expect(own.body.status).toBe('draft');
        expect(own.body.json_ld).toBeDefined();
        expect((await read(path, basic(editor))).status).toBe(200);
        expect((await read(path, admin)).status).toBe(200);
      }
    });

    it("lets contributors read their own drafts and pending venues but not their scheduled or others' ones", async () => {
      const draft = await create({ venue: 'Contributor Read Draft' }, basic(contributor));
      const pending = await create({ venue: 'Contributor Read Pending', status: 'pending' }, basic(contributor));
      expect((await read(draft.body.id, basic(contributor))).status).toBe(200);
      expect((await read(pending.body.id, basic(contributor))).status).toBe(200);
      expectCode(await read(pending.body.id, basic(contributor2)), 403, 'venue-not-accessible');
      expectCode(await read(pending.body.id, basic(author)), 403, 'venue-not-accessible');
      expect((await read(pending.body.id, basic(editor))).status).toBe(200);
      const scheduled = await create({
        venue: 'Contributor Scheduled',
        status: 'future',
        date: '2099-02-02 02:02:02',
        author: contributor.id,
      });
      expect(scheduled.body.status).toBe('future');
      expectCode(await read(scheduled.body.id, basic(contributor)), 403, 'venue-not-accessible');
      expectCode(await read(scheduled.body.id), 403, 'venue-not-accessible');
      expect((await read(scheduled.body.id, basic(editor))).status).toBe(200);
      const ownScheduled = await create({ venue: 'Author Scheduled', status: 'future', date: '2099-02-02 02:02:02' }, basic(author));
      expect((await read(ownScheduled.body.id, basic(author))).status).toBe(200);
      expectCode(await read(ownScheduled.body.id, basic(author2)), 403, 'venue-not-accessible');
    });

    it('shows private venues only to their author and editor-level users', async () => {
      const priv = await create({ venue: 'Read Private Hall', status: 'private' }, basic(author));
      expect(priv.body.status).toBe('private');
      expect((await read(priv.body.id, basic(author))).status).toBe(200);
      expect((await read(priv.body.id, basic(editor))).status).toBe(200);
      expectCode(await read(priv.body.id), 403, 'venue-not-accessible');
      expectCode(await read(priv.body.id, basic(author2)), 403, 'venue-not-accessible');
      expectCode(await read(priv.body.id, basic(subscriber)), 403, 'venue-not-accessible');
      const contributorPrivate = await create({ venue: 'Contributor Private Hall', status: 'private', author: contributor.id });
      expect((await read(contributorPrivate.body.id, basic(contributor))).status).toBe(200);
    });

    it('serves published venues to everyone, by id (leading zeros allowed) and by slug (case-insensitive)', async () => {
      const { body } = await create({ venue: 'Public Read Hall' });
      const anonymous = await read(body.id);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body.id).toBe(body.id);
      expect((await read(`00${body.id}`)).body.id).toBe(body.id);
      expect((await read(`by-slug/${body.slug}`)).body.id).toBe(body.id);
      expect((await read('by-slug/PUBLIC-READ-HALL')).body.id).toBe(body.id);
      expect((await read('by-slug/public%2Dread%2Dhall')).body.id).toBe(body.id);
      expect((await read(body.id, basic(subscriber))).status).toBe(200);
    });
  });

  describe('updates (§11.7)', () => {
    it('updates through POST, PUT and PATCH, by id and by slug, changing only the fields sent', async () => {
      const created = await create({ venue: 'Method Hall', city: 'Alpha', phone: '123', show_map: false, description: 'Kept.' });
      const { id, slug } = created.body;
      for (const method of ['post', 'put', 'patch'] as const) {
        const res = await update(id, { city: `City ${method}` }, admin, method);
        expect(res.status).toBe(200);
        expect(res.body).not.toHaveProperty('json_ld');
        expect(res.body).toMatchObject({
          id,
          venue: 'Method Hall',
          city: `City ${method}`,
          phone: '123',
          show_map: false,
          show_map_link: true,
          description: '<p>Kept.</p>',
          slug,
        });
      }
      for (const method of ['post', 'put', 'patch'] as const) {
        const res = await update(`by-slug/${slug}`, { zip: `zip-${method}` }, admin, method);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ id, city: 'City patch', zip: `zip-${method}`, show_map: false });
      }
      const read1 = await read(id);
      expect(read1.body).toMatchObject({ city: 'City patch', zip: 'zip-patch', phone: '123' });
      expect(read1.body.modified_utc >= created.body.modified_utc).toBe(true);
    });

    it('clears optional text with "" so the key disappears, and renames without changing the slug', async () => {
      const created = await create({
        venue: 'Clearing Hall',
        address: '1 Road',
        phone: '999',
        website: 'https://clear.example',
        description: 'Desc',
        excerpt: 'Exc',
      });
      const cleared = await update(created.body.id, { address: '', phone: null, website: '', description: '', excerpt: '' });
      expect(cleared.status).toBe(200);
      for (const key of ['address', 'phone', 'website', 'description', 'excerpt']) expect(cleared.body).not.toHaveProperty(key);
      const renamed = await update(created.body.id, { venue: 'Clearing Hall Renamed' });
      expect(renamed.body).toMatchObject({ venue: 'Clearing Hall Renamed', slug: 'clearing-hall' });
    });

    it('lets the path id win over a body or query id (§7.1)', async () => {
      const a = await create({ venue: 'Path Wins A' });
      const b = await create({ venue: 'Path Wins B' });
      const res = await t
        .http()
        .patch(`${V}/${a.body.id}?id=${b.body.id}`)
        .set('Authorization', admin)
        .send({ id: b.body.id, city: 'Only A' });
      expect(res.body.id).toBe(a.body.id);
      expect(res.body.city).toBe('Only A');
      expect((await read(b.body.id)).body).not.toHaveProperty('city');
    });
  });

  describe('permissions (§4.5, §4.6)', () => {
    it('refuses anonymous creates with 401 and subscribers with 403', async () => {
      const anonymous = await create({ venue: 'Anonymous Hall' }, null);
      expectCode(anonymous, 401, 'rest_forbidden');
      expectCode(await create({ venue: 'Subscriber Hall' }, basic(subscriber)), 403, 'rest_forbidden');
      expectInvalid(await read('by-slug/anonymous-hall', admin), ['slug']);
      expectInvalid(await read('by-slug/subscriber-hall', admin), ['slug']);
    });

    it('lets contributors edit and trash only their own unpublished (and private) venues', async () => {
      const c = basic(contributor);
      const draft = await create({ venue: 'Contrib Own Draft' }, c);
      expect((await update(draft.body.id, { city: 'Mine' }, c)).status).toBe(200);
      const pending = await create({ venue: 'Contrib Own Pending', status: 'pending' }, c);
      expect((await update(pending.body.id, { city: 'Mine' }, c, 'put')).status).toBe(200);
      const ownPublished = await create({ venue: 'Contrib Own Published', author: contributor.id });
      expect(ownPublished.body.status).toBe('publish');
      expectCode(await update(ownPublished.body.id, { city: 'No' }, c), 403, 'rest_forbidden');
      expectCode(await trash(ownPublished.body.id, c), 403, 'rest_forbidden');
      const ownFuture = await create({
        venue: 'Contrib Own Future',
        author: contributor.id,
        status: 'future',
        date: '2099-01-01 00:00:00',
      });
      expectCode(await update(ownFuture.body.id, { city: 'No' }, c), 403, 'rest_forbidden');
      const ownPrivate = await create({ venue: 'Contrib Own Private', author: contributor.id, status: 'private' });
      expect((await update(ownPrivate.body.id, { city: 'Yes' }, c)).status).toBe(200);
      const othersDraft = await create({ venue: 'Others Draft For Contrib' }, basic(contributor2));
      expectCode(await update(othersDraft.body.id, { city: 'No' }, c), 403, 'rest_forbidden');
      expectCode(await trash(othersDraft.body.id, c), 403, 'rest_forbidden');
      const adminVenue = await create({ venue: 'Admin Venue For Contrib' });
      expectCode(await update(adminVenue.body.id, { city: 'No' }, c), 403, 'rest_forbidden');
      const trashed = await trash(draft.body.id, c);
      expect(trashed.status).toBe(200);
      expect(trashed.body.status).toBe('trash');
      expect((await read(adminVenue.body.id)).body).not.toHaveProperty('city');
    });

    it('lets authors edit and trash only their own venues, in any status', async () => {
      const a = basic(author);
      const own = await create({ venue: 'Author Own Published' }, a);
      expect((await update(own.body.id, { city: 'Mine' }, a)).status).toBe(200);
      const others = await create({ venue: 'Editor Venue For Author' }, basic(editor));
      expectCode(await update(others.body.id, { city: 'No' }, a), 403, 'rest_forbidden');
      expectCode(await trash(others.body.id, a), 403, 'rest_forbidden');
      const trashed = await trash(own.body.id, a);
      expect(trashed.status).toBe(200);
    });

    it('lets editors and administrators edit and trash every venue', async () => {
      const byAuthor = await create({ venue: 'Author Venue For Editor', status: 'draft' }, basic(author));
      expect((await update(byAuthor.body.id, { city: 'Edited' }, basic(editor))).body.city).toBe('Edited');
      const byContributor = await create({ venue: 'Contributor Venue For Admin' }, basic(contributor));
      expect((await update(byContributor.body.id, { city: 'Edited' })).status).toBe(200);
      expect((await trash(byAuthor.body.id, basic(editor))).status).toBe(200);
      expect((await trash(byContributor.body.id)).status).toBe(200);
    });

    it('refuses anonymous and subscriber updates and deletes of existing venues', async () => {
      const { body } = await create({ venue: 'Guarded Hall' });
      expectCode(await update(body.id, { city: 'X' }, null), 401, 'rest_forbidden');
      expectCode(await trash(body.id, null), 401, 'rest_forbidden');
      expectCode(await update(body.id, { city: 'X' }, basic(subscriber)), 403, 'rest_forbidden');
      expectCode(await trash(body.id, basic(subscriber)), 403, 'rest_forbidden');
      expect((await read(body.id)).body.status).toBe('publish');
    });

    it('applies the same per-item checks on the by-slug routes', async () => {
      const adminVenue = await create({ venue: 'Slug Guarded Admin' });
      const editorVenue = await create({ venue: 'Slug Guarded Editor' }, basic(editor));
      const contributorDraft = await create({ venue: 'Slug Contributor Draft' }, basic(contributor));
      const authorVenue = await create({ venue: 'Slug Author Own' }, basic(author));
      for (const method of ['post', 'put', 'patch'] as const) {
        expectCode(
          await update(`by-slug/${adminVenue.body.slug}`, { city: 'Hijacked' }, basic(contributor), method),
          403,
          'rest_forbidden',
        );
        expectCode(await update(`by-slug/${editorVenue.body.slug}`, { city: 'Hijacked' }, basic(author), method), 403, 'rest_forbidden');
      }
      expectCode(await trash(`by-slug/${editorVenue.body.slug}`, basic(author)), 403, 'rest_forbidden');
      expectCode(await trash(`by-slug/${adminVenue.body.slug}`, basic(contributor)), 403, 'rest_forbidden');
      expectCode(await update(`by-slug/${adminVenue.body.slug}`, { city: 'Hijacked' }, null), 401, 'rest_forbidden');
      expect((await read(adminVenue.body.id)).body).not.toHaveProperty('city');
      expect((await read(editorVenue.body.id)).body).not.toHaveProperty('city');
      expect((await update(`by-slug/${contributorDraft.body.slug}`, { city: 'Mine' }, basic(contributor), 'put')).status).toBe(200);
      expect((await update(`by-slug/${authorVenue.body.slug}`, { city: 'Mine' }, basic(author))).status).toBe(200);
      const trashed = await trash(`by-slug/${authorVenue.body.slug}`, basic(author));
      expect(trashed.status).toBe(200);
      expect(trashed.body).toMatchObject({ id: authorVenue.body.id, status: 'trash', slug: 'slug-author-own__trashed' });
    });

    it('checks existence and validation before permission (§4.6)', async () => {
      expectInvalid(await trash(987654, null), ['id']);
      expectInvalid(await update(987654, { city: 'X' }, null), ['id']);
      expectInvalid(await trash('by-slug/no-such-slug-here', basic(subscriber)), ['slug']);
      const missing = await create({}, null);
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe('rest_missing_callback_param');
      expectInvalid(await create({ venue: 'Anonymous Invalid', status: 'nope' }, null), ['status']);
      const { body } = await create({ venue: 'Validated First' });
      expectInvalid(await update(body.id, { status: 'nope' }, null), ['status']);
      expectInvalid(await update(body.id, { website: 'nope' }, basic(subscriber)), ['website']);
    });
  });

  describe('slugs (§3.3)', () => {
    it('generates sanitised slugs and suffixes taken ones with -2, -3', async () => {
      const first = await create({ venue: 'Gen Slug Night!' });
      expect(first.body.slug).toBe('gen-slug-night');
      const second = await create({ venue: 'Gen Slug Night?' });
      expect(second.body.slug).toBe('gen-slug-night-2');
      const third = await create({ venue: 'Gen-Slug Night' });
      expect(third.body.slug).toBe('gen-slug-night-3');
      expect(third.body.url).toBe(`${PUBLIC_URL}/venue/gen-slug-night-3/`);
      expect((await create({ venue: 'Café Ünter den Linden' })).body.slug).toBe('cafe-unter-den-linden');
      expect((await create({ venue: 'Straße & Smørrebrød' })).body.slug).toBe('strasse-smorrebrod');
      const nonLatin = await create({ venue: '東京会場' });
      expect(nonLatin.status).toBe(201);
      expect(nonLatin.body.slug).toBe(String(nonLatin.body.id));
      // a draft gets a slug too, and it is unique
      const draft = await create({ venue: 'Gen Slug Night!!', status: 'draft' });
      expect(draft.body.slug).toBe('gen-slug-night-4');
      // an organizer may share a venue's slug
      const organizer = await t.http().post(O).set('Authorization', admin).send({ organizer: 'Gen Slug Night!' });
      expect(organizer.body.slug).toBe('gen-slug-night');
    });

    it('sanitises user-given slugs and refuses empty ones', async () => {
      expect((await create({ venue: 'User Slug One', slug: '  --Summer  2027--' })).body.slug).toBe('summer-2027');
      expect((await create({ venue: 'User Slug Two', slug: '<b>Tagged</b> Slug' })).body.slug).toBe('tagged-slug');
      expect((await create({ venue: 'User Slug Three', slug: 'summer 2027' })).body.slug).toBe('summer-2027-2');
      expectInvalid(await create({ venue: 'User Slug Empty', slug: '' }), ['slug']);
      expectInvalid(await create({ venue: 'User Slug Symbols', slug: '!!!' }), ['slug']);
      // generated slugs are cut to 200 characters; a longer user-given slug is refused
      const long = await create({ venue: `${'a'.repeat(150)} ${'b'.repeat(100)}` });
      expect(long.body.slug).toBe(`${'a'.repeat(150)}-${'b'.repeat(49)}`);
      expectInvalid(await create({ venue: 'User Slug Long', slug: 's'.repeat(201) }), ['slug']);
    });

    it('changes the slug only when one is sent on update', async () => {
      const created = await create({ venue: 'Slug Keeper' });
      const renamed = await update(created.body.id, { venue: 'Slug Keeper Renamed' });
      expect(renamed.body.slug).toBe('slug-keeper');
      const reslugged = await update(created.body.id, { slug: 'Fresh Slug!' });
      expect(reslugged.body).toMatchObject({ slug: 'fresh-slug', url: `${PUBLIC_URL}/venue/fresh-slug/` });
      expectInvalid(await read('by-slug/slug-keeper'), ['slug']);
      expect((await read('by-slug/fresh-slug')).body.id).toBe(created.body.id);
      // a taken slug gets the smallest free suffix
      const other = await create({ venue: 'Slug Taker' });
      expect((await update(other.body.id, { slug: 'fresh-slug' })).body.slug).toBe('fresh-slug-2');
      // sending its own slug keeps it
      expect((await update(created.body.id, { slug: 'fresh-slug' })).body.slug).toBe('fresh-slug');
      // the path slug names the item, a body slug is the new slug
      const bySlug = await update('by-slug/fresh-slug', { slug: 'fresher-slug' });
      expect(bySlug.body).toMatchObject({ id: created.body.id, slug: 'fresher-slug' });
      expectInvalid(await update(created.body.id, { slug: '!!!' }), ['slug']);
    });
  });

  describe('de-duplication on create (§11.7)', () => {
    it('answers 201 with the existing venue when every sent field matches, ignoring case and whitespace', async () => {
      const original = await create({ venue: 'Old Pier Pavilion', description: 'By the sea' });
      expect(original.status).toBe(201);
      const id = original.body.id;
      for (const body of [
        { venue: 'Old Pier Pavilion', description: 'By the sea' },
        { venue: 'old pier pavilion' },
        { venue: 'OLD PIER PAVILION', description: 'by the sea' },
        { venue: '  Old Pier Pavilion  ' },
      ]) {
        const res = await create(body);
        expect(res.status).toBe(201);
        expect(res.body.id).toBe(id);
        expect(res.headers.location).toBe(`${PUBLIC_URL}${API}/venues/${id}`);
      }
      const fromAuthor = await create({ venue: 'Old Pier Pavilion' }, basic(author));
      expect(fromAuthor.body).toMatchObject({ id, author: '1' });
    });

    it('does not apply fields outside the compared list to the existing venue', async () => {
      const original = await create({ venue: 'Dedup Flags Hall', city: 'Flagtown' });
      const again = await create({
        venue: 'dedup flags hall',
        show_map: false,
        image: 'https://img.example/dedup.png',
        geo_lat: 1,
        geo_lng: 2,
        status: 'draft',
      });
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(original.body.id);
      expect(again.body).toMatchObject({ show_map: true, status: 'publish', city: 'Flagtown' });
      expect(again.body).not.toHaveProperty('image');
      expect(again.body).not.toHaveProperty('geo_lat');
      expect(again.body.modified_utc).toBe(original.body.modified_utc);
      const stored = await read(original.body.id);
      expect(stored.body.show_map).toBe(true);
    });

    it('creates a new venue when a sent field differs, the match is trashed or not readable', async () => {
      const original = await create({ venue: 'Dedup Differ Hall', city: 'Here' });
      const otherCity = await create({ venue: 'Dedup Differ Hall', city: 'There' });
      expect(otherCity.body.id).not.toBe(original.body.id);
      expect(otherCity.body.slug).toBe('dedup-differ-hall-2');
      const hidden = await create({ venue: 'Dedup Secret Shed', status: 'draft' }, basic(author2));
      const mine = await create({ venue: 'Dedup Secret Shed' }, basic(author));
      expect(mine.body.id).not.toBe(hidden.body.id);
      expect(mine.body.author).toBe(String(author.id));
      // the editor may read both: the lowest id wins
      expect((await create({ venue: 'dedup secret shed' }, basic(editor))).body.id).toBe(hidden.body.id);
      const gone = await create({ venue: 'Dedup Trashed Hall' });
      await trash(gone.body.id);
      const fresh = await create({ venue: 'Dedup Trashed Hall' });
      expect(fresh.body.id).not.toBe(gone.body.id);
      expect(fresh.body.slug).toBe('dedup-trashed-hall');
    });

    it('never de-duplicates updates', async () => {
      const a = await create({ venue: 'Dedup Update A' });
      const b = await create({ venue: 'Dedup Update B' });
      const renamed = await update(b.body.id, { venue: 'Dedup Update A' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.id).toBe(b.body.id);
      expect(renamed.body.venue).toBe('Dedup Update A');
      expect((await read(a.body.id)).body.venue).toBe('Dedup Update A');
    });
  });

  describe('trash (§5.7)', () => {
    it('trashes with 200, a __trashed slug and the non-public url; a second DELETE is 410', async () => {
      const created = await create({ venue: 'Trash Me Hall', city: 'Bin' });
      const { id } = created.body;
      const res = await trash(id);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).not.toContain('json_ld');
      expect(res.body).toMatchObject({
        id,
        status: 'trash',
        slug: 'trash-me-hall__trashed',
        url: `${PUBLIC_URL}/?post_type=tribe_venue&p=${id}`,
        venue: 'Trash Me Hall',
        city: 'Bin',
      });
      expect(res.body.modified_utc >= created.body.modified_utc).toBe(true);
      expectCode(await trash(id), 410, 'venue-is-in-trash');
      expectCode(await trash(id, basic(editor)), 410, 'venue-is-in-trash');
      expectCode(await trash('by-slug/trash-me-hall__trashed'), 410, 'venue-is-in-trash');
    });

    it('gives a second trashed venue of the same slug its own __trashed slug', async () => {
      const first = await create({ venue: 'Twice Binned Hall' });
      expect((await trash(first.body.id)).body.slug).toBe('twice-binned-hall__trashed');
      const second = await create({ venue: 'Twice Binned Hall', city: 'Elsewhere' });
      expect(second.body.slug).toBe('twice-binned-hall');
      const res = await trash(second.body.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'trash', slug: 'twice-binned-hall__trashed-2' });
      expectCode(await trash('by-slug/twice-binned-hall__trashed-2'), 410, 'venue-is-in-trash');
    });

    it('keeps trashed venues readable only by users who may update them', async () => {
      const created = await create({ venue: 'Trash Read Hall' }, basic(author));
      await trash(created.body.id, basic(author));
      expectCode(await read(created.body.id), 403, 'venue-not-accessible');
      expectCode(await read(created.body.id, basic(author2)), 403, 'venue-not-accessible');
      expectCode(await read(created.body.id, basic(subscriber)), 403, 'venue-not-accessible');
      const byEditor = await read(created.body.id, basic(editor));
      expect(byEditor.status).toBe(200);
      expect(byEditor.body.status).toBe('trash');
      expect((await read(created.body.id, basic(author))).status).toBe(200);
      // found only by the trashed slug
      expectInvalid(await read('by-slug/trash-read-hall', basic(editor)), ['slug']);
      expect((await read('by-slug/trash-read-hall__trashed', basic(editor))).body.id).toBe(created.body.id);
      expectCode(await read('by-slug/trash-read-hall__trashed'), 403, 'venue-not-accessible');
      // a contributor's trashed draft stays readable by the contributor
      const contributorDraft = await create({ venue: 'Trash Contributor Draft' }, basic(contributor));
      await trash(contributorDraft.body.id, basic(contributor));
      expect((await read(contributorDraft.body.id, basic(contributor))).status).toBe(200);
    });

    it('ignores force and leaves trashed venues out of lists unless status includes trash', async () => {
      const created = await create({ venue: 'Trash Listed Zanzibar' });
      const totals = async () => ({
        any: (await api.list('status=any', admin)).body.total,
        byDefault: (await api.list('', admin)).body.total,
        anonymous: (await api.list('')).body.total,
        trash: (await api.list('status=trash', admin)).body.total,
        publishAndTrash: (await api.list('status=publish,trash', admin)).body.total,
      });
      const before = await totals();
      const res = await t.http().delete(`${V}/${created.body.id}?force=true`).set('Authorization', admin).send({ force: true });
      expect(res.body.status).toBe('trash');
      expect((await read(created.body.id, admin)).body.status).toBe('trash');
      expect(await totals()).toEqual({
        any: before.any - 1,
        byDefault: before.byDefault - 1,
        anonymous: before.anonymous - 1,
        trash: before.trash + 1,
        publishAndTrash: before.publishAndTrash,
      });
      expect(ids(await api.list('status=trash&per_page=50', admin))).toContain(created.body.id);
      expect(ids(await api.list('status=any&per_page=50', admin))).not.toContain(created.body.id);
      expectInvalid(await api.list('status=trash'), ['status']);
    });

    it('restores with an update that carries a status, removing the suffix (suffixed when taken)', async () => {
      const a = await create({ venue: 'Restore Hall' });
      await trash(a.body.id);
      const stayed = await update(a.body.id, { city: 'Still Binned' });
      expect(stayed.status).toBe(200);
      expect(stayed.body).toMatchObject({ status: 'trash', slug: 'restore-hall__trashed', city: 'Still Binned' });
      const restored = await update(a.body.id, { status: 'draft' });
      expect(restored.body).toMatchObject({
        status: 'draft',
        slug: 'restore-hall',
        url: `${PUBLIC_URL}/?post_type=tribe_venue&p=${a.body.id}`,
      });
      // the original slug was taken meanwhile
      const b = await create({ venue: 'Restore Taken Hall' });
      await trash(b.body.id);
      const taker = await create({ venue: 'Restore Taken Hall' });
      expect(taker.body.slug).toBe('restore-taken-hall');
      const restoredB = await update(b.body.id, { status: 'publish' }, admin, 'put');
      expect(restoredB.body).toMatchObject({
        status: 'publish',
        slug: 'restore-taken-hall-2',
        url: `${PUBLIC_URL}/venue/restore-taken-hall-2/`,
      });
      // a contributor restoring asks for publish and gets pending
      const c = await create({ venue: 'Restore Contributor Hall' }, basic(contributor));
      await trash(c.body.id, basic(contributor));
      const restoredC = await update(c.body.id, { status: 'publish' }, basic(contributor));
      expect(restoredC.status).toBe(200);
      expect(restoredC.body).toMatchObject({ status: 'pending', slug: 'restore-contributor-hall' });
      // restoring by slug
      const d = await create({ venue: 'Restore By Slug' });
      await trash(d.body.id);
      const restoredD = await update('by-slug/restore-by-slug__trashed', { status: 'publish' }, admin, 'post');
      expect(restoredD.body).toMatchObject({ id: d.body.id, status: 'publish', slug: 'restore-by-slug' });
    });

    it('unlinks a trashed venue from every event and does not re-link it on restore', async () => {
      const venue = await create({ venue: 'Linked Trash Hall' });
      const other = await create({ venue: 'Linked Other Hall' });
      const first = await seedEvent(t, { venueId: venue.body.id });
      const second = await seedEvent(t, { venueId: venue.body.id, startUtc: '2001-01-01 10:00:00' });
      const untouched = await seedEvent(t, { venueId: other.body.id });
      expect(ids(await api.list(`event=${first.id}`))).toEqual([venue.body.id]);
      await trash(venue.body.id);
      for (const event of [first, second]) {
        const links = await eventLinks(t, event.id);
        expect(links.venueId).toBeNull();
        expect(links.modifiedUtc).toBe(event.modifiedUtc);
      }
      expect((await eventLinks(t, untouched.id)).venueId).toBe(other.body.id);
      await update(venue.body.id, { status: 'publish' });
      const afterRestore = await api.list(`event=${first.id}`);
      expect(afterRestore.status).toBe(200);
      expect(ids(afterRestore)).toEqual([]);
      expect((await eventLinks(t, first.id)).venueId).toBeNull();
    });
  });

  describe('password protection (§5.6)', () => {
    const full = {
      venue: 'Locked Loft',
      description: 'Secret.',
      excerpt: 'Hush.',
      address: '1 Hidden Way',
      city: 'Nowhere',
      country: 'Canada',
      province: 'Ontario',
      state: 'ON',
      zip: 'K1A',
      phone: '555',
      website: 'https://locked.example',
      geo_lat: 10,
      geo_lng: 20,
      image: 'https://img.example/locked.png',
      post_password: 'Open Sesame',
    };
    const redactions = {
      description: '',
      excerpt: '',
      image: false,
      address: '',
      city: '',
      country: '',
      province: '',
      state: '',
      zip: '',
      phone: '',
      website: '',
      stateprovince: '',
      geo_lat: 0,
      geo_lng: 0,
      show_map: null,
      show_map_link: null,
    };

    it('never returns post_password and answers the writer in full', async () => {
      const created = await create(full, basic(author));
      expect(created.status).toBe(201);
      expect(JSON.stringify(created.body)).not.toContain('post_password');
      expect(JSON.stringify(created.body)).not.toContain('Open Sesame');
      expect(created.body).toMatchObject({ city: 'Nowhere', geo_lat: 10 });
      const own = await read(created.body.id, basic(author));
      expect(own.body.json_ld).toBeDefined();
      expect(own.body.city).toBe('Nowhere');
      expect(JSON.stringify(own.body)).not.toContain('Open Sesame');
      const byEditor = await read(created.body.id, basic(editor));
      expect(byEditor.body.city).toBe('Nowhere');
      expect(byEditor.body.json_ld).toBeDefined();
    });

    it('redacts for anonymous readers, keeping keys and their order, the name and the identifiers', async () => {
      const created = await create({ ...full, venue: 'Locked Loft Two' }, basic(author));
      const own = (await read(created.body.id, basic(author))).body;
      const { json_ld: _ld, ...ownWithoutLd } = own;
      for (const [label, auth] of [
        ['anonymous', null],
        ['subscriber', basic(subscriber)],
        ['other author', basic(author2)],
      ] as const) {
        for (const path of [created.body.id, `by-slug/${created.body.slug}`]) {
          const res = await read(path, auth);
          expect({ label, status: res.status }).toEqual({ label, status: 200 });
          expect(Object.keys(res.body)).toEqual(Object.keys(ownWithoutLd));
          expect(res.body).toEqual({ ...ownWithoutLd, ...redactions });
          expect(typeof res.body.venue).toBe('string');
          expect(res.body.venue).toBe('Locked Loft Two');
        }
      }
      // absent keys stay absent
      const sparse = await create({ venue: 'Locked Sparse', city: 'Somewhere', post_password: 'pw' }, basic(author));
      const sparseRead = await read(sparse.body.id);
      expect(Object.keys(sparseRead.body)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'venue',
        'slug',
        'city',
        'show_map',
        'show_map_link',
        'global_id',
        'global_id_lineage',
      ]);
      expect(sparseRead.body.city).toBe('');
    });

    it('unlocks with the exact password and redacts list items too', async () => {
      const created = await create({ ...full, venue: 'Locked Loft Three' }, basic(author));
      const own = (await read(created.body.id, basic(author))).body;
      const unlocked = await t.http().get(`${V}/${created.body.id}?password=${encodeURIComponent('Open Sesame')}`);
      expect(unlocked.body).toEqual(own);
      const bySlug = await t.http().get(`${V}/by-slug/${created.body.slug}?password=Open+Sesame`);
      expect(bySlug.body).toEqual(own);
      const wrongCase = await t.http().get(`${V}/${created.body.id}?password=open+sesame`);
      expect(wrongCase.body.city).toBe('');
      expect(wrongCase.body).not.toHaveProperty('json_ld');
      const event = await seedEvent(t, { venueId: created.body.id });
      const listed = await api.list(`event=${event.id}`);
      const { json_ld: _ld, ...ownWithoutLd } = own;
      expect(listed.body.venues).toEqual([{ ...ownWithoutLd, ...redactions }]);
      const listedUnlocked = await api.list(`event=${event.id}&password=Open+Sesame`);
      expect(listedUnlocked.body.venues).toEqual([ownWithoutLd]);
      expect(listedUnlocked.body.rest_url).not.toContain('password');
      // removing the password shows it to everyone
      await update(created.body.id, { post_password: '' }, basic(author));
      const open = await read(created.body.id);
      expect(open.body).toMatchObject({ city: 'Nowhere', state: 'ON', geo_lat: 10, show_map: true, json_ld: own.json_ld });
    });
  });
});

describe('venue lists (§5.5, §9)', () => {
  let t: TestApp;
  let author: Credentials;
  let author2: Credentials;
  let contributor: Credentials;
  let subscriber: Credentials;
  const api = client(() => t);
  const { create, trash, list } = api;
  const v: Record<string, number> = {};
  const url = (query: string) => `${PUBLIC_URL}${API}/venues/?${query}`;

  beforeAll(async () => {
    t = await startTestApp();
    author = await t.user('author');
    author2 = await t.user('author');
    contributor = await t.user('contributor');
    subscriber = await t.user('subscriber');
  });
  afterAll(() => t.close());

  it('answers an empty first page with 200 and zeros, and a later page with 404', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ venues: [], rest_url: url('page=1&per_page=6&status=publish'), total: 0, total_pages: 0 });
    expect(Object.keys(res.body)).toEqual(['venues', 'rest_url', 'total', 'total_pages']);
    expect(res.headers['x-tec-total']).toBe('0');
    expect(res.headers['x-tec-totalpages']).toBe('0');
    const asAdmin = await list('', admin);
    expect(asAdmin.body.rest_url).toBe(url('page=1&per_page=6&status=any'));
    const beyond = await list('page=2');
    expectCode(beyond, 404, 'venue-archive-page-not-found');
    expect(beyond.headers['x-tec-total']).toBeUndefined();
  });

  describe('with venues of every status', () => {
    beforeAll(async () => {
      const make = async (key: string, body: Record<string, unknown>, auth: string) => {
        const res = await create({ venue: `List ${key}`, ...body }, auth);
        expect(res.status).toBe(201);
        v[key] = res.body.id;
      };
      await make('old', { date: '2019-05-01 08:00:00' }, admin);
      await make('a', { date: '2021-03-01 12:00:00' }, admin);
      await make('b', { date: '2021-03-01 12:00:00' }, basic(author));
      await make('new', { date: '2022-07-01 09:00:00' }, admin);
      await make('authorDraft', { status: 'draft' }, basic(author));
      await make('author2Draft', { status: 'draft' }, basic(author2));
      await make('contribPending', { status: 'pending' }, basic(contributor));
      await make('authorPrivate', { status: 'private' }, basic(author));
      await make('adminPrivate', { status: 'private' }, admin);
      await make('future', { date: '2099-01-01 00:00:00' }, admin);
      await make('adminTrash', {}, admin);
      await make('authorTrash', {}, basic(author));
      await make('contribTrash', {}, basic(contributor));
      await trash(v.adminTrash);
      await trash(v.authorTrash, basic(author));
      await trash(v.contribTrash, basic(contributor));
    });

    const published = () => [v.new, v.b, v.a, v.old];

    it('lists published venues to anonymous users, newest publication date first, then id', async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(published());
      expect(res.body.total).toBe(4);
      expect(res.headers['x-tec-total']).toBe('4');
      expect(res.headers['x-tec-totalpages']).toBe('1');
      for (const venue of res.body.venues) expect(venue).not.toHaveProperty('json_ld');
      expect(ids(await list('', basic(subscriber)))).toEqual(published());
      expect(ids(await list('status=publish'))).toEqual(published());
    });

    it('shows each signed-in role what it may read by default (status any)', async () => {
      const everything = await list('per_page=50', admin);
      expect(ids(everything)).toEqual([
        v.future,
        v.adminPrivate,
        v.authorPrivate,
        v.contribPending,
        v.author2Draft,
        v.authorDraft,
        ...published(),
      ]);
      expect(everything.body.total).toBe(10);
      expect(everything.body.rest_url).toBe(url('page=1&per_page=50&status=any'));
      const byAuthor = await list('per_page=50', basic(author));
      expect(ids(byAuthor)).toEqual([v.authorPrivate, v.authorDraft, ...published()]);
      expect(byAuthor.body.total).toBe(6);
      const byContributor = await list('per_page=50', basic(contributor));
      expect(ids(byContributor)).toEqual([v.contribPending, ...published()]);
      expect(byContributor.body.total).toBe(5);
    });

    it('refuses statuses other than publish to anonymous users and subscribers', async () => {
      for (const status of ['draft', 'any', 'publish,draft', 'trash', 'future']) {
        expectInvalid(await list(`status=${status}`), ['status']);
        expectInvalid(await list(`status=${status}`, basic(subscriber)), ['status']);
      }
      expectInvalid(await list('status[]=publish&status[]=draft'), ['status']);
    });

    it('refuses unknown status words for everybody', async () => {
      expectInvalid(await list(`status=${encodeURIComponent('foo, bar, publish')}`, admin), ['status']);
      expectInvalid(await list('status=published', admin), ['status']);
      expectInvalid(await list('status=foo'), ['status']);
    });

    it('accepts one status, comma lists, arrays, repeated keys, any and trash for editors', async () => {
      const drafts = await list('status=draft', admin);
      expect(ids(drafts)).toEqual([v.author2Draft, v.authorDraft]);
      expect(drafts.body.rest_url).toBe(url('page=1&per_page=6&status=draft'));
      const comma = await list(`status=${encodeURIComponent('draft, pending')}`, admin);
      expect(ids(comma)).toEqual([v.contribPending, v.author2Draft, v.authorDraft]);
      expect(comma.body.rest_url).toBe(url('page=1&per_page=6&status=draft%2Cpending'));
      const array = await list('status[]=draft&status[]=private', admin);
      expect(ids(array)).toEqual([v.adminPrivate, v.authorPrivate, v.author2Draft, v.authorDraft]);
      expect(array.body.rest_url).toBe(url('page=1&per_page=6&status=draft%2Cprivate'));
      expect(ids(await list('status=draft&status=pending', admin))).toEqual([v.contribPending, v.author2Draft, v.authorDraft]);
      expect(ids(await list('status=DRAFT', admin))).toEqual([v.author2Draft, v.authorDraft]);
      expect(ids(await list('status=future', admin))).toEqual([v.future]);
      expect(ids(await list('status=trash', admin))).toEqual([v.contribTrash, v.authorTrash, v.adminTrash]);
      const anyAndTrash = await list('status=any,trash&per_page=50', admin);
      expect(anyAndTrash.body.total).toBe(13);
      expect(ids(await list('status=any', admin)).length).toBe(6);
    });

    it('limits authors and contributors to what they may read, whatever status they ask for', async () => {
      expect(ids(await list('status=draft', basic(author)))).toEqual([v.authorDraft]);
      expect(ids(await list('status=private', basic(author)))).toEqual([v.authorPrivate]);
      expect(ids(await list('status=trash', basic(author)))).toEqual([v.authorTrash]);
      const none = await list('status=future', basic(author));
      expect(none.status).toBe(200);
      expect(none.body.total).toBe(0);
      expect(ids(await list('status=pending', basic(contributor)))).toEqual([v.contribPending]);
      expect(ids(await list('status=trash', basic(contributor)))).toEqual([v.contribTrash]);
      expect(ids(await list('status=private,draft', basic(contributor)))).toEqual([]);
      expect(ids(await list('status=draft,pending', basic(author2)))).toEqual([v.author2Draft]);
    });

    it('pages with per_page, links keep the parameters, and a page past the end is 404', async () => {
      const first = await list('per_page=2');
      expect(ids(first)).toEqual([v.new, v.b]);
      expect(Object.keys(first.body)).toEqual(['venues', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      expect(first.body).toMatchObject({
        rest_url: url('page=1&per_page=2&status=publish'),
        next_rest_url: url('per_page=2&status=publish&page=2'),
        total: 4,
        total_pages: 2,
      });
      expect(first.headers['x-tec-totalpages']).toBe('2');
      const second = await t.http().get(first.body.next_rest_url.slice(PUBLIC_URL.length));
      expect(ids(second)).toEqual([v.a, v.old]);
      expect(Object.keys(second.body)).toEqual(['venues', 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
      expect(second.body.rest_url).toBe(url('page=2&per_page=2&status=publish'));
      expect(second.body.previous_rest_url).toBe(url('per_page=2&status=publish'));
      const middle = await list('per_page=1&page=3');
      expect(ids(middle)).toEqual([v.a]);
      expect(middle.body.next_rest_url).toBe(url('per_page=1&status=publish&page=4'));
      expect(middle.body.previous_rest_url).toBe(url('per_page=1&status=publish&page=2'));
      expectCode(await list('per_page=2&page=3'), 404, 'venue-archive-page-not-found');
      expectCode(await list('status=draft&page=2', basic(author)), 404, 'venue-archive-page-not-found');
    });

    it('validates page and per_page', async () => {
      for (const value of ['0', '-1', 'foo', '1.5', '']) {
        expectInvalid(await list(`page=${value}`), ['page']);
        expectInvalid(await list(`per_page=${value}`), ['per_page']);
      }
      expectInvalid(await list('page=0&per_page=abc'), ['page', 'per_page']);
    });

    it('echoes the list parameters in the documented order, never the password or unknown ones', async () => {
      const event = await seedEvent(t, {});
      const res = await list(`only_with_upcoming=true&has_events=yes&status=publish&per_page=3&password=pw&event=${event.id}&foo=bar`);
      expect(res.status).toBe(200);
      expect(res.body.rest_url).toBe(url(`page=1&per_page=3&event=${event.id}&has_events=1&status=publish&only_with_upcoming=1`));
      const falsy = await list('has_events=0&per_page=2');
      expect(falsy.body.rest_url).toBe(url('page=1&per_page=2&has_events=0&status=publish'));
    });

    it('echoes search form-encoded between status and only_with_upcoming', async () => {
      const event = await seedEvent(t, {});
      const res = await list(
        `only_with_upcoming=true&search=${encodeURIComponent('a:b,c d')}&has_events=yes&status=publish&per_page=3&password=pw&event=${event.id}&foo=bar`,
      );
      expect(res.status).toBe(200);
      expect(res.body.rest_url).toBe(
        url(`page=1&per_page=3&event=${event.id}&has_events=1&status=publish&search=a%3Ab%2Cc+d&only_with_upcoming=1`),
      );
    });

    it('reduces per_page above the maximum to 50', async () => {
      for (let i = 0; i < 48; i++) expect((await create({ venue: `Bulk Venue ${i}` })).status).toBe(201);
      const res = await list('per_page=100');
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(52);
      expect(res.body.venues).toHaveLength(50);
      expect(res.body.total_pages).toBe(2);
      expect(res.body.rest_url).toBe(url('page=1&per_page=50&status=publish'));
      expect(res.body.next_rest_url).toBe(url('per_page=50&status=publish&page=2'));
      expect(ids(await list('per_page=100&page=2'))).toEqual([v.a, v.old]);
      expect((await list()).body.venues).toHaveLength(6);
    });
  });
});

describe('venue search (§9.5)', () => {
  let t: TestApp;
  let author: Credentials;
  let author2: Credentials;
  const api = client(() => t);
  const { create, list } = api;
  const v: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp();
    author = await t.user('author');
    author2 = await t.user('author');
    const make = async (key: string, body: Record<string, unknown>, auth = admin) => {
      const res = await create({ venue: key, ...body }, auth);
      expect(res.status).toBe(201);
      v[key] = res.body.id;
    };
    await make('V1', { address: '221b Baker Street', city: 'London', province: 'Greater London', zip: '223345', phone: '111111' });
    await make('V2', { address: '10, Piccadilly Circus', city: 'London', province: 'Greater London', zip: '223345' });
    await make('V3', { address: '100, Avenue du Temple', city: 'Paris', stateprovince: 'France, Ile de France', phone: '3333333' });
  });
  afterAll(() => t.close());

  const search = (words: string, auth?: string) => list(`search=${encodeURIComponent(words)}`, auth);

  it('matches the documented examples', async () => {
    const expectations: Array<[string, string[]]> = [
      ['london', ['V2', 'V1']],
      ['temple avenue', ['V3']],
      ['greater london', ['V2', 'V1']],
      ['france, ile de', ['V3']],
      ['223345', ['V2', 'V1']],
      ['3333333', ['V3']],
      ['LONDON', ['V2', 'V1']],
      ['Circus 10', ['V2']],
      ['v1', ['V1']],
    ];
    for (const [words, expected] of expectations) {
      const res = await search(words);
      expect({ words, status: res.status, ids: ids(res) }).toEqual({ words, status: 200, ids: expected.map((key) => v[key]) });
      expect(res.body.total).toBe(expected.length);
      expect(res.headers['x-tec-total']).toBe(String(expected.length));
    }
  });

  it('needs all words in one field and counts only the matches', async () => {
    for (const words of ['baker london', 'london paris', 'Baker-Street', 'nothing-like-this']) {
      const res = await search(words);
      expect({ words, status: res.status, total: res.body.total, venues: res.body.venues }).toEqual({
        words,
        status: 200,
        total: 0,
        venues: [],
      });
      expect(res.body.total_pages).toBe(0);
    }
  });

  it('adds no restriction when no word remains, and refuses an empty search', async () => {
    const res = await search('!!! ??');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expectInvalid(await list('search='), ['search']);
    expectInvalid(await list('search=%20%20'), ['search']);
  });

  it('searches descriptions and excerpts', async () => {
    const desc = await create({ venue: 'Cellar Club', description: 'A cosy <strong>jazz</strong> basement' });
    const exc = await create({ venue: 'Roof Club', excerpt: 'Open-air rooftop terrace' });
    expect(ids(await search('basement cosy'))).toEqual([desc.body.id]);
    expect(ids(await search('terrace open-air'))).toEqual([exc.body.id]);
  });

  it('never matches password-protected venues for users who may not update them', async () => {
    const locked = await create({ venue: 'Locked London Loft', city: 'London', post_password: 'pw' }, basic(author));
    expect(ids(await search('london'))).toEqual([v.V2, v.V1]);
    expect((await search('london')).body.total).toBe(2);
    expect(ids(await search('loft'))).toEqual([]);
    expect(ids(await search('london', basic(author2)))).toEqual([v.V2, v.V1]);
    expect(ids(await search('london', basic(author)))).toEqual([locked.body.id, v.V2, v.V1]);
    expect(ids(await search('london', admin))).toEqual([locked.body.id, v.V2, v.V1]);
    // still listed (redacted) without a search
    const all = await list('per_page=50');
    expect(ids(all)).toContain(locked.body.id);
  });

  it('keeps the search in the paging links', async () => {
    const first = await list('search=london&per_page=1');
    expect(first.body.rest_url).toBe(`${PUBLIC_URL}${API}/venues/?page=1&per_page=1&status=publish&search=london`);
    expect(first.body.next_rest_url).toBe(`${PUBLIC_URL}${API}/venues/?per_page=1&status=publish&search=london&page=2`);
    const second = await t.http().get(first.body.next_rest_url.slice(PUBLIC_URL.length));
    expect(ids(second)).toEqual([v.V1]);
    expect(second.body.next_rest_url).toBeUndefined();
  });
});

describe('venue event filters (§9.5)', () => {
  let t: TestApp;
  let author: Credentials;
  let author2: Credentials;
  const api = client(() => t);
  const { create, list, trash, update } = api;
  const v: Record<string, number> = {};
  const e: Record<string, number> = {};
  const FUTURE = '2099-03-01 10:00:00';
  const PAST = '2001-03-01 10:00:00';

  beforeAll(async () => {
    t = await startTestApp();
    author = await t.user('author');
    author2 = await t.user('author');
    const make = async (key: string, status = 'publish') => {
      const res = await create({ venue: `Filter ${key}`, status });
      expect(res.status).toBe(201);
      v[key] = res.body.id;
    };
    for (const key of ['A', 'B', 'C', 'D']) await make(key);
    await make('E', 'draft');
    for (const key of ['F', 'G', 'H', 'I']) await make(key);
    e.up = (await seedEvent(t, { venueId: v.A, startUtc: FUTURE })).id;
    e.draftUp = (await seedEvent(t, { venueId: v.B, startUtc: FUTURE, status: 'draft', authorId: author.id })).id;
    e.past = (await seedEvent(t, { venueId: v.C, startUtc: PAST })).id;
    e.upForDraftVenue = (await seedEvent(t, { venueId: v.E, startUtc: FUTURE })).id;
    e.trashed = (await seedEvent(t, { venueId: v.F, startUtc: FUTURE, status: 'trash' })).id;
    e.privateUp = (await seedEvent(t, { venueId: v.G, startUtc: FUTURE, status: 'private' })).id;
    e.hiddenUp = (await seedEvent(t, { venueId: v.H, startUtc: FUTURE, hideFromListings: true })).id;
    e.scheduled = (await seedEvent(t, { venueId: v.I, startUtc: FUTURE, status: 'future' })).id;
    e.noVenue = (await seedEvent(t, { startUtc: FUTURE })).id;
  });
  afterAll(() => t.close());

  const keys = (...names: string[]) => names.map((name) => v[name]);

  it('filters by event, in any event status, still applying venue visibility', async () => {
    expect(ids(await list(`event=${e.up}`))).toEqual(keys('A'));
    expect(ids(await list(`event=${e.draftUp}`))).toEqual(keys('B'));
    expect(ids(await list(`event=${e.trashed}`))).toEqual(keys('F'));
    const none = await list(`event=${e.noVenue}`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ venues: [], total: 0, total_pages: 0 });
    expect(ids(await list(`event=${e.upForDraftVenue}`))).toEqual([]);
    expect(ids(await list(`event=${e.upForDraftVenue}`, admin))).toEqual(keys('E'));
    expect((await list(`event=${e.up}`)).body.rest_url).toBe(`${PUBLIC_URL}${API}/venues/?page=1&per_page=6&event=${e.up}&status=publish`);
  });

  it('refuses an event that does not exist or is not an event', async () => {
    expectInvalid(await list('event=987654'), ['event']);
    expectInvalid(await list(`event=${v.A}`), ['event']);
    expectInvalid(await list('event=abc'), ['event']);
  });

  it('has_events: truthy words keep venues with published, scheduled or private events; other values the rest', async () => {
    for (const word of ['1', 'true', 'yes', 'ON', 'Enabled']) {
      expect(ids(await list(`has_events=${word}`))).toEqual(keys('I', 'H', 'G', 'C', 'A'));
    }
    expect(ids(await list('has_events=1', admin))).toEqual(keys('I', 'H', 'G', 'E', 'C', 'A'));
    for (const word of ['0', 'false', 'no', 'whatever']) {
      expect(ids(await list(`has_events=${word}`))).toEqual(keys('F', 'D', 'B'));
    }
  });

  it('only_with_upcoming: venues with an upcoming event the requester could list', async () => {
    expect(ids(await list('only_with_upcoming=1'))).toEqual(keys('A'));
    expect(ids(await list('only_with_upcoming=yes', basic(author2)))).toEqual(keys('A'));
    expect(ids(await list('only_with_upcoming=true', basic(author)))).toEqual(keys('B', 'A'));
    expect(ids(await list('only_with_upcoming=1', admin))).toEqual(keys('I', 'G', 'E', 'B', 'A'));
    for (const word of ['0', 'no', 'whatever']) {
      expect((await list(`only_with_upcoming=${word}&per_page=50`)).body.total).toBe(8);
    }
  });

  it('combines has_events and only_with_upcoming with AND', async () => {
    expect(ids(await list('has_events=1&only_with_upcoming=1'))).toEqual(keys('A'));
    expect(ids(await list('has_events=0&only_with_upcoming=1'))).toEqual([]);
    expect(ids(await list('has_events=0&only_with_upcoming=1', basic(author)))).toEqual(keys('B'));
  });

  it('drops a trashed venue from its events for good', async () => {
    await trash(v.A);
    expect((await eventLinks(t, e.up)).venueId).toBeNull();
    expect(ids(await list(`event=${e.up}&status=any,trash`, admin))).toEqual([]);
    const restored = await update(v.A, { status: 'publish' });
    expect(restored.body.status).toBe('publish');
    expect(ids(await list(`event=${e.up}`))).toEqual([]);
    expect(ids(await list('only_with_upcoming=1'))).toEqual([]);
    expect(ids(await list('has_events=1'))).toEqual(keys('I', 'H', 'G', 'C'));
    expect(ids(await list('has_events=0'))).toEqual(keys('F', 'D', 'B', 'A'));
  });
});
