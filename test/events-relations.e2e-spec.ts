import { ADMIN_AUTH, eventBody, eventClient, expectError, type EventClient } from './support/events.js';
import { API, basic, PUBLIC_URL, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

const ids = (items: Array<{ id: number }>) => items.map((item) => item.id);

describe('events: venue and organizers (§11.3)', () => {
  let t: TestApp;
  let ev: EventClient;
  let contributor: Credentials;
  let pier: Record<string, any>;
  let hall: Record<string, any>;
  let trashedVenue: number;
  let choir: number;
  let guild: number;
  let band: number;
  let trashedOrganizer: number;

  const post = (kind: string, body: Record<string, unknown>) => t.http().post(`${API}/${kind}`).set('Authorization', ADMIN_AUTH).send(body);
  const form = (path: string, body: string, method: 'post' | 'put' = 'post') =>
    t.http()[method](`${API}${path}`).set('Authorization', ADMIN_AUTH).set('Content-Type', 'application/x-www-form-urlencoded').send(body);

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
    contributor = await t.user('contributor');
    pier = (await post('venues', { venue: 'Old Pier Pavilion', description: 'By the sea', city: 'Port Halden' })).body;
    hall = (await post('venues', { venue: 'Town Hall', geo_lat: 1, geo_lng: 2 })).body;
    trashedVenue = (await post('venues', { venue: 'Gone Venue' })).body.id;
    await t.http().delete(`${API}/venues/${trashedVenue}`).set('Authorization', ADMIN_AUTH);
    choir = (await post('organizers', { organizer: 'Harbour Choir', email: 'choir@example.net' })).body.id;
    guild = (await post('organizers', { organizer: 'Tidewater Arts Guild' })).body.id;
    band = (await post('organizers', { organizer: 'Brass Band' })).body.id;
    trashedOrganizer = (await post('organizers', { organizer: 'Gone Organizer' })).body.id;
    await t.http().delete(`${API}/organizers/${trashedOrganizer}`).set('Authorization', ADMIN_AUTH);
  });
  afterAll(() => t.close());

  it.each([
    ['an integer', (id: number) => id],
    ['a digit string', (id: number) => String(id)],
    ['an {id} object', (id: number) => ({ id })],
    ['an {id} object with other keys', (id: number) => ({ id, venue: 'Renamed?', city: 'Elsewhere' })],
    ['a one-element array', (id: number) => [id]],
    ['a one-element array of {id}', (id: number) => [{ id: String(id) }]],
  ])('links a venue given as %s, without modifying it', async (_label, value) => {
    const res = await ev.create(eventBody({ venue: value(pier.id) }));
    expect(res.status).toBe(201);
    expect(res.body.venue).toMatchObject({ id: pier.id, venue: 'Old Pier Pavilion', city: 'Port Halden' });
    expect(res.body.venue.modified_utc).toBe(pier.modified_utc);
  });

  it.each([
    ['two elements', () => [pier.id, hall.id]],
    ['an unknown id', () => 987654],
    ['a trashed venue', () => trashedVenue],
    ['an organizer id', () => choir],
    ['"abc"', () => 'abc'],
    ['an object with neither id nor venue', () => ({ city: 'Nowhere' })],
    ['an inline venue with an invalid field', () => ({ venue: 'Bad Site', website: 'foo' })],
    ['an inline venue with an empty name', () => ({ venue: '' })],
    ['an {id} of an unknown venue', () => ({ id: 987654 })],
  ])('refuses a venue given as %s with 400 (venue)', async (_label, value) => {
    expectError(await ev.create(eventBody({ venue: value() })), 400, 'rest_invalid_param', ['venue']);
  });

  it.each([0, '0', '', null, []])('unlinks the venue with %j', async (empty) => {
    const event = await ev.make(eventBody({ venue: hall.id }));
    const res = await ev.update(event.id, { venue: empty });
    expect(res.status).toBe(200);
    expect(res.body.venue).toEqual([]);
    expect((await ev.update(event.id, { venue: hall.id })).body.venue.id).toBe(hall.id);
  });

  it('reuses an existing venue matching an inline venue, and creates one otherwise', async () => {
    const before = (await t.http().get(`${API}/venues?per_page=50`)).body.total;
    const same = await ev.make(eventBody({ venue: { venue: '  old pier pavilion ', description: 'BY THE SEA' } }));
    expect(same.venue.id).toBe(pier.id);
    const byName = await ev.make(eventBody({ venue: { venue: 'OLD PIER PAVILION', show_map: false } }));
    expect(byName.venue).toMatchObject({ id: pier.id, show_map: true });
    expect((await t.http().get(`${API}/venues?per_page=50`)).body.total).toBe(before);
    const differs = await ev.make(eventBody({ venue: { venue: 'Old Pier Pavilion', city: 'Elsewhere', stateProvince: 'Somewhere' } }));
    expect(differs.venue.id).not.toBe(pier.id);
    expect(differs.venue).toMatchObject({
      venue: 'Old Pier Pavilion',
      city: 'Elsewhere',
      stateprovince: 'Somewhere',
      status: 'publish',
      author: '1',
    });
    expect((await t.http().get(`${API}/venues?per_page=50`)).body.total).toBe(before + 1);
  });

  it('creates inline venues and organizers of contributors as drafts authored by them', async () => {
    const res = await ev.create(
      eventBody({ venue: { venue: 'Contributor Corner' }, organizer: [{ organizer: 'Contributor Crew' }] }),
      basic(contributor),
    );
    expect(res.status).toBe(201);
    expect(res.body.venue).toMatchObject({ venue: 'Contributor Corner', status: 'draft', author: String(contributor.id) });
    expect(res.body.organizer[0]).toMatchObject({ organizer: 'Contributor Crew', status: 'draft', author: String(contributor.id) });
  });

  it('writes nothing when an event with inline relations fails validation', async () => {
    const venues = (await t.http().get(`${API}/venues?per_page=50`)).body.total;
    const organizers = (await t.http().get(`${API}/organizers?per_page=50`)).body.total;
    const res = await ev.create(
      eventBody({
        venue: { venue: 'Phantom Venue' },
        organizer: [{ organizer: 'Phantom Org' }],
        categories: ['Phantom Category'],
        website: 'foo',
      }),
    );
    expectError(res, 400, 'rest_invalid_param', ['website']);
    expect((await t.http().get(`${API}/venues?per_page=50`)).body.total).toBe(venues);
    expect((await t.http().get(`${API}/organizers?per_page=50`)).body.total).toBe(organizers);
    expect((await t.http().get(`${API}/categories?hide_empty=0&search=phantom`)).body.total).toBe(0);
  });

  it.each([
    ['an integer', () => choir, () => [choir]],
    ['a digit string', () => String(choir), () => [choir]],
    ['a comma list', () => `${guild}, ${choir}`, () => [guild, choir]],
    ['an array of integers', () => [band, choir, guild], () => [band, choir, guild]],
    ['an array of digit strings', () => [String(choir), String(band)], () => [choir, band]],
    ['a single {id} object', () => ({ id: band }), () => [band]],
    ['a list with duplicates', () => [choir, guild, choir, guild], () => [choir, guild]],
  ])('links organizers given as %s, in order', async (_label, value, expected) => {
    const res = await ev.create(eventBody({ organizer: value() }));
    expect(res.status).toBe(201);
    expect(ids(res.body.organizer)).toEqual(expected());
  });

  it('links a mix of inline organizers, {id} objects and ids, keeping the order and de-duplicating names', async () => {
    const res = await ev.create(
      eventBody({ organizer: [{ organizer: 'New Choir' }, { id: choir }, guild, { organizer: 'harbour choir' }] }),
    );
    expect(res.status).toBe(201);
    const created = res.body.organizer[0];
    expect(created).toMatchObject({ organizer: 'New Choir', status: 'publish' });
    expect(ids(res.body.organizer)).toEqual([created.id, choir, guild]);
    const single = await ev.create(eventBody({ organizer: { organizer: 'NEW CHOIR' } }));
    expect(ids(single.body.organizer)).toEqual([created.id]);
  });

  it.each([
    ['an unknown id', () => [choir, 987654]],
    ['a venue id', () => pier.id],
    ['a trashed organizer', () => trashedOrganizer],
    ['an inline object without a name', () => [{ email: 'x@example.net' }]],
    ['an inline object with an empty name', () => ({ organizer: '' })],
    ['an inline object with a blank name in a list', () => [choir, { organizer: '  ' }]],
    ['"abc"', () => 'abc'],
  ])('refuses organizers given as %s with 400 (organizer)', async (_label, value) => {
    expectError(await ev.create(eventBody({ organizer: value() })), 400, 'rest_invalid_param', ['organizer']);
  });

  it('replaces the organizer list entirely and unlinks all with empty values', async () => {
    const event = await ev.make(eventBody({ organizer: [choir, guild] }));
    expect(ids((await ev.update(event.id, { organizer: [band] })).body.organizer)).toEqual([band]);
    expect(ids((await ev.update(event.id, { organizer: [guild, band, choir] })).body.organizer)).toEqual([guild, band, choir]);
    expect(ids((await ev.update(event.id, { title: 'Untouched' })).body.organizer)).toEqual([guild, band, choir]);
    for (const empty of [[], '', null, 0, '0']) {
      await ev.update(event.id, { organizer: [choir] });
      const res = await ev.update(event.id, { organizer: empty });
      expect(res.status).toBe(200);
      expect(res.body.organizer).toEqual([]);
    }
  });

  it('accepts venue and organizers in form bodies with bracket notation, and clears them with empty values', async () => {
    const created = await form(
      '/events',
      [
        'title=Form+Event',
        'start_date=2027-04-02+18%3A00%3A00',
        'end_date=2027-04-02+20%3A00%3A00',
        `venue[id]=${hall.id}`,
        'organizer[0][organizer]=Form+Choir',
        `organizer[1][id]=${choir}`,
        `organizer[2]=${guild}`,
      ].join('&'),
    );
    expect(created.status).toBe(201);
    expect(created.body.venue.id).toBe(hall.id);
    expect(created.body.organizer.map((o: { organizer: string }) => o.organizer)).toEqual([
      'Form Choir',
      'Harbour Choir',
      'Tidewater Arts Guild',
    ]);
    const inline = await form(
      '/events',
      'title=Inline+Form&start_date=2027-04-02&end_date=2027-04-02&venue[venue]=Form+Venue&venue[city]=Port+Halden&organizer[]=' +
        band +
        '&organizer[]=' +
        choir,
    );
    expect(inline.body.venue).toMatchObject({ venue: 'Form Venue', city: 'Port Halden' });
    expect(ids(inline.body.organizer)).toEqual([band, choir]);
    const cleared = await form(`/events/${created.body.id}`, 'venue=&organizer=', 'put');
    expect(cleared.status).toBe(200);
    expect(cleared.body.venue).toEqual([]);
    expect(cleared.body.organizer).toEqual([]);
  });

  it('lets any writer link a venue or organizer authored by someone else', async () => {
    const res = await ev.create(eventBody({ venue: pier.id, organizer: [choir] }), basic(contributor));
    expect(res.status).toBe(201);
    expect(res.body.venue.id).toBe(pier.id);
  });
});

