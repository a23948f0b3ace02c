import { ADMIN_AUTH, eventBody, eventClient, expectError, hasJsonLd, withoutJsonLd, type EventClient } from './support/events.js';
import { API, basic, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

describe('events: updates change only the fields sent (§11.5, §11.1)', () => {
  let t: TestApp;
  let ev: EventClient;
  let author: Credentials;
  let venueId: number;
  let organizerIds: number[];

  beforeAll(async () => {
    t = await startTestApp({ EVENT_CUSTOM_FIELDS: '[{"key":"dress","label":"Dress code"}]' });
    ev = eventClient(t);
    author = await t.user('author');
    venueId = (await t.http().post(`${API}/venues`).set('Authorization', ADMIN_AUTH).send({ venue: 'Update Hall' })).body.id;
    organizerIds = [];
    for (const name of ['First Org', 'Second Org']) {
      organizerIds.push((await t.http().post(`${API}/organizers`).set('Authorization', ADMIN_AUTH).send({ organizer: name })).body.id);
    }
  });
  afterAll(() => t.close());

  const full = (extra: Record<string, unknown> = {}) =>
    ev.make(
      {
        title: 'Full Event',
        description: 'Long text.',
        excerpt: 'Short.',
        status: 'draft',
        timezone: 'America/Chicago',
        all_day: false,
        start_date: '2027-05-01 19:00:00',
        end_date: '2027-05-01 21:00:00',
        image: 'https://images.example.net/full.png',
        cost: ['€10', '€20'],
        website: 'https://full.example.net',
        show_map: true,
        show_map_link: true,
        hide_from_listings: true,
        sticky: true,
        featured: true,
        categories: ['Updates'],
        tags: ['kept'],
        venue: venueId,
        organizer: organizerIds,
        custom_fields: { dress: 'Casual' },
        post_password: 'pw',
        ...extra,
      },
      basic(author),
    );

  const stable = (event: Record<string, any>) => {
    const { modified: _m, modified_utc: _mu, ...rest } = event;
    return rest;
  };

  it.each(['post', 'put', 'patch'] as const)('%s changes only the title and leaves every omitted field as it was', async (method) => {
    const before = await full();
    const res = await ev.update(before.id, { title: `Renamed by ${method}` }, basic(author), method);
    expect(res.status).toBe(200);
    expect(hasJsonLd(res.body)).toBe(false);
    expect(stable(res.body)).toEqual({ ...stable(before), title: `Renamed by ${method}` });
    expect(res.body.slug).toBe(before.slug);
    expect(res.body.modified_utc >= before.modified_utc).toBe(true);
  });

  it('keeps everything on an empty update', async () => {
    const before = await full({ status: 'publish' });
    const res = await ev.update(before.id, {}, basic(author));
    expect(res.status).toBe(200);
    expect(stable(res.body)).toEqual(stable(before));
  });

  it('keeps the status, flags, website, cost, organizers, zone and all_day of a published event when other fields change', async () => {
    const before = await full({ status: 'publish', all_day: true });
    const res = await ev.update(before.id, { description: 'New text.', excerpt: '' }, basic(author));
    expect(res.body).toMatchObject({
      status: 'publish',
      all_day: true,
      timezone: 'America/Chicago',
      website: 'https://full.example.net',
      cost: '€10 – €20',
      show_map: true,
      show_map_link: true,
      hide_from_listings: true,
      sticky: true,
      featured: true,
      description: '<p>New text.</p>',
      excerpt: '',
    });
    expect(res.body.organizer.map((o: { id: number }) => o.id)).toEqual(organizerIds);
    expect(res.body.venue.id).toBe(venueId);
  });

  it('sets flags to false only when false is sent', async () => {
    const before = await full();
    const res = await ev.update(before.id, { featured: false, sticky: 'false', show_map: 0 }, basic(author));
    expect(res.body).toMatchObject({ featured: false, sticky: false, show_map: false, show_map_link: true, hide_from_listings: true });
  });

  it('clears optional text with "" and null; the website falls back to the url', async () => {
    const before = await full({ status: 'publish' });
    const res = await ev.update(before.id, { website: '', cost: null, description: '', image: 0 }, basic(author));
    expect(res.body).toMatchObject({
      website: before.url,
      cost: '',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
      description: '',
      excerpt: '<p>Short.</p>',
      image: false,
    });
    const nullSite = await ev.update(before.id, { website: 'https://again.example.net' }, basic(author));
    expect(nullSite.body.website).toBe('https://again.example.net');
    expect((await ev.update(before.id, { website: null }, basic(author))).body.website).toBe(before.url);
    const emptyCost = await ev.update(before.id, { cost: [] }, basic(author));
    expect(emptyCost.body.cost).toBe('');
  });

  it('re-detects the currency every time a cost is sent', async () => {
    const before = await full();
    const res = await ev.update(before.id, { cost: '12 EUR' }, basic(author));
    expect(res.body.cost_details).toEqual({ currency_symbol: 'EUR', currency_code: '', currency_position: 'postfix', values: ['12'] });
    const plain = await ev.update(before.id, { cost: 7 }, basic(author));
    expect(plain.body.cost_details).toEqual({ currency_symbol: '', currency_code: '', currency_position: '', values: ['7'] });
    expect(plain.body.cost).toBe('$7');
  });

  it('refuses empty required text and statuses on update, and writes nothing when one field is invalid', async () => {
    const before = await full();
    expectError(await ev.update(before.id, { title: '' }, basic(author)), 400, 'rest_invalid_param', ['title']);
    expectError(await ev.update(before.id, { status: '' }, basic(author)), 400, 'rest_invalid_param', ['status']);
    expectError(await ev.update(before.id, { status: 'trash' }, basic(author)), 400, 'rest_invalid_param', ['status']);
    expectError(await ev.update(before.id, { slug: '' }, basic(author)), 400, 'rest_invalid_param', ['slug']);
    expectError(await ev.update(before.id, { featured: '' }, basic(author)), 400, 'rest_invalid_param', ['featured']);
    expectError(await ev.update(before.id, { title: 'Half written', website: 'foo' }, basic(author)), 400, 'rest_invalid_param', [
      'website',
    ]);
    expectError(await ev.update(before.id, { title: 'Half written', categories: [987654] }, basic(author)), 400, 'rest_invalid_param', [
      'categories',
    ]);
    const read = await ev.get(before.id, basic(author));
    expect(stable(withoutJsonLd(read.body))).toEqual(stable(before));
    expect(read.body.modified_utc).toBe(before.modified_utc);
  });

  it('renames the slug only when a slug is sent, also through the by-slug route', async () => {
    const before = await full({ title: 'Slug Source' });
    expect(before.slug).toBe('slug-source');
    const renamed = await ev.update(before.id, { title: 'Other title' }, basic(author));
    expect(renamed.body.slug).toBe('slug-source');
    const bySlug = await t
      .http()
      .put(`${API}/events/by-slug/slug-source`)
      .set('Authorization', basic(author))
      .send({ slug: 'New Slug!', title: 'By slug' });
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toMatchObject({ id: before.id, slug: 'new-slug', title: 'By slug' });
    const other = await full({ title: 'Taken' });
    const clash = await ev.update(other.id, { slug: 'new-slug' }, basic(author));
    expect(clash.body.slug).toBe('new-slug-2');
    expectError(await ev.get('by-slug/slug-source'), 400, 'rest_invalid_param', ['slug']);
  });

  it('identifies the event by the path, never by a body or query id', async () => {
    const first = await full({ title: 'Path Wins', status: 'publish' });
    const second = await full({ title: 'Body Loses', status: 'publish' });
    const res = await t
      .http()
      .patch(`${API}/events/${first.id}?id=${second.id}`)
      .set('Authorization', basic(author))
      .send({ id: second.id, title: 'Changed' });
    expect(res.body.id).toBe(first.id);
    expect(res.body.title).toBe('Changed');
    expect((await ev.get(second.id, basic(author))).body).toMatchObject({ title: 'Body Loses' });
  });

  it('accepts and ignores a password parameter on update', async () => {
    const before = await full();
    const res = await ev.update(before.id, { password: 'whatever', sticky: false }, basic(author));
    expect(res.status).toBe(200);
    expect(res.body.sticky).toBe(false);
  });

  it('answers 404 for an unknown id and 400 rest-invalid-event-id for another kind of item', async () => {
    expectError(await ev.update(987654, { title: 'x' }), 404, 'rest-event-not-found');
    expectError(await ev.update(0, { title: 'x' }), 404, 'rest-event-not-found');
    // an id past every number the database can hold is no event's either
    expectError(
      await t
        .http()
        .post(`${API}/events/${'1'.repeat(400)}`)
        .set('Authorization', ADMIN_AUTH)
        .send({ title: 'x' }),
      404,
      'rest-event-not-found',
    );
    expectError(await ev.update(venueId, { title: 'x' }), 400, 'rest-invalid-event-id');
    expectError(await ev.update(organizerIds[0], { title: 'x' }, ADMIN_AUTH, 'put'), 400, 'rest-invalid-event-id');
    // no event has the slug (a venue does): an update by slug is 404 like an unknown id (spec §3.2)
    expectError(
      await t.http().patch(`${API}/events/by-slug/update-hall`).set('Authorization', ADMIN_AUTH).send({ title: 'x' }),
      404,
      'rest-event-not-found',
    );
  });

  it('publishes a floating draft with the moment of publication', async () => {
    const draft = await ev.make(eventBody({ title: 'Floating', status: 'draft' }), basic(author));
    const published = await ev.update(draft.id, { status: 'publish' }, basic(author));
    expect(published.body.status).toBe('publish');
    expect(published.body.date_utc >= draft.date_utc).toBe(true);
    expect(published.body.date_utc).toBe(published.body.modified_utc);
    const dated = await ev.make(eventBody({ title: 'Fixed date', status: 'draft', date: '2026-01-01 12:00:00' }), basic(author));
    const kept = await ev.update(dated.id, { status: 'publish' }, basic(author));
    expect(kept.body).toMatchObject({ status: 'publish', date: '2026-01-01 12:00:00' });
  });
});
