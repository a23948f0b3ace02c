import {
  details,
  EMPTY_COST_DETAILS,
  EVENT_KEYS,
  eventBody,
  eventClient,
  eventRestUrl,
  eventUrl,
  expectError,
  globalId,
  withoutJsonLd,
  type EventClient,
} from './support/events.js';
import { ADMIN, API, basic, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

describe('events: reading one event (§10.1)', () => {
  let t: TestApp;
  let ev: EventClient;
  let author: Credentials;
  let otherAuthor: Credentials;
  let subscriber: Credentials;
  let contributor: Credentials;
  let editor: Credentials;

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
    author = await t.user('author');
    otherAuthor = await t.user('author');
    subscriber = await t.user('subscriber');
    contributor = await t.user('contributor');
    editor = await t.user('editor');
  });
  afterAll(() => t.close());

  it('answers 400 (slug) for an unknown slug on the by-slug route, also for a venue slug', async () => {
    const res = await ev.get('by-slug/no-such-event');
    expect(res.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { slug: expect.any(String) } } });
    expect(Object.keys(res.body.data.params)).toEqual(['slug']);
    await t.http().post(`${API}/venues`).set('Authorization', basic(ADMIN)).send({ venue: 'Slugged Hall' });
    expectError(await ev.get('by-slug/slugged-hall'), 400, 'rest_invalid_param', ['slug']);
  });

  it('answers 404 rest-event-not-found for an unknown id, also 0', async () => {
    const res = await ev.get(987654);
    expect(res.body).toEqual({ code: 'rest-event-not-found', message: 'There is no event with ID 987654.', data: { status: 404 } });
    expectError(await ev.get(0), 404, 'rest-event-not-found');
    expectError(await ev.get(987654, basic(ADMIN)), 404, 'rest-event-not-found');
  });

  it('answers 400 rest-invalid-event-id for the id of a venue, an organizer or an image', async () => {
    const venue = await t.http().post(`${API}/venues`).set('Authorization', basic(ADMIN)).send({ venue: 'Not an event' });
    const res = await ev.get(venue.body.id);
    expect(res.body).toEqual({
      code: 'rest-invalid-event-id',
      message: `ID ${venue.body.id} does not belong to an event.`,
      data: { status: 400 },
    });
    const organizer = await t
      .http()
      .post(`${API}/organizers`)
      .set('Authorization', basic(ADMIN))
      .send({ organizer: 'Not an event either' });
    expectError(await ev.get(organizer.body.id), 400, 'rest-invalid-event-id');
    const withImage = await ev.make(eventBody({ image: 'https://images.example.net/read.png' }));
    expectError(await ev.get(withImage.image.id, basic(ADMIN)), 400, 'rest-invalid-event-id');
  });

  it('answers 403 event-no-longer-available for a trashed event, even to the administrator and by slug', async () => {
    const event = await ev.make(eventBody({ title: 'Gone Soon', post_password: 'pw' }));
    await ev.remove(event.id);
    for (const auth of [null, basic(ADMIN)]) {
      expectError(await ev.get(event.id, auth), 403, 'event-no-longer-available');
      expectError(await ev.get('by-slug/gone-soon__trashed', auth), 403, 'event-no-longer-available');
    }
    expectError(await ev.get('by-slug/gone-soon'), 400, 'rest_invalid_param', ['slug']);
    // the trash check comes before the access check
    const draft = await ev.make(eventBody({ title: 'Trashed Draft', status: 'draft' }), basic(author));
    await ev.remove(draft.id, basic(author));
    for (const auth of [null, basic(author), basic(subscriber)])
      expectError(await ev.get(draft.id, auth), 403, 'event-no-longer-available');
  });

  it('answers 403 event-not-accessible to readers who may not see a non-published event', async () => {
    const draft = await ev.make(eventBody({ title: 'Draft Plans', status: 'draft', post_password: 'pw' }), basic(author));
    const pending = await ev.make(eventBody({ title: 'Pending Plans', status: 'pending' }), basic(author));
    const future = await ev.make(eventBody({ title: 'Future Plans', status: 'future', date: '2030-01-01 00:00:00' }), basic(author));
    const priv = await ev.make(eventBody({ title: 'Private Plans', status: 'private' }), basic(author));
    expect([draft.status, pending.status, future.status, priv.status]).toEqual(['draft', 'pending', 'future', 'private']);
    for (const event of [draft, pending, future, priv]) {
      const res = await ev.get(event.id);
      expect(res.body).toEqual({ code: 'event-not-accessible', message: 'You are not allowed to view this event.', data: { status: 403 } });
      expectError(await ev.get(`by-slug/${event.slug}`), 403, 'event-not-accessible');
      expectError(await ev.get(event.id, basic(subscriber)), 403, 'event-not-accessible');
      expectError(await ev.get(event.id, basic(otherAuthor)), 403, 'event-not-accessible');
      expectError(await ev.get(event.id, basic(contributor)), 403, 'event-not-accessible');
      expect((await ev.get(event.id, basic(author))).status).toBe(200);
      expect((await ev.get(event.id, basic(editor))).status).toBe(200);
      expect((await ev.get(`by-slug/${event.slug}`, basic(ADMIN))).status).toBe(200);
    }
    // a contributor reads their own draft and pending events
    const own = await ev.make(eventBody({ title: 'Contributor Draft' }), basic(contributor));
    expect(own.status).toBe('draft');
    expect((await ev.get(own.id, basic(contributor))).status).toBe(200);
    const ownPending = await ev.make(eventBody({ title: 'Contributor Pending', status: 'publish' }), basic(contributor));
    expect(ownPending.status).toBe('pending');
    expect((await ev.get(ownPending.id, basic(contributor))).status).toBe(200);
  });

  it('answers 403 event-password-protected until the right password is given; writers need none', async () => {
    const event = await ev.make(eventBody({ title: 'Locked Room', post_password: 'Open Sesame' }), basic(author));
    const res = await ev.get(event.id);
    expect(res.body).toEqual({
      code: 'event-password-protected',
      message: 'This event is password protected; send the correct password to view it.',
      data: { status: 403 },
    });
    expectError(await ev.get(event.id, null, '?password=wrong'), 403, 'event-password-protected');
    expectError(await ev.get(event.id, null, '?password=open%20sesame'), 403, 'event-password-protected');
    expectError(await ev.get(event.id, basic(subscriber)), 403, 'event-password-protected');
    expectError(await ev.get(event.id, basic(otherAuthor)), 403, 'event-password-protected');
    expectError(await ev.get('by-slug/locked-room'), 403, 'event-password-protected');
    const unlocked = await ev.get(event.id, null, '?password=Open%20Sesame');
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.json_ld).toBeDefined();
    expect(unlocked.body.title).toBe('Locked Room');
    expect((await ev.get('by-slug/locked-room', null, '?password=Open%20Sesame')).status).toBe(200);
    const own = await ev.get(event.id, basic(author));
    expect(own.status).toBe(200);
    expect(withoutJsonLd(own.body)).toEqual(withoutJsonLd(unlocked.body));
    expect((await ev.get(event.id, basic(editor))).status).toBe(200);
    expect(JSON.stringify(own.body)).not.toContain('Open Sesame');
  });

  it('matches only numeric ids and non-empty slugs (§2.3)', async () => {
    for (const path of ['/events/abc', '/events/by-slug/', '/events/12abc']) {
      expectError(await t.http().get(`${API}${path}`), 404, 'rest_no_route');
    }
    expectError(await t.http().delete(`${API}/events`).set('Authorization', basic(ADMIN)), 404, 'rest_no_route');
    expectError(await t.http().put(`${API}/events`).set('Authorization', basic(ADMIN)).send({ title: 'x' }), 404, 'rest_no_route');
  });

  it('reads events hidden from listings, and finds slugs case-insensitively', async () => {
    const hidden = await ev.make(eventBody({ title: 'Hidden Gem', hide_from_listings: true }));
    const res = await ev.get(hidden.id);
    expect(res.status).toBe(200);
    expect(res.body.hide_from_listings).toBe(true);
    expect((await ev.get('by-slug/HIDDEN-Gem')).body.id).toBe(hidden.id);
    expect((await ev.get(`${String(hidden.id).padStart(6, '0')}`)).body.id).toBe(hidden.id);
    expect((await ev.get(`${hidden.id}/`)).body.id).toBe(hidden.id);
  });
});