describe('events: categories and tags (§11.4)', () => {
  let t: TestApp;
  let ev: EventClient;
  let outdoor: number;
  let nightWalks: number;
  let family: number;

  const term = (kind: string, body: Record<string, unknown>) => t.http().post(`${API}/${kind}`).set('Authorization', ADMIN_AUTH).send(body);

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
    outdoor = (await term('categories', { name: 'Outdoor' })).body.id;
    nightWalks = (await term('categories', { name: 'Night walks', parent: outdoor })).body.id;
    family = (await term('tags', { name: 'family' })).body.id;
  });
  afterAll(() => t.close());

  it('links categories by id, by slug and by new name, creating the new one at top level', async () => {
    const res = await ev.create(eventBody({ categories: [String(outdoor), 'night-walks', 'Sunset Tours'] }));
    expect(res.status).toBe(201);
    const names = res.body.categories.map((c: { name: string; slug: string; parent: number }) => [c.name, c.slug, c.parent]);
    expect(names).toEqual([
      ['Night walks', 'night-walks', outdoor],
      ['Outdoor', 'outdoor', 0],
      ['Sunset Tours', 'sunset-tours', 0],
    ]);
    const created = res.body.categories[2];
    expect((await t.http().get(`${API}/categories/${created.id}`)).body).toMatchObject({ name: 'Sunset Tours', count: 1, parent: 0 });
    expect(res.body.categories[0].urls.up).toBe(`${PUBLIC_URL}${API}/categories/${outdoor}`);
  });

  it('matches names case-insensitively and ignores duplicates', async () => {
    const res = await ev.create(eventBody({ categories: ['OUTDOOR', 'outdoor', outdoor, 'Night Walks'], tags: 'FAMILY, family' }));
    expect(ids(res.body.categories)).toEqual([nightWalks, outdoor]);
    expect(ids(res.body.tags)).toEqual([family]);
  });

  it('sorts terms by name case-insensitively, whatever the input order', async () => {
    const res = await ev.create(eventBody({ tags: ['zebra', 'Apple', 'mango', 'banana'] }));
    expect(res.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['Apple', 'banana', 'mango', 'zebra']);
  });

  it('refuses unknown ids, and a tag id given as a category', async () => {
    expectError(await ev.create(eventBody({ categories: [outdoor, 987654] })), 400, 'rest_invalid_param', ['categories']);
    expectError(await ev.create(eventBody({ categories: [family] })), 400, 'rest_invalid_param', ['categories']);
    expectError(await ev.create(eventBody({ tags: [outdoor] })), 400, 'rest_invalid_param', ['tags']);
    expectError(await ev.create(eventBody({ categories: [987654], tags: [987655] })), 400, 'rest_invalid_param', ['categories', 'tags']);
  });

  it('replaces the set sent and removes all terms with [], "" and null', async () => {
    const event = await ev.make(eventBody({ categories: [outdoor], tags: [family] }));
    expect(ids((await ev.update(event.id, { categories: [nightWalks] })).body.categories)).toEqual([nightWalks]);
    expect(ids((await ev.update(event.id, { title: 'Keeps terms' })).body.categories)).toEqual([nightWalks]);
    expect((await ev.update(event.id, { categories: [] })).body.categories).toEqual([]);
    expect(ids((await ev.update(event.id, { categories: `${outdoor},night-walks` })).body.categories)).toEqual([nightWalks, outdoor]);
    expect((await ev.update(event.id, { categories: '' })).body.categories).toEqual([]);
    expect(ids((await ev.update(event.id, { tags: 'family' })).body.tags)).toEqual([family]);
    expect((await ev.update(event.id, { tags: null })).body.tags).toEqual([]);
  });

  it('accepts terms in form bodies with bracket notation and clears them with an empty value', async () => {
    const created = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', ADMIN_AUTH)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(
        `title=Form+Terms&start_date=2027-04-02&end_date=2027-04-02&categories[]=${outdoor}&categories[]=night-walks&categories[]=Sunset+Strolls&tags[]=family`,
      );
    expect(created.status).toBe(201);
    expect(created.body.categories.map((c: { name: string }) => c.name)).toEqual(['Night walks', 'Outdoor', 'Sunset Strolls']);
    expect(ids(created.body.tags)).toEqual([family]);
    const cleared = await t
      .http()
      .post(`${API}/events/${created.body.id}`)
      .set('Authorization', ADMIN_AUTH)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('categories=&tags=');
    expect(cleared.body.categories).toEqual([]);
    expect(cleared.body.tags).toEqual([]);
  });

  it('counts only published events carrying the term directly', async () => {
    const fresh = (await term('categories', { name: 'Counted' })).body.id;
    const child = (await term('categories', { name: 'Counted child', parent: fresh })).body.id;
    await ev.make(eventBody({ categories: [fresh] }));
    await ev.make(eventBody({ categories: [fresh], hide_from_listings: true }));
    await ev.make(eventBody({ categories: [fresh], status: 'draft' }));
    await ev.make(eventBody({ categories: [fresh], status: 'private' }));
    const last = await ev.make(eventBody({ categories: [child] }));
    expect(last.categories[0].count).toBe(1);
    expect((await t.http().get(`${API}/categories/${fresh}`)).body.count).toBe(2);
  });

  it('lets a contributor create terms by name through an event', async () => {
    const contributor = await t.user('contributor');
    const res = await ev.create(eventBody({ categories: ['Contributed'], tags: ['contributed-tag'] }), basic(contributor));
    expect(res.status).toBe(201);
    expect(res.body.categories[0]).toMatchObject({ name: 'Contributed', count: 0 });
    expect(res.body.tags[0]).toMatchObject({ name: 'contributed-tag', slug: 'contributed-tag' });
  });
});
