import { DateTime } from 'luxon';
import {
  ADMIN_AUTH,
  details,
  EMPTY_COST_DETAILS,
  EVENT_KEYS,
  eventBody,
  eventClient,
  eventRestUrl,
  eventUrl,
  expectError,
  globalId,
  hasJsonLd,
  nowUtcWall,
  secondsBetween,
  withoutJsonLd,
  type EventClient,
} from './support/events.js';
import { API, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app.js';

const HARBOUR_REQUEST = {
  title: 'Harbour Lantern Walk',
  description: 'Bring a lantern and join the evening walk along the quay.\n\nThe route is step-free.',
  excerpt: 'Evening walk with lanterns.',
  timezone: 'America/Chicago',
  start_date: '2027-03-20 19:30:00',
  end_date: '2027-03-20 21:00:00',
  cost: '$5 - $12',
  website: 'https://lanterns.example.net',
  show_map: true,
  show_map_link: true,
  featured: true,
  image: 'https://images.example.net/lanterns.jpg',
  categories: ['outdoor'],
  tags: ['family'],
  venue: {
    venue: 'Old Pier Pavilion',
    address: '12 Quay Road',
    city: 'Port Halden',
    state: 'WI',
    zip: '54301',
    country: 'United States',
    geo_lat: 44.5192,
    geo_lng: -88.0198,
  },
  organizer: [{ organizer: 'Tidewater Arts Guild', email: 'hi@tidewater.example' }],
};

const entities = (text: string) => [...text].map((char) => `&#${char.codePointAt(0)};`).join('');

describe('events: create (site UTC)', () => {
  let t: TestApp;
  let ev: EventClient;

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
  });
  afterAll(() => t.close());

  it('creates an event with nothing linked: 201, Location, Allow and exactly the keys and values of §8.2', async () => {
    const before = nowUtcWall();
    const res = await ev.create({ title: 'Board Game Evening', start_date: '2027-04-02 18:00:00', end_date: '2027-04-02 22:00:00' });
    expect(res.status).toBe(201);
    const id = res.body.id as number;
    expect(typeof id).toBe('number');
    expect(res.headers.location).toBe(`${PUBLIC_URL}${API}/events/${id}`);
    expect(res.headers.allow).toBe('GET, POST');
    expect(Object.keys(res.body)).toEqual(EVENT_KEYS);
    const { date, date_utc, modified, modified_utc } = res.body;
    expect(secondsBetween(date_utc, before)).toBeLessThan(10);
    expect(modified_utc).toBe(date_utc);
    expect(date).toBe(date_utc);
    expect(modified).toBe(modified_utc);
    expect(res.body).toEqual({
      id,
      global_id: globalId(id),
      global_id_lineage: [globalId(id)],
      author: '1',
      status: 'publish',
      date,
      date_utc,
      modified,
      modified_utc,
      url: eventUrl('board-game-evening'),
      rest_url: eventRestUrl(id),
      title: 'Board Game Evening',
      description: '',
      excerpt: '',
      slug: 'board-game-evening',
      image: false,
      all_day: false,
      start_date: '2027-04-02 18:00:00',
      start_date_details: { year: '2027', month: '04', day: '02', hour: '18', minutes: '00', seconds: '00' },
      end_date: '2027-04-02 22:00:00',
      end_date_details: { year: '2027', month: '04', day: '02', hour: '22', minutes: '00', seconds: '00' },
      utc_start_date: '2027-04-02 18:00:00',
      utc_start_date_details: details('2027-04-02 18:00:00'),
      utc_end_date: '2027-04-02 22:00:00',
      utc_end_date_details: details('2027-04-02 22:00:00'),
      timezone: 'UTC',
      timezone_abbr: 'UTC',
      cost: '',
      cost_details: EMPTY_COST_DETAILS,
      website: eventUrl('board-game-evening'),
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
      custom_fields: [],
      recurrence: null,
    });
    // the single GET is the same object plus json_ld
    const read = await ev.get(id);
    expect(read.status).toBe(200);
    expect(Object.keys(read.body)).toEqual([...EVENT_KEYS, 'json_ld']);
    expect(withoutJsonLd(read.body)).toEqual(res.body);
  });

  it('reports missing required fields in table order and nothing else', async () => {
    const none = await ev.create({});
    expect(none.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'These required parameters are missing: title, start_date, end_date',
      data: { status: 400, params: ['title', 'start_date', 'end_date'] },
    });
    expectError(await ev.create({ title: 'Only a title' }), 400, 'rest_missing_callback_param', ['start_date', 'end_date']);
    expectError(
      await ev.create({ start_date: '2027-04-02 18:00:00', end_date: '2027-04-02 22:00:00' }),
      400,
      'rest_missing_callback_param',
      ['title'],
    );
    expectError(await ev.create({ title: 'No end', start_date: '2027-04-02 18:00:00' }), 400, 'rest_missing_callback_param', ['end_date']);
    // missing wins over invalid: the bad date is not reported
    expectError(await ev.create({ title: 'x', start_date: 'before my birthday' }), 400, 'rest_missing_callback_param', ['end_date']);
  });

  it('reports empty, null and unparseable required fields as rest_invalid_param in table order', async () => {
    const empty = await ev.create({ title: 'Empty dates', start_date: '', end_date: '' });
    expectError(empty, 400, 'rest_invalid_param', ['start_date', 'end_date']);
    expect(empty.body.message).toBe('These parameters are invalid: start_date, end_date');
    expect(empty.body.data.details).toEqual([]);
    expectError(await ev.create(eventBody({ start_date: '   ' })), 400, 'rest_invalid_param', ['start_date']);
    expectError(await ev.create(eventBody({ end_date: 'before my birthday' })), 400, 'rest_invalid_param', ['end_date']);
    const several = await ev.create(eventBody({ website: 'foo', timezone: 'Mars/Olympus', status: 'trash', featured: 'yes' }));
    expectError(several, 400, 'rest_invalid_param', ['status', 'timezone', 'website', 'featured']);
    expect(several.body.data.details.featured.code).toBe('rest_invalid_type');
    expect(Object.keys(several.body.data.details)).toEqual(['featured']);
    // nothing was written
    const list = await ev.list('?status=any', ADMIN_AUTH);
    expect(list.body.events.map((event: { title: string }) => event.title)).not.toContain('Plain event');
  });

  it('refuses an empty, blank or null title with rest_invalid_param (title), reported with the other invalid fields', async () => {
    const empty = await ev.create({ title: '', start_date: '', end_date: '' });
    expectError(empty, 400, 'rest_invalid_param', ['title', 'start_date', 'end_date']);
    expect(empty.body.message).toBe('These parameters are invalid: title, start_date, end_date');
    expectError(await ev.create(eventBody({ title: '' })), 400, 'rest_invalid_param', ['title']);
    expectError(await ev.create(eventBody({ title: null })), 400, 'rest_invalid_param', ['title']);
    expectError(await ev.create(eventBody({ title: '   ' })), 400, 'rest_invalid_param', ['title']);
  });

  it('collects every invalid parameter, type errors and existence checks alike, in one answer (§7.7)', async () => {
    const res = await ev.create(eventBody({ status: 'trash', author: 987654, start_date: '2027-02-30', website: 'foo', venue: 987654 }));
    expectError(res, 400, 'rest_invalid_param', ['status', 'author', 'start_date', 'website', 'venue']);
  });

  it('validates author, slug, image, flags and website', async () => {
    expectError(await ev.create(eventBody({ author: 987654 })), 400, 'rest_invalid_param', ['author']);
    expectError(await ev.create(eventBody({ author: '' })), 400, 'rest_invalid_param', ['author']);
    expectError(await ev.create(eventBody({ author: 'foo' })), 400, 'rest_invalid_param', ['author']);
    expectError(await ev.create(eventBody({ slug: '' })), 400, 'rest_invalid_param', ['slug']);
    expectError(await ev.create(eventBody({ slug: '!!!' })), 400, 'rest_invalid_param', ['slug']);
    expectError(await ev.create(eventBody({ image: 'foo bar' })), 400, 'rest_invalid_param', ['image']);
    expectError(await ev.create(eventBody({ image: 'https://images.example.net/file.txt' })), 400, 'rest_invalid_param', ['image']);
    expectError(await ev.create(eventBody({ image: 987654 })), 400, 'rest_invalid_param', ['image']);
    expectError(await ev.create(eventBody({ website: 'ftp://files.example.net' })), 400, 'rest_invalid_param', ['website']);
    for (const value of ['abc', 'yes', '']) {
      const res = await ev.create(eventBody({ sticky: value }));
      expectError(res, 400, 'rest_invalid_param', ['sticky']);
      expect(res.body.data.details.sticky.code).toBe('rest_invalid_type');
    }
    const author = await t.user('author');
    const assigned = await ev.make(eventBody({ author: author.id, title: 'Assigned' }));
    expect(assigned.author).toBe(String(author.id));
  });

  it('stores text as plain titles, sanitised rendered descriptions and slugs made from the title', async () => {
    const first = await ev.make(
      eventBody({
        title: '  <b>Gen Slug Night!</b> & friends  ',
        description: 'Line one\nLine two\n\nSecond paragraph<script>alert(1)</script>',
        excerpt: '<p onclick="x()">Short</p>',
      }),
    );
    expect(first.title).toBe('Gen Slug Night! & friends');
    expect(first.slug).toBe('gen-slug-night-friends');
    expect(first.description).toBe('<p>Line one<br />\nLine two</p>\n<p>Second paragraph</p>');
    expect(first.excerpt).toBe('<p>Short</p>');
    const second = await ev.make(eventBody({ title: 'Gen Slug Night! & Friends' }));
    expect(second.slug).toBe('gen-slug-night-friends-2');
    const given = await ev.make(eventBody({ title: 'Anything', slug: 'Café Ünter den Linden' }));
    expect(given.slug).toBe('cafe-unter-den-linden');
    const nonLatin = await ev.make(eventBody({ title: '夜市' }));
    expect(nonLatin.slug).toBe(String(nonLatin.id));
  });

  it('enforces the length limits of §7.6 and the list limit of §7.3', async () => {
    expectError(await ev.create(eventBody({ title: 'x'.repeat(1001) })), 400, 'rest_invalid_param', ['title']);
    expect((await ev.create(eventBody({ title: 'é'.repeat(1000) }))).status).toBe(201);
    expectError(await ev.create(eventBody({ description: 'x'.repeat(65536) })), 400, 'rest_invalid_param', ['description']);
    expectError(await ev.create(eventBody({ slug: 'x'.repeat(201) })), 400, 'rest_invalid_param', ['slug']);
    expectError(await ev.create(eventBody({ website: `https://example.net/${'x'.repeat(250)}` })), 400, 'rest_invalid_param', ['website']);
    const many = Array.from({ length: 101 }, (_, index) => `Cat ${index}`);
    expectError(await ev.create(eventBody({ categories: many })), 400, 'rest_invalid_param', ['categories']);
    const include = Array.from({ length: 101 }, (_, index) => index + 1).join(',');
    expectError(await ev.list(`?include=${include}`), 400, 'rest_invalid_param', ['include']);
  });

  it('refuses a JSON body that is not an object with rest_invalid_json', async () => {
    for (const body of ['{"title": ', '["title"]', '"text"']) {
      const res = await t.http().post(`${API}/events`).set('Authorization', ADMIN_AUTH).set('Content-Type', 'application/json').send(body);
      expectError(res, 400, 'rest_invalid_json');
    }
  });

  it('accepts multipart bodies like form bodies', async () => {
    const res = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', ADMIN_AUTH)
      .field('title', 'Multipart Meetup')
      .field('start_date', '2027-04-02 18:00')
      .field('end_date', '2027-04-02 19:00')
      .field('categories[]', 'Multipart')
      .field('featured', 'true');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Multipart Meetup', start_date: '2027-04-02 18:00:00', featured: true });
    expect(res.body.categories.map((c: { name: string }) => c.name)).toEqual(['Multipart']);
  });

  it('refuses every custom field key when none is defined', async () => {
    const res = await ev.create(eventBody({ custom_fields: { _ecp_custom_2: 'Warm clothes' } }));
    expectError(res, 400, 'rest_invalid_param', ['custom_fields']);
  });

  it('ignores read-only fields sent on create', async () => {
    const res = await ev.create(
      eventBody({ timezone_abbr: 'foo', utc_start_date: 'foo', json_ld: { a: 1 }, id: 987654, url: 'x', global_id: 'y' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(987654);
    expect(res.body.timezone_abbr).toBe('UTC');
    expect(res.body.utc_start_date).toBe('2027-04-02 18:00:00');
    expect(res.body.global_id).toBe(globalId(res.body.id));
    expect(res.body.json_ld).toBeUndefined();
  });

  it('sets the flags, website and image; the website falls back to the url', async () => {
    const body = await ev.make(
      eventBody({
        title: 'Flags',
        show_map: 'true',
        show_map_link: 1,
        hide_from_listings: '1',
        sticky: true,
        featured: 'TRUE',
        website: 'https://flags.example.net/page',
        image: 'https://images.example.net/Flags.JPEG?size=2',
      }),
    );
    expect(body).toMatchObject({
      show_map: true,
      show_map_link: true,
      hide_from_listings: true,
      sticky: true,
      featured: true,
      website: 'https://flags.example.net/page',
    });
    expect(body.image).toEqual({ url: 'https://images.example.net/Flags.JPEG?size=2', id: expect.any(Number), extension: 'jpeg' });
    // the same URL gives the same registered image; its id also works
    const again = await ev.make(eventBody({ title: 'Flags again', image: 'https://images.example.net/Flags.JPEG?size=2' }));
    expect(again.image).toEqual(body.image);
    const byId = await ev.make(eventBody({ title: 'Flags by id', image: String(body.image.id) }));
    expect(byId.image).toEqual(body.image);
    const noImage = await ev.make(eventBody({ title: 'No image', image: '' }));
    expect(noImage.image).toBe(false);
    expect(noImage.website).toBe(noImage.url);
  });

  const COST_TABLE: Array<[unknown, string, string, string, string[]]> = [
    ['20$', '20$', '$', 'postfix', ['20']],
    ['$20', '$20', '$', 'prefix', ['20']],
    [['0$', '20$', '30$'], 'Free – 30$', '$', 'postfix', ['0', '20', '30']],
    ['5', '$5', '', '', ['5']],
    [[23, 12, 0], 'Free – $23', '', '', ['0', '12', '23']],
    ['€6.50 - €8.50', '€6.50 – €8.50', '€', 'prefix', ['6.50', '8.50']],
    ['12 EUR', '12EUR', 'EUR', 'postfix', ['12']],
    [['$10', '15 EUR'], '$10 – $15', '', '', ['10', '15']],
    ['Free', 'Free', '', '', ['0']],
    ['Donation', 'Donation', '', '', ['donation']],
    ['', '', '', '', []],
    ['1,500.50', '$1500.50', '', '', ['1500.50']],
    [12, '$12', '', '', ['12']],
    [['6.00', '6', '$3'], '$3 – $6.00', '$', 'prefix', ['3', '6.00']],
  ];

  it.each(COST_TABLE)('cost %j displays %j with the details of §8.8', async (cost, display, symbol, position, values) => {
    const body = await ev.make(eventBody({ title: 'Costly', cost }));
    expect(body.cost).toBe(display);
    expect(body.cost_details).toEqual({ currency_symbol: symbol, currency_code: '', currency_position: position, values });
  });

  it('builds json_ld offers from the smallest cost and leaves them out for non-numeric costs', async () => {
    const ranged = await ev.make(eventBody({ title: 'Range', cost: ['0$', '20$', '30$'] }));
    const read = await ev.get(ranged.id);
    expect(read.body.json_ld.offers).toEqual({
      '@type': 'Offer',
      price: '0',
      priceCurrency: 'USD',
      url: ranged.url,
      category: 'primary',
      availability: 'inStock',
      validFrom: `${ranged.date.slice(0, 10)}T00:00:00+00:00`,
    });
    const donation = await ev.make(eventBody({ title: 'Donation', cost: 'Donation' }));
    expect((await ev.get(donation.id)).body.json_ld.offers).toBeUndefined();
    const plain = await ev.make(eventBody({ title: 'Fish & "Chips"' }));
    const plainRead = await ev.get(plain.id);
    expect(plainRead.body.json_ld).toEqual({
      '@context': 'http://schema.org',
      '@type': 'Event',
      name: 'Fish &amp; &quot;Chips&quot;',
      description: '',
      url: plain.url,
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      eventStatus: 'https://schema.org/EventScheduled',
      startDate: '2027-04-02T18:00:00+00:00',
      endDate: '2027-04-02T22:00:00+00:00',
      performer: 'Organization',
    });
    expect(Object.keys(plainRead.body.json_ld)).toEqual([
      '@context',
      '@type',
      'name',
      'description',
      'url',
      'eventAttendanceMode',
      'eventStatus',
      'startDate',
      'endDate',
      'performer',
    ]);
  });

  it('links post_parent to an existing, live event other than itself', async () => {
    const parent = await ev.make(eventBody({ title: 'Parent' }));
    const child = await ev.create(eventBody({ title: 'Child', post_parent: parent.id }));
    expect(child.status).toBe(201);
    const children = await ev.list(`?post_parent=${parent.id}`);
    expect(children.body.events.map((event: { id: number }) => event.id)).toEqual([child.body.id]);
    expectError(await ev.create(eventBody({ post_parent: 987654 })), 400, 'rest_invalid_param', ['post_parent']);
    expectError(await ev.create(eventBody({ post_parent: 'abc' })), 400, 'rest_invalid_param', ['post_parent']);
    const venue = await t.http().post(`${API}/venues`).set('Authorization', ADMIN_AUTH).send({ venue: 'Parent hall' });
    expectError(await ev.create(eventBody({ post_parent: venue.body.id })), 400, 'rest_invalid_param', ['post_parent']);
    expectError(await ev.update(parent.id, { post_parent: parent.id }), 400, 'rest_invalid_param', ['post_parent']);
    const trashed = await ev.make(eventBody({ title: 'Trashed parent' }));
    await ev.remove(trashed.id);
    expectError(await ev.create(eventBody({ post_parent: trashed.id })), 400, 'rest_invalid_param', ['post_parent']);
    // 0 removes the parent
    expect((await ev.update(child.body.id, { post_parent: 0 })).status).toBe(200);
    expect((await ev.list(`?post_parent=${parent.id}`)).body.events).toEqual([]);
  });

  it('answers a create with the event as a read of it gives (json_ld apart), whatever it links and however it is stored', async () => {
    const first = await t.http().post(`${API}/organizers`).set('Authorization', ADMIN_AUTH).send({ organizer: 'First guild' });
    const second = await t.http().post(`${API}/organizers`).set('Authorization', ADMIN_AUTH).send({ organizer: 'Second guild' });
    const category = await t.http().post(`${API}/categories`).set('Authorization', ADMIN_AUTH).send({ name: 'Known category' });
    const bodies = [
      // organizers in the order given (not by id), terms by id and by new names, several of each
      eventBody({
        title: 'Linked  <b>walk</b> ',
        organizer: [second.body.id, first.body.id, { organizer: 'Inline guild' }],
        categories: [category.body.id, 'Brand new category'],
        tags: ['zeta', 'alpha', 'Mid tag'],
        venue: { venue: 'Answer hall', city: 'Lund' },
        cost: '10 - 20',
        sticky: true,
        hide_from_listings: true,
      }),
      // a draft with a password, a date of its own and a fixed-offset zone
      eventBody({ title: 'Hidden draft', status: 'draft', post_password: 'secret', date: '2026-01-02 03:04:05', timezone: 'UTC+5.5' }),
      // all day, nothing linked
      eventBody({ title: 'All day', all_day: true, start_date: '2027-05-01', end_date: '2027-05-02' }),
    ];
    const answers = [];
    for (const body of bodies) {
      const created = await ev.create(body);
      expect(created.status).toBe(201);
      const read = await ev.get(created.body.id, ADMIN_AUTH);
      expect(read.status).toBe(200);
      expect(withoutJsonLd(read.body)).toEqual(created.body);
      answers.push(created.body);
    }
    expect(answers[0].organizer.map((organizer: { id: number }) => organizer.id).slice(0, 2)).toEqual([second.body.id, first.body.id]);
    expect(answers[0].organizer).toHaveLength(3);
    expect(answers[0].categories.map((term: { name: string }) => term.name)).toEqual(['Brand new category', 'Known category']);
    expect(answers[0].tags.map((term: { name: string }) => term.name)).toEqual(['alpha', 'Mid tag', 'zeta']);
    expect(answers[1].status).toBe('draft');
  });
});

describe('events: the full example of §11.2 (site America/Chicago)', () => {
  let t: TestApp;
  let ev: EventClient;
  let created: Record<string, any>;
  let location: string;

  beforeAll(async () => {
    t = await startTestApp({ SITE_TIMEZONE: 'America/Chicago' });
    ev = eventClient(t);
    const res = await ev.create(HARBOUR_REQUEST);
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    created = res.body;
    location = res.headers.location;
  });
  afterAll(() => t.close());

  it('answers 201 with the event, its inline venue and organizer, new terms, image and cost', () => {
    const id = created.id;
    expect(location).toBe(`${PUBLIC_URL}${API}/events/${id}`);
    expect(Object.keys(created)).toEqual(EVENT_KEYS);
    expect(hasJsonLd(created)).toBe(false);
    const utcPublished = created.date_utc as string;
    expect(created.date).toBe(
      DateTime.fromISO(utcPublished.replace(' ', 'T'), { zone: 'UTC' }).setZone('America/Chicago').toFormat('yyyy-MM-dd HH:mm:ss'),
    );
    expect(created).toMatchObject({
      author: '1',
      status: 'publish',
      url: eventUrl('harbour-lantern-walk'),
      rest_url: eventRestUrl(id),
      title: 'Harbour Lantern Walk',
      description: '<p>Bring a lantern and join the evening walk along the quay.</p>\n<p>The route is step-free.</p>',
      excerpt: '<p>Evening walk with lanterns.</p>',
      slug: 'harbour-lantern-walk',
      image: { url: 'https://images.example.net/lanterns.jpg', id: expect.any(Number), extension: 'jpg' },
      all_day: false,
      start_date: '2027-03-20 19:30:00',
      start_date_details: details('2027-03-20 19:30:00'),
      end_date: '2027-03-20 21:00:00',
      end_date_details: details('2027-03-20 21:00:00'),
      utc_start_date: '2027-03-21 00:30:00',
      utc_start_date_details: { year: '2027', month: '03', day: '21', hour: '00', minutes: '30', seconds: '00' },
      utc_end_date: '2027-03-21 02:00:00',
      utc_end_date_details: details('2027-03-21 02:00:00'),
      timezone: 'America/Chicago',
      timezone_abbr: 'CDT',
      cost: '$5 – $12',
      cost_details: { currency_symbol: '$', currency_code: '', currency_position: 'prefix', values: ['5', '12'] },
      website: 'https://lanterns.example.net',
      show_map: true,
      show_map_link: true,
      hide_from_listings: false,
      sticky: false,
      featured: true,
      custom_fields: [],
    });
    const termUrls = (kind: string, termId: number) => ({
      self: `${PUBLIC_URL}${API}/${kind}/${termId}`,
      collection: `${PUBLIC_URL}${API}/${kind}`,
    });
    const [category] = created.categories;
    expect(created.categories).toHaveLength(1);
    expect(Object.keys(category)).toEqual([
      'name',
      'slug',
      'term_group',
      'term_taxonomy_id',
      'taxonomy',
      'description',
      'parent',
      'count',
      'filter',
      'id',
      'urls',
    ]);
    expect(category).toEqual({
      name: 'outdoor',
      slug: 'outdoor',
      term_group: 0,
      term_taxonomy_id: category.id,
      taxonomy: 'tribe_events_cat',
      description: '',
      parent: 0,
      count: 1,
      filter: 'raw',
      id: category.id,
      urls: termUrls('categories', category.id),
    });
    const [tag] = created.tags;
    expect(created.tags).toHaveLength(1);
    expect(tag).toEqual({
      name: 'family',
      slug: 'family',
      term_group: 0,
      term_taxonomy_id: tag.id,
      taxonomy: 'post_tag',
      description: '',
      parent: 0,
      count: 1,
      filter: 'raw',
      id: tag.id,
      urls: termUrls('tags', tag.id),
    });
    const venue = created.venue;
    expect(Object.keys(venue)).toEqual([
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
      'address',
      'city',
      'country',
      'state',
      'zip',
      'stateprovince',
      'geo_lat',
      'geo_lng',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ]);
    expect(venue).toMatchObject({
      author: '1',
      status: 'publish',
      url: `${PUBLIC_URL}/venue/old-pier-pavilion/`,
      venue: 'Old Pier Pavilion',
      slug: 'old-pier-pavilion',
      address: '12 Quay Road',
      city: 'Port Halden',
      country: 'United States',
      state: 'WI',
      zip: '54301',
      stateprovince: 'WI',
      geo_lat: 44.5192,
      geo_lng: -88.0198,
      show_map: true,
      show_map_link: true,
      global_id: globalId(venue.id),
      global_id_lineage: [globalId(venue.id)],
    });
    expect(created.organizer).toHaveLength(1);
    const organizer = created.organizer[0];
    expect(Object.keys(organizer)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'organizer',
      'slug',
      'email',
      'global_id',
      'global_id_lineage',
    ]);
    expect(organizer).toMatchObject({
      author: '1',
      status: 'publish',
      url: `${PUBLIC_URL}/organizer/tidewater-arts-guild/`,
      organizer: 'Tidewater Arts Guild',
      slug: 'tidewater-arts-guild',
      email: 'hi@tidewater.example',
      global_id: globalId(organizer.id),
    });
    // image, venue, organizer and event come from the one item sequence
    expect(new Set([id, venue.id, organizer.id, created.image.id]).size).toBe(4);
  });

  it('created the terms, the venue and the organizer as records of their own', async () => {
    const category = await t.http().get(`${API}/categories/${created.categories[0].id}`);
    expect(category.body).toMatchObject({ name: 'outdoor', slug: 'outdoor', count: 1, parent: 0 });
    const tag = await t.http().get(`${API}/tags/${created.tags[0].id}`);
    expect(tag.body).toMatchObject({ name: 'family', slug: 'family', count: 1 });
    const venue = await t.http().get(`${API}/venues/${created.venue.id}`);
    expect(venue.status).toBe(200);
    expect(venue.body.venue).toBe('Old Pier Pavilion');
    const organizer = await t.http().get(`${API}/organizers/${created.organizer[0].id}`);
    expect(organizer.body.organizer).toBe('Tidewater Arts Guild');
  });

  it('shows json_ld only on the single GET, with location, organizer, offers and zone offsets', async () => {
    const read = await ev.get(created.id);
    expect(read.status).toBe(200);
    expect(Object.keys(read.body)).toEqual([...EVENT_KEYS, 'json_ld']);
    const venueLd = {
      '@type': 'Place',
      name: 'Old Pier Pavilion',
      description: '',
      url: '',
      address: {
        '@type': 'PostalAddress',
        streetAddress: '12 Quay Road',
        addressLocality: 'Port Halden',
        addressRegion: 'WI',
        postalCode: '54301',
        addressCountry: 'United States',
      },
      geo: { '@type': 'GeoCoordinates', latitude: 44.5192, longitude: -88.0198 },
      telephone: '',
      sameAs: '',
    };
    const organizerLd = {
      '@type': 'Person',
      name: 'Tidewater Arts Guild',
      description: '',
      url: '',
      telephone: '',
      email: entities('hi@tidewater.example'),
      sameAs: '',
    };
    expect(read.body.json_ld).toEqual({
      '@context': 'http://schema.org',
      '@type': 'Event',
      name: 'Harbour Lantern Walk',
      description: '&lt;p&gt;Evening walk with lanterns.&lt;/p&gt;\\n',
      image: 'https://images.example.net/lanterns.jpg',
      url: eventUrl('harbour-lantern-walk'),
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      eventStatus: 'https://schema.org/EventScheduled',
      startDate: '2027-03-20T19:30:00-05:00',
      endDate: '2027-03-20T21:00:00-05:00',
      location: venueLd,
      organizer: organizerLd,
      offers: {
        '@type': 'Offer',
        price: '5',
        priceCurrency: 'USD',
        url: eventUrl('harbour-lantern-walk'),
        category: 'primary',
        availability: 'inStock',
        validFrom: `${created.date.slice(0, 10)}T00:00:00+00:00`,
      },
      performer: 'Organization',
    });
    expect(Object.keys(read.body.json_ld)).toEqual([
      '@context',
      '@type',
      'name',
      'description',
      'image',
      'url',
      'eventAttendanceMode',
      'eventStatus',
      'startDate',
      'endDate',
      'location',
      'organizer',
      'offers',
      'performer',
    ]);
    // embedded venue and organizer carry their json_ld at their place in the key order
    expect(Object.keys(read.body.venue)).toEqual([
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
      'address',
      'city',
      'country',
      'state',
      'zip',
      'stateprovince',
      'geo_lat',
      'geo_lng',
      'json_ld',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ]);
    expect(read.body.venue.json_ld).toEqual(venueLd);
    expect(Object.keys(read.body.organizer[0])).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'organizer',
      'slug',
      'email',
      'json_ld',
      'global_id',
      'global_id_lineage',
    ]);
    expect(read.body.organizer[0].json_ld).toEqual(organizerLd);
    // apart from json_ld the single GET equals the create answer and the list item
    expect(withoutJsonLd(read.body)).toEqual(created);
    const bySlug = await ev.get('by-slug/harbour-lantern-walk');
    expect(bySlug.body).toEqual(read.body);
    const list = await ev.list();
    expect(list.status).toBe(200);
    expect(hasJsonLd(list.body)).toBe(false);
    expect(list.body.events).toEqual([withoutJsonLd(read.body)]);
    const updated = await ev.update(created.id, { sticky: false });
    expect(hasJsonLd(updated.body)).toBe(false);
  });

  it('accepts the same event as a form body', async () => {
    const form = [
      'title=Harbour+Lantern+Walk',
      'timezone=America%2FChicago',
      'start_date=2027-03-20+19%3A30%3A00',
      'end_date=2027-03-20+21%3A00%3A00',
      'venue[venue]=Old+Pier+Pavilion',
      'venue[city]=Port+Halden',
      'organizer[0][organizer]=Tidewater+Arts+Guild',
      'categories[]=outdoor',
      'featured=1',
    ].join('&');
    const res = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', ADMIN_AUTH)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(form);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Harbour Lantern Walk',
      slug: 'harbour-lantern-walk-2',
      start_date: '2027-03-20 19:30:00',
      featured: true,
    });
    // the existing venue (same name and city), organizer and category are reused
    expect(res.body.venue.id).toBe(created.venue.id);
    expect(res.body.organizer.map((o: { id: number }) => o.id)).toEqual([created.organizer[0].id]);
    expect(res.body.categories.map((c: { id: number }) => c.id)).toEqual([created.categories[0].id]);
    expect(res.body.categories[0].count).toBe(2);
  });

  it('reads the publication date in the site zone; date_utc wins when both are sent', async () => {
    const local = await ev.make(eventBody({ title: 'Dated', date: '2026-01-05 10:00:00' }));
    expect(local).toMatchObject({ date: '2026-01-05 10:00:00', date_utc: '2026-01-05 16:00:00' });
    const both = await ev.make(eventBody({ title: 'Dated twice', date: '2026-01-05 10:00:00', date_utc: '2026-02-01 12:00:00' }));
    expect(both).toMatchObject({ date: '2026-02-01 06:00:00', date_utc: '2026-02-01 12:00:00' });
  });
});

