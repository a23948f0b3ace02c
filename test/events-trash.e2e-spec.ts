import {
  ADMIN_AUTH,
  draftUrl,
  EVENT_KEYS,
  eventBody,
  eventClient,
  eventUrl,
  expectError,
  hasJsonLd,
  nowUtcWall,
  secondsBetween,
  type EventClient,
} from './support/events.js';
import { API, basic, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

describe('events: trash (§5.7, §11.6)', () => {
  let t: TestApp;
  let ev: EventClient;
  let author: Credentials;
  let venueId: number;
  let organizerId: number;

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
    author = await t.user('author');
    venueId = (await t.http().post(`${API}/venues`).set('Authorization', ADMIN_AUTH).send({ venue: 'Trash Hall' })).body.id;
    organizerId = (await t.http().post(`${API}/organizers`).set('Authorization', ADMIN_AUTH).send({ organizer: 'Trash Org' })).body.id;
  });
  afterAll(() => t.close());

  const categoryCount = async (id: number) => (await t.http().get(`${API}/categories/${id}`)).body.count as number;
  const tagCount = async (id: number) => (await t.http().get(`${API}/tags/${id}`)).body.count as number;

  it('moves the event to the trash and answers 200 with it: status, __trashed slug, non-public url, relations kept', async () => {
    const event = await ev.make(
      eventBody({
        title: 'Jazz Night',
        venue: venueId,
        organizer: [organizerId],
        categories: ['Music'],
        tags: ['late'],
        website: 'https://jazz.example.net',
      }),
    );
    const [category] = event.categories;
    const [tag] = event.tags;
    expect(await categoryCount(category.id)).toBe(1);
    const res = await t.http().delete(`${API}/events/${event.id}?force=true`).set('Authorization', ADMIN_AUTH);
    expect(res.status).toBe(200);
    expect(res.headers.allow).toBe('GET, DELETE, POST, PUT, PATCH');
    expect(Object.keys(res.body)).toEqual(EVENT_KEYS);
    expect(hasJsonLd(res.body)).toBe(false);
    expect(res.body).toMatchObject({
      id: event.id,
      status: 'trash',
      slug: 'jazz-night__trashed',
      url: draftUrl(event.id),
      website: 'https://jazz.example.net',
    });
    expect(secondsBetween(res.body.modified_utc, nowUtcWall())).toBeLessThan(10);
    expect(res.body.venue.id).toBe(venueId);
    expect(res.body.organizer.map((o: { id: number }) => o.id)).toEqual([organizerId]);
    expect(res.body.categories.map((c: { id: number }) => c.id)).toEqual([category.id]);
    expect(res.body.tags.map((c: { id: number }) => c.id)).toEqual([tag.id]);
    expect(res.body.categories[0].count).toBe(0);
    expect(await categoryCount(category.id)).toBe(0);
    expect(await tagCount(tag.id)).toBe(0);
    // the venue and organizer are not touched
    expect((await t.http().get(`${API}/venues/${venueId}`)).status).toBe(200);
  });

  it('answers 410 event-is-in-trash to a second DELETE, by id and by slug', async () => {
    const event = await ev.make(eventBody({ title: 'Twice Deleted' }));
    expect((await ev.remove(event.id)).status).toBe(200);
    const again = await ev.remove(event.id);
    expect(again.body).toEqual({ code: 'event-is-in-trash', message: 'This event is already in the trash.', data: { status: 410 } });
    expectError(
      await t.http().delete(`${API}/events/by-slug/twice-deleted__trashed`).set('Authorization', ADMIN_AUTH),
      410,
      'event-is-in-trash',
    );
    expectError(await ev.get(event.id, ADMIN_AUTH), 403, 'event-no-longer-available');
  });

  it('trashes by slug and refuses unknown ids, other kinds and unknown slugs', async () => {
    const event = await ev.make(eventBody({ title: 'Slug Delete' }));
    const res = await t.http().delete(`${API}/events/by-slug/slug-delete`).set('Authorization', ADMIN_AUTH);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: event.id, status: 'trash', slug: 'slug-delete__trashed' });
    expectError(await ev.remove(987654), 404, 'rest-event-not-found');
    expectError(await ev.remove(0), 404, 'rest-event-not-found');
    expectError(
      await t
        .http()
        .delete(`${API}/events/${'1'.repeat(400)}`)
        .set('Authorization', ADMIN_AUTH),
      404,
      'rest-event-not-found',
    );
    expectError(await ev.remove(venueId), 400, 'rest-invalid-event-id');
    expectError(await t.http().delete(`${API}/events/by-slug/slug-delete`).set('Authorization', ADMIN_AUTH), 400, 'rest_invalid_param', [
      'slug',
    ]);
  });

  it('leaves trashed events out of lists unless status asks for trash', async () => {
    const event = await ev.make(eventBody({ title: 'Listed Trash', start_date: '2027-08-01 10:00:00', end_date: '2027-08-01 11:00:00' }));
    await ev.remove(event.id);
    const ids = (res: { body: { events: Array<{ id: number }> } }) => res.body.events.map((e) => e.id);
    expect(ids(await ev.list('?start_date=2027-08-01&end_date=2027-08-01', ADMIN_AUTH))).toEqual([]);
    expect(ids(await ev.list('?start_date=2027-08-01&end_date=2027-08-01&status=any', ADMIN_AUTH))).toEqual([]);
    expect(ids(await ev.list('?start_date=2027-08-01&end_date=2027-08-01&status=trash', ADMIN_AUTH))).toEqual([event.id]);
    expect(ids(await ev.list('?start_date=2027-08-01&end_date=2027-08-01&status=publish,trash', ADMIN_AUTH))).toEqual([event.id]);
    const other = await t.user('author');
    expect(ids(await ev.list('?start_date=2027-08-01&end_date=2027-08-01&status=trash', basic(other)))).toEqual([]);
  });

  it('frees the slug, and restores with a status update, suffixing the slug when it was taken meanwhile', async () => {
    const event = await ev.make(eventBody({ title: 'Comeback Show', categories: ['Comebacks'] }), basic(author));
    await ev.remove(event.id, basic(author));
    const successor = await ev.make(eventBody({ title: 'Comeback Show' }));
    expect(successor.slug).toBe('comeback-show');
    // an update without status stays in the trash
    const edited = await ev.update(event.id, { title: 'Comeback Show (edited)' }, basic(author));
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ status: 'trash', slug: 'comeback-show__trashed', title: 'Comeback Show (edited)' });
    const restored = await ev.update(event.id, { status: 'draft' }, basic(author));
    expect(restored.body).toMatchObject({ status: 'draft', slug: 'comeback-show-2', url: draftUrl(event.id) });
    const published = await ev.update(event.id, { status: 'publish' }, basic(author));
    expect(published.body).toMatchObject({ status: 'publish', url: eventUrl('comeback-show-2') });
    expect(published.body.categories[0].count).toBe(1);
    expect((await ev.get(event.id)).status).toBe(200);
  });

  it('keeps slugs unique when a second event of the same slug is trashed, and restores both', async () => {
    const first = await ev.make(eventBody({ title: 'Encore Night' }));
    expect((await ev.remove(first.id)).body.slug).toBe('encore-night__trashed');
    const second = await ev.make(eventBody({ title: 'Encore Night' }));
    expect(second.slug).toBe('encore-night');
    const trashed = await ev.remove(second.id);
    expect(trashed.status).toBe(200);
    expect(trashed.body).toMatchObject({ status: 'trash', slug: 'encore-night__trashed-2' });
    // Found by its trashed slug (a slug nobody has would be 400), and trashed events are not readable.
    expectError(await ev.get('by-slug/encore-night__trashed-2', ADMIN_AUTH), 403, 'event-no-longer-available');
    expect((await ev.update(second.id, { status: 'publish' })).body.slug).toBe('encore-night');
    expect((await ev.update(first.id, { status: 'publish' })).body.slug).toBe('encore-night-2');
  });

  it('restores with the original slug when it is still free', async () => {
    const event = await ev.make(eventBody({ title: 'Round Trip' }));
    await ev.remove(event.id);
    const restored = await ev.update(event.id, { status: 'publish' });
    expect(restored.body).toMatchObject({ status: 'publish', slug: 'round-trip', url: eventUrl('round-trip') });
  });
});