describe('events: password redaction (§5.6, §8.12; site America/Chicago)', () => {
  let t: TestApp;
  let ev: EventClient;
  let author: Credentials;
  let event: Record<string, any>;

  beforeAll(async () => {
    t = await startTestApp({ SITE_TIMEZONE: 'America/Chicago', EVENT_CUSTOM_FIELDS: '[{"key":"_ecp_custom_2","label":"Dress code"}]' });
    ev = eventClient(t);
    author = await t.user('author');
    event = await ev.make(
      {
        title: 'Members Preview',
        description: 'Secret programme.',
        excerpt: 'Secret.',
        timezone: 'America/Chicago',
        start_date: '2027-04-10 17:00:00',
        end_date: '2027-04-10 19:00:00',
        cost: '$5',
        website: 'https://members.example.net',
        image: 'https://images.example.net/members.jpg',
        show_map: true,
        featured: true,
        categories: ['Previews'],
        tags: ['members'],
        venue: { venue: 'Members Lounge', address: '1 Hidden Way' },
        organizer: { organizer: 'Members Club' },
        custom_fields: { _ecp_custom_2: 'Formal' },
        post_password: 'letmein',
      },
      basic(author),
    );
  });
  afterAll(() => t.close());

  const redacted = () => ({
    id: event.id,
    global_id: globalId(event.id),
    global_id_lineage: [globalId(event.id)],
    author: String(author.id),
    status: 'publish',
    date: event.date,
    date_utc: event.date_utc,
    modified: event.modified,
    modified_utc: event.modified_utc,
    url: eventUrl('members-preview'),
    rest_url: eventRestUrl(event.id),
    title: 'Members Preview',
    description: '',
    excerpt: '',
    slug: 'members-preview',
    image: false,
    all_day: null,
    start_date: '2027-04-10 17:00:00',
    start_date_details: details('2027-04-10 17:00:00'),
    end_date: '2027-04-10 19:00:00',
    end_date_details: details('2027-04-10 19:00:00'),
    utc_start_date: '2027-04-10 22:00:00',
    utc_start_date_details: details('2027-04-10 22:00:00'),
    utc_end_date: '2027-04-11 00:00:00',
    utc_end_date_details: details('2027-04-11 00:00:00'),
    timezone: 'America/Chicago',
    timezone_abbr: 'CDT',
    cost: '',
    cost_details: EMPTY_COST_DETAILS,
    website: '',
    show_map: null,
    show_map_link: null,
    hide_from_listings: null,
    sticky: null,
    featured: null,
    categories: [],
    tags: [],
    venue: [],
    organizer: [],
    custom_fields: [],
    recurrence: null,
  });

  it('lists the protected event redacted for anonymous users and subscribers, keys in place', async () => {
    const res = await ev.list(`?include=${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body.events).toHaveLength(1);
    expect(Object.keys(res.body.events[0])).toEqual(EVENT_KEYS);
    expect(res.body.events[0]).toEqual(redacted());
    const subscriber = await t.user('subscriber');
    expect((await ev.list('', basic(subscriber))).body.events).toEqual([redacted()]);
    expect(JSON.stringify(res.body)).not.toContain('letmein');
  });

  it('shows it in full to its author, to editors and with the password, which is never echoed', async () => {
    const full = { ...event, venue: event.venue, custom_fields: { _ecp_custom_2: { label: 'Dress code', value: 'Formal' } } };
    expect(event.cost).toBe('$5');
    expect((await ev.list('', basic(author))).body.events).toEqual([full]);
    expect((await ev.list('', basic(ADMIN))).body.events).toEqual([full]);
    const unlocked = await ev.list('?password=letmein');
    expect(unlocked.body.events).toEqual([full]);
    expect(unlocked.body.rest_url).not.toContain('password');
    expect((await ev.list('?password=LETMEIN')).body.events).toEqual([redacted()]);
  });

  it('never lets search match a protected event for users who may not update it', async () => {
    for (const query of ['?search=members', '?search=secret', '?search=members&password=letmein']) {
      const res = await ev.list(query);
      expect(res.body.events).toEqual([]);
      expect(res.body.total).toBe(0);
    }
    expect((await ev.list('?search=secret', basic(author))).body.events.map((e: { id: number }) => e.id)).toEqual([event.id]);
  });

  it('redacts a protected venue embedded in an event and leaves it out of json_ld until unlocked', async () => {
    const venue = await t.http().post(`${API}/venues`).set('Authorization', basic(ADMIN)).send({
      venue: 'Vault Hall',
      address: '7 Strong St',
      city: 'Port Halden',
      state: 'WI',
      zip: '54301',
      phone: '555',
      geo_lat: 44.5,
      geo_lng: -88,
      post_password: 'vault',
    });
    expect(venue.status).toBe(201);
    const open = await ev.make(eventBody({ title: 'Open Night', venue: venue.body.id }));
    const res = await ev.get(open.id);
    expect(res.status).toBe(200);
    expect(res.body.venue).toMatchObject({
      id: venue.body.id,
      venue: 'Vault Hall',
      address: '',
      city: '',
      state: '',
      zip: '',
      phone: '',
      stateprovince: '',
      geo_lat: 0,
      geo_lng: 0,
    });
    expect(res.body.venue.json_ld).toBeUndefined();
    expect(res.body.json_ld.location).toBeUndefined();
    const unlocked = await ev.get(open.id, null, '?password=vault');
    expect(unlocked.body.venue).toMatchObject({ address: '7 Strong St', city: 'Port Halden', geo_lat: 44.5 });
    expect(unlocked.body.json_ld.location).toMatchObject({ '@type': 'Place', name: 'Vault Hall' });
  });
});
