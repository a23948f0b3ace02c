import { ADMIN_AUTH, eventBody, expectError } from './support/events.js';
import { API, startTestApp, type TestApp } from './support/test-app.js';

/** JSON bodies that are not storable text or nest too deep are 400 `rest_invalid_json`, never 500 (spec §7.2). */
describe('JSON bodies: depth and Unicode', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  const send = (method: 'post' | 'patch', path: string, raw: string) =>
    t.http()[method](`${API}/${path}`).set('Authorization', ADMIN_AUTH).set('Content-Type', 'application/json').send(raw);

  const nestedArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it('answers 400 rest_invalid_json for JSON nested 5,000 levels deep, wherever it is', async () => {
    const venue = await send('post', 'venues', JSON.stringify({ venue: 'Deep Hall' }));
    expect(venue.status).toBe(201);
    for (const [method, path, raw] of [
      ['post', 'organizers', `{"organizer":"x","date":${nestedArrays(5000)}}`],
      ['patch', `venues/${venue.body.id}`, `{"address":${nestedObjects(5000)}}`],
      ['post', 'categories', `{"name":"x","slug":${nestedObjects(5000)}}`],
      ['post', 'events', `{"title":"x","custom_fields":${nestedObjects(5000)}}`],
    ] as const) {
      const res = await send(method, path, raw);
      expectError(res, 400, 'rest_invalid_json');
      expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
    }
    const unchanged = await t.http().get(`${API}/venues/${venue.body.id}`);
    expect(unchanged.body.address).toBeUndefined();
  });

  it('accepts nesting up to the limit and refuses one level more', async () => {
    // the body object is level 1: 31 more levels are allowed
    const ok = await send(
      'post',
      'events',
      JSON.stringify(eventBody({ title: 'Nested but fine' })).replace(/}$/, `,"x":${nestedArrays(31)}}`),
    );
    expect(ok.status).toBe(201);
    const deep = await send('post', 'events', JSON.stringify(eventBody()).replace(/}$/, `,"x":${nestedArrays(32)}}`));
    expectError(deep, 400, 'rest_invalid_json');
  });

  it('refuses an unpaired surrogate escape anywhere in the body, and stores nothing', async () => {
    const before = await t
      .http()
      .get(`${API}/events?status=any&start_date=2000-01-01&end_date=2100-01-01`)
      .set('Authorization', ADMIN_AUTH);
    expect(typeof before.body.total).toBe('number');
    for (const raw of [
      JSON.stringify(eventBody()).replace('"Plain event"', '"Plain \\ud800 event"'),
      JSON.stringify(eventBody()).replace('"Plain event"', '"Plain event \\udc00"'),
      JSON.stringify(eventBody({ venue: { venue: 'Surrogate Hall', city: 'X' } })).replace('"X"', '"\\udbff"'),
      JSON.stringify(eventBody()).replace(/}$/, ',"\\ud83d":1}'),
    ]) {
      expectError(await send('post', 'events', raw), 400, 'rest_invalid_json');
    }
    const after = await t.http().get(`${API}/events?status=any&start_date=2000-01-01&end_date=2100-01-01`).set('Authorization', ADMIN_AUTH);
    expect(after.body.total).toBe(before.body.total);
    const venues = await t.http().get(`${API}/venues?search=Surrogate`).set('Authorization', ADMIN_AUTH);
    expect(venues.body.total).toBe(0);
  });

  it('keeps accepting well-formed pairs, escaped or not', async () => {
    const res = await send('post', 'events', JSON.stringify(eventBody()).replace('"Plain event"', '"Lanterns \\ud83c\\udfee and 🎻"'));
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Lanterns 🏮 and 🎻');
  });
});
