import { ADMIN_AUTH, eventBody, expectError } from './support/events.js';
import { API, startTestApp, type TestApp } from './support/test-app.js';

/** Text fields take JSON strings only; repeated form and query keys still mean "the last one" (spec §7.2, §7.3). */
describe('value types of text fields', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  const post = (path: string, body: Record<string, unknown>) =>
    t.http().post(`${API}/${path}`).set('Authorization', ADMIN_AUTH).set('Content-Type', 'application/json').send(body);

  const expectTypeError = (res: Awaited<ReturnType<typeof post>>, param: string) => {
    expectError(res, 400, 'rest_invalid_param', [param]);
    expect(res.body.data.details[param]).toEqual({ code: 'rest_invalid_type', message: `${param} must be a string.`, data: { param } });
  };

  it.each([
    ['a number', 123],
    ['a boolean', true],
    ['an object', { text: 'x' }],
    ['an array', ['Lantern walk']],
  ])('refuses %s as an event title with rest_invalid_type, and stores nothing', async (_label, value) => {
    const before = await t
      .http()
      .get(`${API}/events?per_page=50&status=any&start_date=2000-01-01&end_date=2100-01-01`)
      .set('Authorization', ADMIN_AUTH);
    expectTypeError(await post('events', eventBody({ title: value })), 'title');
    const after = await t
      .http()
      .get(`${API}/events?per_page=50&status=any&start_date=2000-01-01&end_date=2100-01-01`)
      .set('Authorization', ADMIN_AUTH);
    expect(typeof before.body.total).toBe('number');
    expect(after.body.total).toBe(before.body.total);
  });

  it('refuses a Unix timestamp sent as a JSON number for a date, and accepts it as a string', async () => {
    expectTypeError(await post('events', eventBody({ start_date: 1925200000 })), 'start_date');
    const asText = await post('events', eventBody({ start_date: '1925200000', end_date: '1925203600' }));
    expect(asText.status).toBe(201);
  });

  it('refuses non-strings in status, timezone, venue, organizer and term fields', async () => {
    expectTypeError(await post('events', eventBody({ status: 1 })), 'status');
    expectTypeError(await post('events', eventBody({ timezone: 2 })), 'timezone');
    expectTypeError(await post('venues', { venue: 'Quay Hall', city: 7 }), 'city');
    expectTypeError(await post('organizers', { organizer: 42 }), 'organizer');
    expectTypeError(await post('categories', { name: false }), 'name');
    expectTypeError(await post('tags', { name: ['jazz'] }), 'name');
  });

  it('says what a term list accepts when categories or tags are sent as objects, in every edition', async () => {
    const res = await post('events', eventBody({ categories: [{ id: 4 }] }));
    expectError(res, 400, 'rest_invalid_param', ['categories']);
    expect(res.body.data.params.categories).toBe(
      'categories must be a list of IDs, slugs or names: a comma-separated string, or an array of strings and numbers.',
    );
    expect(res.body.data.details.categories.code).toBe('rest_invalid_type');
    const german = await t
      .http()
      .post(`/de${API}/events`)
      .set('Authorization', ADMIN_AUTH)
      .send(eventBody({ tags: { name: 'jazz' } }));
    expect(german.body.data.params.tags).toMatch(/^tags muss eine Liste von IDs, Slugs oder Namen sein/);
    const list = await t.http().get(`${API}/events?include[a]=1`);
    expect(list.status).toBe(400);
  });

  it('keeps accepting JSON booleans for venue show_map and show_map_link (deliberate, spec §7.3)', async () => {
    const res = await post('venues', { venue: 'Map Hall', show_map: false, show_map_link: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ show_map: false, show_map_link: true });
  });

  it('takes the last value of a key repeated in a form body or a query string', async () => {
    const form = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', ADMIN_AUTH)
      .type('form')
      .send('title=First&title=Second&start_date=2027-04-02 18:00:00&end_date=2027-04-02 22:00:00');
    expect(form.status).toBe(201);
    expect(form.body.title).toBe('Second');
    const query = await t.http().post(`${API}/venues?venue=Old&venue=New`).set('Authorization', ADMIN_AUTH).send({});
    expect(query.status).toBe(201);
    expect(query.body.venue).toBe('New');
  });
});
