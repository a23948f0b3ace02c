import { DateTime } from 'luxon';
import { ADMIN_AUTH, day, defaultWindow, eventBody, eventClient, expectError, formEncode, type EventClient } from './support/events.js';
import { API, basic, PUBLIC_URL, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

const LIST = `${PUBLIC_URL}${API}/events/`;
const enc = formEncode;

function lister(ev: EventClient) {
  return async (query: string, auth: string | null = null): Promise<number[]> => {
    const res = await ev.list(query, auth);
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.events.map((event: { id: number }) => event.id);
  };
}

describe('events list: default window and date filters (§9.4)', () => {
  let t: TestApp;
  let ev: EventClient;
  let ids: ReturnType<typeof lister>;
  const e: Record<string, number> = {};
  const W = DateTime.now().setZone('UTC').startOf('day').plus({ months: 24 }).toFormat('yyyy-MM-dd');
  const afterW = DateTime.fromISO(W, { zone: 'UTC' }).plus({ days: 1 }).toFormat('yyyy-MM-dd');

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
    ids = lister(ev);
    const make = async (name: string, start: string, end: string) => {
      e[name] = (await ev.make(eventBody({ title: name, start_date: start, end_date: end }))).id;
    };
    await make('past', `${day('UTC', -10)} 10:00:00`, `${day('UTC', -10)} 12:00:00`);
    await make('running', `${day('UTC', -2)} 10:00:00`, `${day('UTC', 1)} 10:00:00`);
    await make('lateStart', `${day('UTC', -2)} 23:00:00`, `${day('UTC', -1)} 00:30:00`);
    await make('yesterday', `${day('UTC', -1)} 00:00:00`, `${day('UTC', -1)} 01:00:00`);
    await make('windowEnd', `${W} 10:00:00`, `${W} 23:59:59`);
    await make('beyond', `${W} 10:00:00`, `${afterW} 00:00:01`);
    await make(
      'farFuture',
      `${DateTime.fromISO(W).plus({ months: 6 }).toFormat('yyyy-MM-dd')} 10:00:00`,
      `${DateTime.fromISO(W).plus({ months: 6 }).toFormat('yyyy-MM-dd')} 11:00:00`,
    );
  });
  afterAll(() => t.close());

  it('lists by default from yesterday 00:00:00 to 24 months ahead 23:59:59, echoing that window', async () => {
    const res = await ev.list();
    expect(res.status).toBe(200);
    expect(res.body.events.map((event: { id: number }) => event.id)).toEqual([e.yesterday, e.windowEnd]);
    const window = defaultWindow('UTC');
    expect(window.end).toBe(`${W} 23:59:59`);
    expect(res.body.rest_url).toBe(`${LIST}?page=1&per_page=6&start_date=${enc(window.start)}&end_date=${enc(window.end)}&status=publish`);
    expect(res.body.rest_url).toContain(`start_date=${day('UTC', -1)}+00%3A00%3A00`);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'total', 'total_pages']);
    expect(res.body.total).toBe(2);
    expect(res.headers['x-tec-total']).toBe('2');
    expect(res.headers['x-tec-totalpages']).toBe('1');
  });

  it('answers HEAD like GET without a body, with the X-TEC headers', async () => {
    const res = await t.http().head(`${API}/events`);
    expect(res.status).toBe(200);
    expect(res.headers['x-tec-total']).toBe('2');
    expect(res.headers['x-tec-totalpages']).toBe('1');
    expect(res.text ?? '').toBe('');
  });

  it('keeps the default end with only start_date, and the default start with only end_date', async () => {
    expect(await ids(`?start_date=${day('UTC', -10)}`)).toEqual([e.past, e.running, e.lateStart, e.yesterday, e.windowEnd]);
    const res = await ev.list(`?end_date=${afterW}`);
    expect(res.body.events.map((event: { id: number }) => event.id)).toEqual([e.yesterday, e.windowEnd, e.beyond]);
    expect(res.body.rest_url).toBe(
      `${LIST}?page=1&per_page=6&start_date=${enc(defaultWindow('UTC').start)}&end_date=${afterW}+23%3A59%3A59&status=publish`,
    );
  });

  it('applies no default when starts_* or ends_* is sent', async () => {
    const res = await ev.list(`?starts_after=${day('UTC', -30)}&per_page=10`);
    expect(res.body.events.map((event: { id: number }) => event.id)).toEqual([
      e.past,
      e.running,
      e.lateStart,
      e.yesterday,
      e.windowEnd,
      e.beyond,
      e.farFuture,
    ]);
    expect(res.body.rest_url).toBe(`${LIST}?page=1&per_page=10&status=publish&starts_after=${day('UTC', -30)}+23%3A59%3A59`);
    expect(await ids(`?ends_after=${day('UTC', -3)}&ends_before=${day('UTC', 5)}`)).toEqual([e.running, e.lateStart, e.yesterday]);
    // an explicit start_date still applies alongside
    expect(await ids(`?ends_before=${day('UTC', 5)}&start_date=${day('UTC', -2)}`)).toEqual([e.running, e.lateStart, e.yesterday]);
  });

  it('parses strict_dates words and refuses anything else', async () => {
    for (const [word, echo] of [
      ['yes', '1'],
      ['1', '1'],
      ['TRUE', '1'],
      ['on', '1'],
      ['0', '0'],
      ['no', '0'],
      ['OFF', '0'],
      ['false', '0'],
    ]) {
      const res = await ev.list(`?strict_dates=${word}`);
      expect(res.status).toBe(200);
      expect(res.body.rest_url.endsWith(`&status=publish&strict_dates=${echo}`)).toBe(true);
    }
    for (const word of ['maybe', '', 'y', '2']) {
      const res = await ev.list(`?strict_dates=${word}`);
      expectError(res, 400, 'rest_invalid_param', ['strict_dates']);
    }
  });

  it('refuses unparseable date filters, naming each', async () => {
    expectError(await ev.list('?start_date=before+my+birthday'), 400, 'rest_invalid_param', ['start_date']);
    expectError(await ev.list('?starts_before=2027-02-30&ends_after=soon-ish&start_date=2027-13-01'), 400, 'rest_invalid_param', [
      'start_date',
      'starts_before',
      'ends_after',
    ]);
    expectError(await ev.list('?end_date='), 400, 'rest_invalid_param', ['end_date']);
  });

  it('reports an empty date filter together with the unparseable ones (§7.7)', async () => {
    expectError(await ev.list('?starts_before=2027-02-30&ends_after=soon-ish&end_date='), 400, 'rest_invalid_param', [
      'end_date',
      'starts_before',
      'ends_after',
    ]);
  });
});