describe('events: custom_fields (§8.11)', () => {
  let t: TestApp;
  let ev: EventClient;

  beforeAll(async () => {
    t = await startTestApp({
      EVENT_CUSTOM_FIELDS: JSON.stringify([
        { key: '_ecp_custom_2', label: 'Dress code' },
        { key: '_ecp_custom_5', label: 'Parking' },
        { key: 'shuttle', label: 'Shuttle' },
      ]),
    });
    ev = eventClient(t);
  });
  afterAll(() => t.close());

  it('returns the fields with a value in definition order, [] when none', async () => {
    const none = await ev.make(eventBody());
    expect(none.custom_fields).toEqual([]);
    const event = await ev.make(
      eventBody({ custom_fields: { shuttle: 'Every 20 minutes', _ecp_custom_5: 'Free lot', _ecp_custom_2: 'Warm clothes' } }),
    );
    expect(event.custom_fields).toEqual({
      _ecp_custom_2: { label: 'Dress code', value: 'Warm clothes' },
      _ecp_custom_5: { label: 'Parking', value: 'Free lot' },
      shuttle: { label: 'Shuttle', value: 'Every 20 minutes' },
    });
    expect(Object.keys(event.custom_fields)).toEqual(['_ecp_custom_2', '_ecp_custom_5', 'shuttle']);
    expect((await ev.get(event.id)).body.custom_fields).toEqual(event.custom_fields);
  });

  it('keeps keys not sent on update, removes keys sent empty or null, refuses unknown keys', async () => {
    const event = await ev.make(eventBody({ custom_fields: { _ecp_custom_2: 'Warm clothes', _ecp_custom_5: 'Free lot' } }));
    const one = await ev.update(event.id, { custom_fields: { _ecp_custom_5: '' } });
    expect(one.status).toBe(200);
    expect(one.body.custom_fields).toEqual({ _ecp_custom_2: { label: 'Dress code', value: 'Warm clothes' } });
    const other = await ev.update(event.id, { title: 'Renamed' });
    expect(other.body.custom_fields).toEqual({ _ecp_custom_2: { label: 'Dress code', value: 'Warm clothes' } });
    const cleared = await ev.update(event.id, { custom_fields: { _ecp_custom_2: null } });
    expect(cleared.body.custom_fields).toEqual([]);
    const unknown = await ev.update(event.id, { custom_fields: { _ecp_custom_9: 'x' } });
    expectError(unknown, 400, 'rest_invalid_param', ['custom_fields']);
    expectError(await ev.create(eventBody({ custom_fields: { nope: 'x' } })), 400, 'rest_invalid_param', ['custom_fields']);
  });
});