describe('events list: the worked example of §9.4', () => {
  let t: TestApp;
  let ev: EventClient;
  let ids: ReturnType<typeof lister>;
  const e: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
    ids = lister(ev);
    const rows: Array<[string, string, string]> = [
      ['A', '2027-05-31 17:00:00', '2027-05-31 19:00:00'],
      ['B', '2027-06-01 16:00:00', '2027-06-01 16:30:00'],
      ['C', '2027-06-01 20:00:00', '2027-06-01 20:30:00'],
      ['D', '2027-06-02 10:00:00', '2027-06-02 11:00:00'],
      ['E', '2027-05-30 10:00:00', '2027-06-02 10:00:00'],
      ['F', '2027-05-29 10:00:00', '2027-06-03 10:00:00'],
    ];
    for (const [name, start, end] of rows) e[name] = (await ev.make(eventBody({ title: name, start_date: start, end_date: end }))).id;
  });
  afterAll(() => t.close());

  it('whole days: start_date=2027-06-01 15:00:00&end_date=2027-06-01 18:00:00 gives B, C', async () => {
    const res = await ev.list(`?start_date=${enc('2027-06-01 15:00:00')}&end_date=${enc('2027-06-01 18:00:00')}`);
    expect(res.body.events.map((event: { id: number }) => event.id)).toEqual([e.B, e.C]);
    expect(res.body.rest_url).toBe(
      `${LIST}?page=1&per_page=6&start_date=2027-06-01+00%3A00%3A00&end_date=2027-06-01+23%3A59%3A59&status=publish`,
    );
  });

  it('strict: the same with strict_dates=true gives B', async () => {
    const res = await ev.list(`?start_date=${enc('2027-06-01 15:00:00')}&end_date=${enc('2027-06-01 18:00:00')}&strict_dates=true`);
    expect(res.body.events.map((event: { id: number }) => event.id)).toEqual([e.B]);
    expect(res.body.rest_url).toBe(
      `${LIST}?page=1&per_page=6&start_date=2027-06-01+15%3A00%3A00&end_date=2027-06-01+18%3A00%3A00&status=publish&strict_dates=1`,
    );
  });

  it('overlap: ends_after=2027-05-31&starts_before=2027-06-02 gives F, E, B, C, D', async () => {
    const res = await ev.list('?ends_after=2027-05-31&starts_before=2027-06-02');
    expect(res.body.events.map((event: { id: number }) => event.id)).toEqual([e.F, e.E, e.B, e.C, e.D]);
    expect(res.body.rest_url).toBe(
      `${LIST}?page=1&per_page=6&status=publish&starts_before=2027-06-02+23%3A59%3A59&ends_after=2027-05-31+23%3A59%3A59`,
    );
  });

  it('overlap inside a window: adding start_date=2027-05-30&end_date=2027-06-02 gives E, B, C, D', async () => {
    expect(await ids('?ends_after=2027-05-31&starts_before=2027-06-02&start_date=2027-05-30&end_date=2027-06-02')).toEqual([
      e.E,
      e.B,
      e.C,
      e.D,
    ]);
  });

  it('reads instants in filters as site time', async () => {
    expect(
      await ids(`?start_date=${enc('2027-06-01T15:00:00+00:00')}&end_date=${enc('2027-06-01T13:00:00-05:00')}&strict_dates=1`),
    ).toEqual([e.B]);
    expect(await ids(`?start_date=${Date.UTC(2027, 5, 1, 15) / 1000}&end_date=${Date.UTC(2027, 5, 1, 18) / 1000}&strict_dates=1`)).toEqual([
      e.B,
    ]);
  });
});

describe('events list: filters (§9.4)', () => {
  let t: TestApp;
  let ev: EventClient;
  let ids: ReturnType<typeof lister>;
  let author: Credentials;

  const post = async (kind: string, body: Record<string, unknown>) =>
    (await t.http().post(`${API}/${kind}`).set('Authorization', ADMIN_AUTH).send(body)).body;
  const on = (date: string, extra: Record<string, unknown> = {}, auth?: string) =>
    ev.make(eventBody({ start_date: `${date} 12:00:00`, end_date: `${date} 13:00:00`, ...extra }), auth);
  const dayQuery = (date: string) => `start_date=${date}&end_date=${date}`;

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
    ids = lister(ev);
    author = await t.user('author');
  });
  afterAll(() => t.close());

  it('search: every term in any field, quoted phrases, exclusions; protected events match only for their writers', async () => {
    const date = '2027-07-01';
    const s1 = (await on(date, { title: 'Harbour Lantern Walk', description: 'Join the walk along the quay.', excerpt: 'Evening stroll' }))
      .id;
    const s2 = (await on(date, { title: 'Lantern Workshop', description: 'Make your own lantern.' })).id;
    const s3 = (await on(date, { title: 'Quay Market', description: 'Fresh fish and "night market" stalls. 100% local_food' })).id;
    const s4 = (await on(date, { title: 'Secret Lantern', post_password: 'pw' }, basic(author))).id;
    const q = (search: string) => `?${dayQuery(date)}&search=${encodeURIComponent(search)}`;
    expect(await ids(q('lantern'))).toEqual([s1, s2]);
    expect(await ids(q('lantern'), basic(author))).toEqual([s1, s2, s4]);
    expect(await ids(q('lantern'), ADMIN_AUTH)).toEqual([s1, s2, s4]);
    expect(await ids(q('lantern'), null)).not.toContain(s4);
    expect(await ids(`${q('lantern')}&password=pw`)).toEqual([s1, s2]);
    expect(await ids(q('lantern quay'))).toEqual([s1]);
    expect(await ids(q('lantern,quay'))).toEqual([s1]);
    expect(await ids(q('lantern+quay'))).toEqual([s1]);
    expect(await ids(q('STROLL'))).toEqual([s1]);
    expect(await ids(q('"night market"'))).toEqual([s3]);
    expect(await ids(q('"market night"'))).toEqual([]);
    expect(await ids(q('lantern -workshop'))).toEqual([s1]);
    expect(await ids(q('-lantern'))).toEqual([s3]);
    expect(await ids(q('100%'))).toEqual([s3]);
    expect(await ids(q('l_cal'))).toEqual([]);
    const res = await ev.list(q('lantern quay'));
    expect(res.body.rest_url).toBe(
      `${LIST}?page=1&per_page=6&start_date=${date}+00%3A00%3A00&end_date=${date}+23%3A59%3A59&search=lantern+quay&status=publish`,
    );
    expectError(await ev.list('?search='), 400, 'rest_invalid_param', ['search']);
    expectError(await ev.list('?search=%20%20'), 400, 'rest_invalid_param', ['search']);
  });

  it('categories by id and slug, including descendants; tags; unknown terms are 400', async () => {
    const date = '2027-07-02';
    const outdoor = await post('categories', { name: 'Outdoor' });
    const night = await post('categories', { name: 'Night walks', parent: outdoor.id });
    const deeper = await post('categories', { name: 'Full moon', parent: night.id });
    const indoor = await post('categories', { name: 'Indoor' });
    const empty = await post('categories', { name: 'Empty' });
    const family = await post('tags', { name: 'family' });
    const e1 = (await on(date, { categories: [outdoor.id] })).id;
    const e2 = (await on(date, { categories: [night.id] })).id;
    const e3 = (await on(date, { tags: [family.id], categories: [deeper.id] })).id;
    const e4 = (await on(date, { categories: [indoor.id] })).id;
    expect(await ids(`?${dayQuery(date)}&categories=${outdoor.id}`)).toEqual([e1, e2, e3]);
    expect(await ids(`?${dayQuery(date)}&categories=outdoor`)).toEqual([e1, e2, e3]);
    expect(await ids(`?${dayQuery(date)}&categories=night-walks`)).toEqual([e2, e3]);
    expect(await ids(`?${dayQuery(date)}&categories=${indoor.id},night-walks`)).toEqual([e2, e3, e4]);
    expect(await ids(`?${dayQuery(date)}&categories[]=indoor&categories[]=${deeper.id}`)).toEqual([e3, e4]);
    expect(await ids(`?${dayQuery(date)}&categories=${empty.id}`)).toEqual([]);
    expect(await ids(`?${dayQuery(date)}&tags=${family.id}`)).toEqual([e3]);
    expect(await ids(`?${dayQuery(date)}&tags=family&categories=indoor`)).toEqual([]);
    const echo = await ev.list(`?${dayQuery(date)}&tags=family&categories=${indoor.id},night-walks`);
    expect(echo.body.rest_url).toBe(
      `${LIST}?page=1&per_page=6&start_date=${date}+00%3A00%3A00&end_date=${date}+23%3A59%3A59&status=publish&categories=${indoor.id}%2Cnight-walks&tags=family`,
    );
    expectError(await ev.list('?categories=987654'), 400, 'rest_invalid_param', ['categories']);
    expectError(await ev.list('?categories=no-such-slug'), 400, 'rest_invalid_param', ['categories']);
    expectError(await ev.list(`?categories=${family.id}`), 400, 'rest_invalid_param', ['categories']);
    expectError(await ev.list(`?tags=${outdoor.id}`), 400, 'rest_invalid_param', ['tags']);
  });

  it('venue and organizer filters; featured', async () => {
    const date = '2027-07-03';
    const v1 = await post('venues', { venue: 'Filter Venue One' });
    const v2 = await post('venues', { venue: 'Filter Venue Two' });
    const gone = await post('venues', { venue: 'Filter Venue Gone' });
    await t.http().delete(`${API}/venues/${gone.id}`).set('Authorization', ADMIN_AUTH);
    const o1 = await post('organizers', { organizer: 'Filter Org One' });
    const o2 = await post('organizers', { organizer: 'Filter Org Two' });
    const e1 = (await on(date, { venue: v1.id, organizer: [o1.id, o2.id], featured: true })).id;
    const e2 = (await on(date, { venue: v2.id, organizer: [o2.id] })).id;
    const e3 = (await on(date, {})).id;
    expect(await ids(`?${dayQuery(date)}&venue=${v1.id}`)).toEqual([e1]);
    expect(await ids(`?${dayQuery(date)}&venue=${v1.id},${v2.id}`)).toEqual([e1, e2]);
    expect(await ids(`?${dayQuery(date)}&venue[]=${v2.id}&venue[]=${v1.id}`)).toEqual([e1, e2]);
    expect(await ids(`?${dayQuery(date)}&organizer=${o1.id},${o2.id}`)).toEqual([e1, e2]);
    expect(await ids(`?${dayQuery(date)}&organizer=${o1.id}&venue=${v2.id}`)).toEqual([]);
    expect(await ids(`?${dayQuery(date)}&featured=true`)).toEqual([e1]);
    expect(await ids(`?${dayQuery(date)}&featured=0`)).toEqual([e2, e3]);
    expect(await ids(`?${dayQuery(date)}`)).toEqual([e1, e2, e3]);
    expectError(await ev.list(`?venue=987654`), 400, 'rest_invalid_param', ['venue']);
    expectError(await ev.list(`?venue=${o1.id}`), 400, 'rest_invalid_param', ['venue']);
    expectError(await ev.list(`?venue=abc`), 400, 'rest_invalid_param', ['venue']);
    expectError(await ev.list(`?venue=${gone.id}`), 400, 'rest_invalid_param', ['venue']);
    expectError(await ev.list(`?organizer=${v1.id}`), 400, 'rest_invalid_param', ['organizer']);
    expectError(await ev.list(`?organizer=${v1.id}&venue=${o1.id}`), 400, 'rest_invalid_param', ['venue', 'organizer']);
    const featured = await ev.list('?featured=abc');
    expectError(featured, 400, 'rest_invalid_param', ['featured']);
    expect(featured.body.data.details.featured.code).toBe('rest_invalid_type');
    expectError(await ev.list('?featured=yes'), 400, 'rest_invalid_param', ['featured']);
  });

  it('geoloc and the geofence around geoloc_lat/geoloc_lng', async () => {
    const date = '2027-07-04';
    const here = await post('venues', { venue: 'Geo Here', geo_lat: 44.5192, geo_lng: -88.0198 });
    const north = await post('venues', { venue: 'Geo North', geo_lat: 44.9192, geo_lng: -88.0198 });
    const nowhere = await post('venues', { venue: 'Geo Nowhere' });
    const e1 = (await on(date, { venue: here.id })).id;
    const e2 = (await on(date, { venue: nowhere.id })).id;
    const e3 = (await on(date, {})).id;
    const e4 = (await on(date, { venue: north.id })).id;
    expect(await ids(`?${dayQuery(date)}&geoloc=true`)).toEqual([e1, e4]);
    expect(await ids(`?${dayQuery(date)}&geoloc=false`)).toEqual([e2, e3]);
    expect(await ids(`?${dayQuery(date)}&geoloc_lat=44.5192&geoloc_lng=-88.0198`)).toEqual([e1]);
    expect(await ids(`?${dayQuery(date)}&geoloc_lat=44.8192&geoloc_lng=-88.0198`)).toEqual([e1, e4]);
    expect(await ids(`?${dayQuery(date)}&geoloc_lat=10&geoloc_lng=10`)).toEqual([]);
    const lonely = await ev.list('?geoloc_lat=44.5');
    expectError(lonely, 400, 'rest_invalid_param', ['geoloc_lng']);
    expect(lonely.body.data.params.geoloc_lng).toBe('Send geoloc_lat and geoloc_lng together.');
    expectError(await ev.list('?geoloc_lng=-88'), 400, 'rest_invalid_param', ['geoloc_lat']);
    expectError(await ev.list('?geoloc_lat=abc&geoloc_lng=1'), 400, 'rest_invalid_param', ['geoloc_lat']);
    expectError(await ev.list('?geoloc_lat=91&geoloc_lng=1'), 400, 'rest_invalid_param', ['geoloc_lat']);
    expectError(await ev.list('?geoloc_lat=1&geoloc_lng=-181'), 400, 'rest_invalid_param', ['geoloc_lng']);
    expectError(await ev.list('?geoloc=maybe'), 400, 'rest_invalid_param', ['geoloc']);
  });

  it('post_parent lists the children of an event, not the event itself', async () => {
    const date = '2027-07-05';
    const parent = (await on(date, { title: 'Festival' })).id;
    const lonely = (await on(date, { title: 'No kids' })).id;
    const c1 = (
      await ev.make(eventBody({ title: 'Child late', start_date: `${date} 15:00:00`, end_date: `${date} 16:00:00`, post_parent: parent }))
    ).id;
    const c2 = (
      await ev.make(
        eventBody({ title: 'Child early', start_date: `${date} 09:00:00`, end_date: `${date} 10:00:00`, post_parent: String(parent) }),
      )
    ).id;
    expect(await ids(`?${dayQuery(date)}&post_parent=${parent}`)).toEqual([c2, c1]);
    expect(await ids(`?post_parent=${lonely}`)).toEqual([]);
    const res = await ev.list(`?post_parent=${parent}&${dayQuery(date)}`);
    expect(res.body.rest_url).toBe(
      `${LIST}?page=1&per_page=6&start_date=${date}+00%3A00%3A00&end_date=${date}+23%3A59%3A59&status=publish&post_parent=${parent}`,
    );
    const venue = await post('venues', { venue: 'Not a parent' });
    const trashed = (await on(date, { title: 'Trashed parent' })).id;
    await ev.remove(trashed);
    for (const value of ['abc', '987654', String(venue.id), String(trashed), '0']) {
      expectError(await ev.list(`?post_parent=${value}`), 400, 'rest_invalid_param', ['post_parent']);
    }
  });

  it('ticketed=false adds nothing; ticketed=true is refused with event-tickets-not-active', async () => {
    const ok = await ev.list('?ticketed=false');
    expect(ok.status).toBe(200);
    expect(ok.body.rest_url.endsWith('&status=publish&ticketed=0')).toBe(true);
    const res = await ev.list('?ticketed=true');
    expectError(res, 400, 'rest_invalid_param', ['ticketed']);
    expect(res.body.data.params.ticketed).toBe('Ticket information is not available in this calendar.');
    expect(res.body.data.details.ticketed).toMatchObject({ code: 'event-tickets-not-active', data: { param: 'ticketed' } });
  });

  it('never lists events hidden from listings, not even with include, but they stay readable', async () => {
    const date = '2027-07-06';
    const hidden = (await on(date, { hide_from_listings: true })).id;
    const shown = (await on(date, {})).id;
    expect(await ids(`?${dayQuery(date)}`)).toEqual([shown]);
    expect(await ids(`?${dayQuery(date)}&status=any`, ADMIN_AUTH)).toEqual([shown]);
    expect(await ids(`?include=${hidden},${shown}`, ADMIN_AUTH)).toEqual([shown]);
    expect((await ev.get(hidden)).status).toBe(200);
  });

  it('include ignores every date filter and orders by publication date, then id', async () => {
    const past = (
      await ev.make(
        eventBody({
          title: 'Inc past',
          start_date: `${day('UTC', -20)} 10:00`,
          end_date: `${day('UTC', -20)} 11:00`,
          date: '2025-03-01 00:00:00',
        }),
      )
    ).id;
    const far = (
      await ev.make(
        eventBody({ title: 'Inc far', start_date: '2035-01-01 10:00', end_date: '2035-01-01 11:00', date: '2025-01-01 00:00:00' }),
      )
    ).id;
    const near = (
      await ev.make(
        eventBody({
          title: 'Inc near',
          start_date: '2027-07-07 10:00',
          end_date: '2027-07-07 11:00',
          date: '2025-02-01 00:00:00',
          featured: true,
        }),
      )
    ).id;
    const twin = (
      await ev.make(
        eventBody({ title: 'Inc twin', start_date: '2027-07-07 09:00', end_date: '2027-07-07 11:00', date: '2025-02-01 00:00:00' }),
      )
    ).id;
    const venue = await post('venues', { venue: 'Included venue' });
    const res = await ev.list(`?include=${past},${far},${near},${twin},${venue.id}`);
    expect(res.body.events.map((event: { id: number }) => event.id)).toEqual([far, near, twin, past]);
    expect(res.body.rest_url).toBe(`${LIST}?page=1&per_page=6&status=publish&include=${past}%2C${far}%2C${near}%2C${twin}%2C${venue.id}`);
    const dated = await ev.list(`?include[]=${past}&include[]=${far}&start_date=2027-07-07&end_date=2027-07-07&starts_after=2030-01-01`);
    expect(dated.body.events.map((event: { id: number }) => event.id)).toEqual([far, past]);
    expect(dated.body.rest_url).toBe(`${LIST}?page=1&per_page=6&status=publish&include=${past}%2C${far}`);
    expect(await ids(`?include=${past},${far},${near}&featured=true`)).toEqual([near]);
    for (const value of ['abc', '0', '-3', `${past},abc`]) {
      expectError(await ev.list(`?include=${value}`), 400, 'rest_invalid_param', ['include']);
    }
  });

  it('orders by local start wall time, then by id', async () => {
    const date = '2027-07-08';
    const utcNoon = (await ev.make(eventBody({ start_date: `${date} 12:00:00`, end_date: `${date} 13:00:00` }))).id;
    const chicagoTen = (
      await ev.make(eventBody({ timezone: 'America/Chicago', start_date: `${date} 10:00:00`, end_date: `${date} 11:00:00` }))
    ).id;
    const first = (await ev.make(eventBody({ start_date: `${date} 14:00:00`, end_date: `${date} 18:00:00` }))).id;
    const second = (await ev.make(eventBody({ start_date: `${date} 14:00:00`, end_date: `${date} 15:00:00` }))).id;
    const early = (await ev.make(eventBody({ start_date: `${date} 08:00:00`, end_date: `${date} 09:00:00` }))).id;
    expect(await ids(`?${dayQuery(date)}`)).toEqual([early, chicagoTen, utcNoon, first, second]);
  });

  it('compares the local wall times of events in other zones with site wall times', async () => {
    const date = '2027-07-09';
    const kolkata = (await ev.make(eventBody({ timezone: 'Asia/Kolkata', start_date: `${date} 02:00:00`, end_date: `${date} 03:00:00` })))
      .id;
    // 02:00 in Kolkata is the evening before in UTC, but its local wall time lies on the day
    expect(await ids(`?${dayQuery(date)}`)).toEqual([kolkata]);
    expect(await ids(`?start_date=${enc(`${date} 01:00:00`)}&end_date=${enc(`${date} 04:00:00`)}&strict_dates=1`)).toEqual([kolkata]);
  });

  it('echoes every given filter in the order of §9.3 and drops password and unknown parameters', async () => {
    const date = '2027-07-10';
    const venue = await post('venues', { venue: 'Echo Venue', geo_lat: 10, geo_lng: 20 });
    const organizer = await post('organizers', { organizer: 'Echo Org' });
    const category = await post('categories', { name: 'Echo Cat' });
    const tag = await post('tags', { name: 'echo-tag' });
    const parent = (await on('2027-07-11', { title: 'Echo parent' })).id;
    const child = (
      await on(date, {
        title: 'Echo child',
        venue: venue.id,
        organizer: [organizer.id],
        categories: [category.id],
        tags: [tag.id],
        post_parent: parent,
      })
    ).id;
    const query = [
      'geoloc_lng=20',
      'geoloc_lat=10',
      'geoloc=1',
      'strict_dates=0',
      `tags=echo-tag`,
      `categories=${category.id}`,
      'featured=false',
      `organizer=${organizer.id}`,
      `venue=${venue.id}`,
      'ticketed=false',
      'ends_after=2027-07-09',
      `ends_before=${date}`,
      'starts_after=2027-07-09',
      'starts_before=2027-07-10',
      `post_parent=${parent}`,
      'status=publish',
      'search=echo',
      `end_date=${date}`,
      `start_date=${date}`,
      'per_page=3',
      'page=1',
      'password=secret',
      'foo=bar',
      '_fields=id',
    ].join('&');
    const res = await ev.list(`?${query}`);
    expect(res.status).toBe(200);
    expect(res.body.events.map((event: { id: number }) => event.id)).toEqual([child]);
    expect(res.body.rest_url).toBe(
      `${LIST}?page=1&per_page=3&start_date=${date}+00%3A00%3A00&end_date=${date}+23%3A59%3A59&search=echo&status=publish&post_parent=${parent}` +
        `&starts_before=2027-07-10+23%3A59%3A59&starts_after=2027-07-09+23%3A59%3A59&ends_before=${date}+23%3A59%3A59&ends_after=2027-07-09+23%3A59%3A59` +
        `&ticketed=0&venue=${venue.id}&organizer=${organizer.id}&featured=0&categories=${category.id}&tags=echo-tag&strict_dates=0&geoloc=1` +
        `&geoloc_lat=10&geoloc_lng=20`,
    );
  });

  it('reproduces the rest_url example of §9.3: per_page=2&search=lantern&venue=A,B', async () => {
    const v1 = await post('venues', { venue: 'Lantern Venue One' });
    const v2 = await post('venues', { venue: 'Lantern Venue Two' });
    for (const [index, venue] of [v1, v2, v1].entries()) {
      await on(`2027-07-1${2 + index}`, { title: `Lantern parade ${index}`, venue: venue.id });
    }
    const res = await ev.list(`?per_page=2&search=lantern&venue=${v1.id},${v2.id}`);
    const { start, end } = defaultWindow('UTC');
    const filters = `start_date=${enc(start)}&end_date=${enc(end)}&search=lantern&status=publish&venue=${v1.id}%2C${v2.id}`;
    expect(res.body.rest_url).toBe(`${LIST}?page=1&per_page=2&${filters}`);
    expect(res.body.next_rest_url).toBe(`${LIST}?per_page=2&${filters}&page=2`);
    expect(res.body.previous_rest_url).toBeUndefined();
    expect(res.body).toMatchObject({ total: 3, total_pages: 2 });
    const next = await t.http().get(res.body.next_rest_url.replace(PUBLIC_URL, ''));
    expect(next.body.events).toHaveLength(1);
    expect(next.body.rest_url).toBe(`${LIST}?page=2&per_page=2&${filters}`);
    expect(next.body.previous_rest_url).toBe(`${LIST}?per_page=2&${filters}`);
  });

  it('refuses list parameters of the wrong shape', async () => {
    for (const page of ['0', '-1', 'foo', '1.5', '']) expectError(await ev.list(`?page=${page}`), 400, 'rest_invalid_param', ['page']);
    const both = await ev.list('?page=0&per_page=0');
    expect(both.body.data.params).toEqual({
      page: 'Must be a whole number of at least 1.',
      per_page: 'Must be a whole number of at least 1.',
    });
  });
});