describe('events: COST_DECIMAL_SEPARATOR=,', () => {
  let t: TestApp;
  let ev: EventClient;

  beforeAll(async () => {
    t = await startTestApp({
      COST_DECIMAL_SEPARATOR: ',',
      DEFAULT_CURRENCY_SYMBOL: '€',
      DEFAULT_CURRENCY_POSITION: 'postfix',
      DEFAULT_CURRENCY_CODE: 'EUR',
    });
    ev = eventClient(t);
  });
  afterAll(() => t.close());

  it('reads commas as decimal separators and dots as thousands separators', async () => {
    const body = await ev.make(eventBody({ cost: ['1.500,50', '5,50'] }));
    expect(body.cost_details.values).toEqual(['5.50', '1500.50']);
    expect(body.cost).toBe('5.50€ – 1500.50€');
    const read = await ev.get(body.id);
    expect(read.body.json_ld.offers).toMatchObject({ price: '5.50', priceCurrency: 'EUR' });
  });
});

describe('events: links built from a PUBLIC_URL with port and path (§8.1, §2.4)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://calendar.example.org:8443/cal' });
  });
  afterAll(() => t.close());

  it('builds url, rest_url, Location and global_id from PUBLIC_URL', async () => {
    const res = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', ADMIN_AUTH)
      .send(eventBody({ title: 'Prefixed Party' }));
    expect(res.status).toBe(201);
    const id = res.body.id;
    const api = `https://calendar.example.org:8443/cal${API}`;
    expect(res.headers.location).toBe(`${api}/events/${id}`);
    expect(res.body).toMatchObject({
      global_id: `calendar.example.org/cal?id=${id}`,
      global_id_lineage: [`calendar.example.org/cal?id=${id}`],
      url: 'https://calendar.example.org:8443/cal/event/prefixed-party/',
      rest_url: `${api}/events/${id}`,
      website: 'https://calendar.example.org:8443/cal/event/prefixed-party/',
    });
    const prefixed = await t.http().get(`/cal${API}/events/${id}`);
    expect(prefixed.body.rest_url).toBe(`${api}/events/${id}`);
    const german = await t.http().get(`/de${API}/events/${id}`);
    expect(german.body.rest_url).toBe(`https://calendar.example.org:8443/cal/de${API}/events/${id}`);
    expect(german.body.url).toBe(res.body.url);
    const list = await t.http().get(`/de${API}/events`);
    expect(list.body.rest_url.startsWith(`https://calendar.example.org:8443/cal/de${API}/events/?page=1`)).toBe(true);
  });
});