describe('events list: status visibility per role (§5.5)', () => {
  let t: TestApp;
  let ev: EventClient;
  let ids: ReturnType<typeof lister>;
  let authorA: Credentials;
  let authorB: Credentials;
  let contributor: Credentials;
  let subscriber: Credentials;
  let editor: Credentials;
  const e: Record<string, number> = {};
  const DATE = '2027-09-01';
  const window = `start_date=${DATE}&end_date=${DATE}`;

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
    ids = lister(ev);
    authorA = await t.user('author');
    authorB = await t.user('author');
    contributor = await t.user('contributor');
    subscriber = await t.user('subscriber');
    editor = await t.user('editor');
    let hour = 0;
    const make = async (name: string, extra: Record<string, unknown>, auth: string) => {
      hour += 1;
      const hh = String(hour).padStart(2, '0');
      const body = await ev.make(
        eventBody({ title: name, start_date: `${DATE} ${hh}:00:00`, end_date: `${DATE} ${hh}:30:00`, ...extra }),
        auth,
      );
      e[name] = body.id;
    };
    await make('adminPublish', {}, ADMIN_AUTH);
    await make('adminDraft', { status: 'draft' }, ADMIN_AUTH);
    await make('adminPending', { status: 'pending' }, ADMIN_AUTH);
    await make('adminPrivate', { status: 'private' }, ADMIN_AUTH);
    await make('adminFuture', { status: 'publish', date: '2031-01-01 00:00:00' }, ADMIN_AUTH);
    await make('aPublish', {}, basic(authorA));
    await make('aDraft', { status: 'draft' }, basic(authorA));
    await make('aPrivate', { status: 'private' }, basic(authorA));
    await make('aFuture', { status: 'future', date: '2031-01-01 00:00:00' }, basic(authorA));
    await make('bDraft', { status: 'draft' }, basic(authorB));
    await make('cDraft', {}, basic(contributor));
    await make('cPending', { status: 'publish' }, basic(contributor));
    await make('aTrash', {}, basic(authorA));
    await ev.remove(e.aTrash, basic(authorA));
  });
  afterAll(() => t.close());

  const names = (list: number[]) => list.map((id) => Object.keys(e).find((name) => e[name] === id));

  it('shows anonymous users and subscribers published events only and accepts exactly status=publish', async () => {
    for (const auth of [null, basic(subscriber)]) {
      expect(names(await ids(`?${window}`, auth))).toEqual(['adminPublish', 'aPublish']);
      expect(names(await ids(`?${window}&status=publish`, auth))).toEqual(['adminPublish', 'aPublish']);
      for (const status of ['draft', 'publish,draft', 'any', 'trash', 'private']) {
        expectError(await ev.list(`?${window}&status=${status}`, auth), 400, 'rest_invalid_param', ['status']);
      }
    }
    const res = await ev.list(`?${window}`);
    expect(res.body.rest_url).toContain('&status=publish');
  });

  it('shows editors and administrators every non-trashed event by default', async () => {
    const all = [
      'adminPublish',
      'adminDraft',
      'adminPending',
      'adminPrivate',
      'adminFuture',
      'aPublish',
      'aDraft',
      'aPrivate',
      'aFuture',
      'bDraft',
      'cDraft',
      'cPending',
    ];
    for (const auth of [ADMIN_AUTH, basic(editor)]) {
      const res = await ev.list(`?${window}&per_page=50`, auth);
      expect(names(res.body.events.map((event: { id: number }) => event.id))).toEqual(all);
      expect(res.body.rest_url).toContain('&status=any');
      expect(names(await ids(`?${window}&status=any&per_page=50`, auth))).toEqual(all);
    }
    expect(names(await ids(`?${window}&status=draft,pending`, ADMIN_AUTH))).toEqual([
      'adminDraft',
      'adminPending',
      'aDraft',
      'bDraft',
      'cDraft',
      'cPending',
    ]);
    expect(names(await ids(`?${window}&status[]=private&status[]=future`, ADMIN_AUTH))).toEqual([
      'adminPrivate',
      'adminFuture',
      'aPrivate',
      'aFuture',
    ]);
    expect(names(await ids(`?${window}&status=${encodeURIComponent('Future , PRIVATE')}`, ADMIN_AUTH))).toEqual([
      'adminPrivate',
      'adminFuture',
      'aPrivate',
      'aFuture',
    ]);
    expect(names(await ids(`?${window}&status=trash`, ADMIN_AUTH))).toEqual(['aTrash']);
    const echo = await ev.list(`?${window}&status=draft,pending`, ADMIN_AUTH);
    expect(echo.body.rest_url).toContain('&status=draft%2Cpending');
    expectError(await ev.list(`?status=${encodeURIComponent('foo, bar, publish')}`, ADMIN_AUTH), 400, 'rest_invalid_param', ['status']);
  });

  it('shows authors their own unpublished events only', async () => {
    expect(names(await ids(`?${window}&per_page=50`, basic(authorA)))).toEqual([
      'adminPublish',
      'aPublish',
      'aDraft',
      'aPrivate',
      'aFuture',
    ]);
    expect(names(await ids(`?${window}&status=draft`, basic(authorA)))).toEqual(['aDraft']);
    expect(names(await ids(`?${window}&status=private,future`, basic(authorA)))).toEqual(['aPrivate', 'aFuture']);
    expect(names(await ids(`?${window}&status=trash`, basic(authorA)))).toEqual(['aTrash']);
    expect(names(await ids(`?${window}&status=trash`, basic(authorB)))).toEqual([]);
    expect(names(await ids(`?${window}&status=draft`, basic(authorB)))).toEqual(['bDraft']);
  });

  it('shows contributors published events and their own drafts and pending events', async () => {
    expect(names(await ids(`?${window}&per_page=50`, basic(contributor)))).toEqual(['adminPublish', 'aPublish', 'cDraft', 'cPending']);
    expect(names(await ids(`?${window}&status=draft,pending`, basic(contributor)))).toEqual(['cDraft', 'cPending']);
    expect(names(await ids(`?${window}&status=private`, basic(contributor)))).toEqual([]);
  });

  it('counts only the visible events in total and the X-TEC headers', async () => {
    const res = await ev.list(`?${window}&per_page=2`, basic(authorA));
    expect(res.body).toMatchObject({ total: 5, total_pages: 3 });
    expect(res.headers['x-tec-total']).toBe('5');
    expect(res.headers['x-tec-totalpages']).toBe('3');
  });
});

describe('events list: paging (§9.1-9.3)', () => {
  let t: TestApp;
  let ev: EventClient;
  const created: number[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
    for (let index = 0; index < 5; index++) {
      created.push(
        (
          await ev.make(
            eventBody({
              title: `Paged ${index}`,
              start_date: `2027-03-0${2 + index} 10:00:00`,
              end_date: `2027-03-0${2 + index} 11:00:00`,
            }),
          )
        ).id,
      );
    }
  });
  afterAll(() => t.close());

  it('pages like the example of §9.4: per_page=2&page=2&start_date=2027-03-01', async () => {
    const res = await ev.list('?per_page=2&page=2&start_date=2027-03-01');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
    const end = enc(defaultWindow('UTC').end);
    expect(res.body).toEqual({
      events: [expect.objectContaining({ id: created[2] }), expect.objectContaining({ id: created[3] })],
      rest_url: `${LIST}?page=2&per_page=2&start_date=2027-03-01+00%3A00%3A00&end_date=${end}&status=publish`,
      next_rest_url: `${LIST}?per_page=2&start_date=2027-03-01+00%3A00%3A00&end_date=${end}&status=publish&page=3`,
      previous_rest_url: `${LIST}?per_page=2&start_date=2027-03-01+00%3A00%3A00&end_date=${end}&status=publish`,
      total: 5,
      total_pages: 3,
    });
    expect(res.headers['x-tec-total']).toBe('5');
    expect(res.headers['x-tec-totalpages']).toBe('3');
    const last = await ev.list('?per_page=2&page=3&start_date=2027-03-01');
    expect(last.body.events.map((event: { id: number }) => event.id)).toEqual([created[4]]);
    expect(last.body.next_rest_url).toBeUndefined();
    expect(last.body.previous_rest_url).toBe(`${LIST}?per_page=2&start_date=2027-03-01+00%3A00%3A00&end_date=${end}&status=publish&page=2`);
  });

  it('answers 404 event-archive-page-not-found past the last page, and 200 with nothing on an empty first page', async () => {
    const past = await ev.list('?per_page=2&page=4&start_date=2027-03-01');
    expect(past.body).toEqual({
      code: 'event-archive-page-not-found',
      message: 'This page of the event list does not exist.',
      data: { status: 404 },
    });
    expect(past.headers['x-tec-total']).toBeUndefined();
    expect(past.headers['x-tec-totalpages']).toBeUndefined();
    const empty = await ev.list('?start_date=2027-01-01&end_date=2027-01-31');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ events: [], total: 0, total_pages: 0 });
    expect(empty.body.next_rest_url).toBeUndefined();
    expect(empty.headers['x-tec-total']).toBe('0');
    expect(empty.headers['x-tec-totalpages']).toBe('0');
    expectError(await ev.list('?start_date=2027-01-01&end_date=2027-01-31&page=2'), 404, 'event-archive-page-not-found');
  });

  it('caps per_page at 50', async () => {
    for (let index = 0; index < 47; index++) {
      await ev.make(eventBody({ title: `Bulk ${index}`, start_date: '2027-03-20 10:00:00', end_date: '2027-03-20 11:00:00' }));
    }
    const res = await ev.list('?per_page=100&start_date=2027-03-01');
    expect(res.body.events).toHaveLength(50);
    expect(res.body).toMatchObject({ total: 52, total_pages: 2 });
    expect(res.body.rest_url).toContain('?page=1&per_page=50&');
    expect(res.body.next_rest_url).toContain('&page=2');
    const second = await ev.list('?per_page=100&page=2&start_date=2027-03-01');
    expect(second.body.events).toHaveLength(2);
    expect((await ev.list('?start_date=2027-03-01')).body.events).toHaveLength(6);
  });
});

describe('events list: site time zone America/Chicago', () => {
  let t: TestApp;
  let ev: EventClient;
  let ids: ReturnType<typeof lister>;

  beforeAll(async () => {
    t = await startTestApp({ SITE_TIMEZONE: 'America/Chicago' });
    ev = eventClient(t);
    ids = lister(ev);
  });
  afterAll(() => t.close());

  it('computes the default window in the site zone', async () => {
    const res = await ev.list();
    const { start, end } = defaultWindow('America/Chicago');
    expect(res.body.rest_url).toBe(`${LIST}?page=1&per_page=6&start_date=${enc(start)}&end_date=${enc(end)}&status=publish`);
  });

  it('converts instants in filters to site time and reads wall values as site time, also when strict', async () => {
    const event = (
      await ev.make(eventBody({ timezone: 'America/Chicago', start_date: '2027-06-01 15:00:00', end_date: '2027-06-01 16:00:00' }))
    ).id;
    const utcEvent = (await ev.make(eventBody({ timezone: 'UTC', start_date: '2027-06-01 23:30:00', end_date: '2027-06-01 23:45:00' }))).id;
    const strict = await ev.list(`?start_date=${enc('2027-06-01T20:00:00Z')}&end_date=${enc('2027-06-01T21:00:00Z')}&strict_dates=1`);
    expect(strict.body.events.map((e: { id: number }) => e.id)).toEqual([event]);
    expect(strict.body.rest_url).toContain('start_date=2027-06-01+15%3A00%3A00&end_date=2027-06-01+16%3A00%3A00');
    const whole = await ev.list(`?start_date=${enc('2027-06-02T03:00:00Z')}&end_date=2027-06-01`);
    expect(whole.body.rest_url).toContain('start_date=2027-06-01+00%3A00%3A00&end_date=2027-06-01+23%3A59%3A59');
    expect(whole.body.events.map((e: { id: number }) => e.id)).toEqual([event, utcEvent]);
    expect(await ids(`?start_date=${enc('2027-06-01 15:00')}&end_date=${enc('2027-06-01 16:00')}&strict_dates=yes`)).toEqual([event]);
  });
});
