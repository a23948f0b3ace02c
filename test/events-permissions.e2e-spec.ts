import { ADMIN_AUTH, eventBody, eventClient, expectError, type EventClient } from './support/events.js';
import { API, basic, PUBLIC_URL, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

const FULL = 'GET, DELETE, POST, PUT, PATCH';

describe('events: permissions, statuses per role and order of checks (§4.5, §4.6, §5.2)', () => {
  let t: TestApp;
  let ev: EventClient;
  let author: Credentials;
  let otherAuthor: Credentials;
  let contributor: Credentials;
  let otherContributor: Credentials;
  let subscriber: Credentials;
  let editor: Credentials;
  let adminEvent: Record<string, any>;

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
    author = await t.user('author');
    otherAuthor = await t.user('author');
    contributor = await t.user('contributor');
    otherContributor = await t.user('contributor');
    subscriber = await t.user('subscriber');
    editor = await t.user('editor');
    adminEvent = await ev.make(eventBody({ title: 'Admin Event' }));
  });
  afterAll(() => t.close());

  describe('create', () => {
    it('answers anonymous creates with 401 rest_forbidden, but validation comes first', async () => {
      const res = await ev.create(eventBody(), null);
      expect(res.body).toEqual({ code: 'rest_forbidden', message: 'You are not allowed to do this.', data: { status: 401 } });
      expect(res.status).toBe(401);
      expect(res.headers.allow).toBe('GET');
      expect(res.headers['www-authenticate']).toBeUndefined();
      const missing = await ev.create({ start_date: '2027-04-02 18:00:00', end_date: '2027-04-02 19:00:00' }, null);
      expectError(missing, 400, 'rest_missing_callback_param', ['title']);
      expectError(await ev.create(eventBody({ website: 'foo' }), null), 400, 'rest_invalid_param', ['website']);
      expectError(await ev.create(eventBody({ venue: 987654 }), null), 400, 'rest_invalid_param', ['venue']);
    });

    it('answers subscribers with 403 rest_forbidden', async () => {
      const res = await ev.create(eventBody(), basic(subscriber));
      expect(res.body).toEqual({ code: 'rest_forbidden', message: 'You are not allowed to do this.', data: { status: 403 } });
      expect(res.headers.allow).toBe('GET');
    });

    it.each([
      [undefined, 'draft'],
      ['draft', 'draft'],
      ['pending', 'pending'],
      ['publish', 'pending'],
      ['future', 'pending'],
      ['private', 'pending'],
      ['PUBLISH', 'pending'],
    ])('stores a contributor status %j as %j', async (status, stored) => {
      const res = await ev.create(eventBody(status === undefined ? {} : { status }), basic(contributor));
      expect(res.status).toBe(201);
      expect(res.body.status).toBe(stored);
      expect(res.body.author).toBe(String(contributor.id));
      expect(res.body.url).toBe(`${PUBLIC_URL}/?post_type=tribe_events&p=${res.body.id}`);
      expect(res.body.website).toBe(res.body.url);
      expect(res.headers.allow).toBe('GET, POST');
    });

    it.each([
      [{}, 'publish'],
      [{ status: 'publish' }, 'publish'],
      [{ status: 'publish', date: '2030-01-01 00:00:00' }, 'future'],
      [{ status: 'publish', date_utc: '2030-01-01 00:00:00' }, 'future'],
      [{ status: 'future', date: '2030-01-01 00:00:00' }, 'future'],
      [{ status: 'future', date: '2020-01-01 00:00:00' }, 'publish'],
      [{ status: 'future' }, 'publish'],
      [{ status: 'private' }, 'private'],
      [{ status: 'Draft' }, 'draft'],
      [{ status: 'pending' }, 'pending'],
      [{ date: '2030-01-01 00:00:00' }, 'future'],
    ])('stores an author create with %j as %j', async (fields, stored) => {
      const res = await ev.create(eventBody(fields), basic(author));
      expect(res.status).toBe(201);
      expect(res.body.status).toBe(stored);
    });

    it('applies the same status rules to editors and administrators', async () => {
      for (const auth of [basic(editor), ADMIN_AUTH]) {
        expect((await ev.make(eventBody(), auth)).status).toBe('publish');
        expect((await ev.make(eventBody({ status: 'publish', date: '2030-01-01 00:00:00' }), auth)).status).toBe('future');
        expect((await ev.make(eventBody({ status: 'future', date: '2020-01-01 00:00:00' }), auth)).status).toBe('publish');
      }
    });

    it('refuses the trash status and unknown statuses', async () => {
      expectError(await ev.create(eventBody({ status: 'trash' })), 400, 'rest_invalid_param', ['status']);
      expectError(await ev.create(eventBody({ status: 'kinda_thinking_about_it' }), basic(contributor)), 400, 'rest_invalid_param', [
        'status',
      ]);
    });

    it('lets publishers but not contributors register new image URLs', async () => {
      expectError(
        await ev.create(eventBody({ image: 'https://images.example.net/contrib.jpg' }), basic(contributor)),
        400,
        'rest_invalid_param',
        ['image'],
      );
      const registered = await ev.make(eventBody({ image: 'https://images.example.net/contrib.jpg' }), basic(author));
      const reused = await ev.create(eventBody({ image: 'https://images.example.net/contrib.jpg' }), basic(contributor));
      expect(reused.status).toBe(201);
      expect(reused.body.image).toEqual(registered.image);
    });

    it('lets every creating role set the flags', async () => {
      const res = await ev.create(
        eventBody({ featured: true, sticky: true, hide_from_listings: true, show_map: true, show_map_link: true }),
        basic(contributor),
      );
      expect(res.body).toMatchObject({ featured: true, sticky: true, hide_from_listings: true, show_map: true, show_map_link: true });
    });
  });

  describe('update and delete', () => {
    it('lets a contributor edit and trash their own draft and pending events', async () => {
      const draft = await ev.make(eventBody({ title: 'Contrib draft' }), basic(contributor));
      const edited = await ev.update(draft.id, { title: 'Contrib draft v2' }, basic(contributor), 'put');
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ title: 'Contrib draft v2', status: 'draft' });
      expect(edited.headers.allow).toBe(FULL);
      const submitted = await ev.update(draft.id, { status: 'publish' }, basic(contributor));
      expect(submitted.body.status).toBe('pending');
      expect((await ev.update(draft.id, { title: 'Still mine' }, basic(contributor), 'patch')).status).toBe(200);
      const trashed = await ev.remove(draft.id, basic(contributor));
      expect(trashed.status).toBe(200);
      expect(trashed.body.status).toBe('trash');
    });

    it('forbids a contributor to edit or trash their own published event and anybody else’s', async () => {
      const own = await ev.make(eventBody({ title: 'Contrib published' }), basic(contributor));
      expect((await ev.update(own.id, { status: 'publish' }, ADMIN_AUTH)).body.status).toBe('publish');
      const res = await ev.update(own.id, { title: 'Nope' }, basic(contributor));
      expect(res.body).toEqual({ code: 'rest_forbidden', message: 'You are not allowed to do this.', data: { status: 403 } });
      expectError(await ev.remove(own.id, basic(contributor)), 403, 'rest_forbidden');
      const others = await ev.make(eventBody({ title: 'Other contrib draft' }), basic(otherContributor));
      expectError(await ev.update(others.id, { title: 'Nope' }, basic(contributor)), 403, 'rest_forbidden');
      expectError(await ev.remove(others.id, basic(contributor)), 403, 'rest_forbidden');
      expectError(await ev.update(adminEvent.id, { title: 'Nope' }, basic(contributor)), 403, 'rest_forbidden');
      expect((await ev.get(adminEvent.id)).body.title).toBe('Admin Event');
    });

    it('lets an author edit and trash own events in any status but not others’; editors edit all', async () => {
      const own = await ev.make(eventBody({ title: 'Author own' }), basic(author));
      expect((await ev.update(own.id, { title: 'Author own v2' }, basic(author))).status).toBe(200);
      const ownDraft = await ev.make(eventBody({ title: 'Author draft', status: 'draft' }), basic(author));
      expect((await ev.update(ownDraft.id, { excerpt: 'x' }, basic(author))).body.status).toBe('draft');
      expectError(await ev.update(own.id, { title: 'Stolen' }, basic(otherAuthor)), 403, 'rest_forbidden');
      expectError(await ev.remove(own.id, basic(otherAuthor)), 403, 'rest_forbidden');
      expectError(await ev.update(adminEvent.id, { title: 'Stolen' }, basic(author)), 403, 'rest_forbidden');
      expect((await ev.update(own.id, { title: 'Edited by editor' }, basic(editor))).status).toBe(200);
      expect((await ev.remove(ownDraft.id, basic(author))).status).toBe(200);
      expect((await ev.remove(own.id, basic(editor))).status).toBe(200);
    });

    it('keeps the status when an update sends none, for every role', async () => {
      const draft = await ev.make(eventBody({ status: 'draft' }));
      expect((await ev.update(draft.id, { title: 'Still a draft' })).body.status).toBe('draft');
      const priv = await ev.make(eventBody({ status: 'private' }), basic(author));
      expect((await ev.update(priv.id, { title: 'Still private' }, basic(author))).body.status).toBe('private');
      const pending = await ev.make(eventBody({ status: 'pending' }), basic(contributor));
      expect((await ev.update(pending.id, { title: 'Still pending' }, basic(contributor))).body.status).toBe('pending');
      const future = await ev.make(eventBody({ date: '2030-01-01 00:00:00' }));
      expect((await ev.update(future.id, { title: 'Still future' })).body.status).toBe('future');
    });

    it('answers anonymous and subscriber writes with 401 and 403', async () => {
      const anonymous = await ev.update(adminEvent.id, { title: 'x' }, null);
      expectError(anonymous, 401, 'rest_forbidden');
      expect(anonymous.headers.allow).toBe('GET');
      expectError(await ev.remove(adminEvent.id, null), 401, 'rest_forbidden');
      expectError(await ev.update(adminEvent.id, { title: 'x' }, basic(subscriber)), 403, 'rest_forbidden');
      expectError(await ev.remove(adminEvent.id, basic(subscriber)), 403, 'rest_forbidden');
    });

    it('applies the same per-item checks on the by-slug routes', async () => {
      const theirs = await ev.make(eventBody({ title: 'Slug Guarded' }), basic(otherContributor));
      const bySlug = (method: 'put' | 'post' | 'patch' | 'delete', auth: string | null, body: Record<string, unknown> = {}) => {
        const req = t.http()[method](`${API}/events/by-slug/${theirs.slug}`);
        return (auth ? req.set('Authorization', auth) : req).send(body);
      };
      for (const method of ['put', 'post', 'patch'] as const) {
        expectError(await bySlug(method, basic(contributor), { title: 'Hijacked' }), 403, 'rest_forbidden');
        expectError(await bySlug(method, basic(author), { title: 'Hijacked' }), 403, 'rest_forbidden');
      }
      expectError(await bySlug('delete', basic(contributor)), 403, 'rest_forbidden');
      expectError(await bySlug('put', null, { title: 'Hijacked' }), 401, 'rest_forbidden');
      expect((await ev.get(theirs.id, basic(otherContributor))).body.title).toBe('Slug Guarded');
      const own = await bySlug('patch', basic(otherContributor), { title: 'Mine to change' });
      expect(own.status).toBe(200);
      expect(own.body.title).toBe('Mine to change');
      // an update by an unknown slug: checks, then permission, then 404 (spec §3.2, §11.5)
      const unknownSlug = (auth: string | null, body: object = { title: 'x' }) => {
        const request = t.http().put(`${API}/events/by-slug/no-such-slug`);
        return (auth ? request.set('Authorization', auth) : request).send(body);
      };
      expectError(await unknownSlug(basic(subscriber)), 403, 'rest_forbidden');
      expectError(await unknownSlug(null), 401, 'rest_forbidden');
      expectError(await unknownSlug(basic(author), { website: 'foo' }), 400, 'rest_invalid_param', ['website']);
      for (const method of ['post', 'put', 'patch'] as const) {
        const res = await t.http()[method](`${API}/events/by-slug/no-such-slug`).set('Authorization', basic(author)).send({ title: 'x' });
        expect(res.body).toEqual({
          code: 'rest-event-not-found',
          message: 'There is no event with the slug "no-such-slug".',
          data: { status: 404 },
        });
      }
      const german = await t.http().patch(`/de${API}/events/by-slug/no-such-slug`).set('Authorization', ADMIN_AUTH).send({ title: 'x' });
      expect(german.body.message).toBe('Es gibt keine Veranstaltung mit dem Slug „no-such-slug“.');
      expectError(await ev.get('by-slug/no-such-slug', ADMIN_AUTH), 400, 'rest_invalid_param', ['slug']);
      expectError(await ev.remove('by-slug/no-such-slug', ADMIN_AUTH), 400, 'rest_invalid_param', ['slug']);
    });

    it('checks existence after permission for unknown ids, and validation before permission', async () => {
      expectError(await ev.remove(987654, null), 401, 'rest_forbidden');
      expectError(await ev.remove(987654, basic(subscriber)), 403, 'rest_forbidden');
      const admin = await ev.remove(987654, ADMIN_AUTH);
      expect(admin.body).toEqual({ code: 'rest-event-not-found', message: 'There is no event with ID 987654.', data: { status: 404 } });
      expectError(await ev.remove(987654, basic(contributor)), 404, 'rest-event-not-found');
      expectError(await ev.update(987654, { title: 'x' }, null), 401, 'rest_forbidden');
      expectError(await ev.update(987654, { title: 'x' }, basic(author)), 404, 'rest-event-not-found');
      const invalid = await t.http().put(`${API}/events/${adminEvent.id}`).set('Authorization', basic(contributor)).send({ venue: 987654 });
      expectError(invalid, 400, 'rest_invalid_param', ['venue']);
      expectError(await ev.update(adminEvent.id, { website: 'foo' }, null), 400, 'rest_invalid_param', ['website']);
      expectError(await ev.remove('by-slug/no-such-event', null), 400, 'rest_invalid_param', ['slug']);
    });

    it('uses the item of another kind for the permission check of /events/<id>', async () => {
      const venue = await t.http().post(`${API}/venues`).set('Authorization', ADMIN_AUTH).send({ venue: 'Permission Hall' });
      expectError(await ev.remove(venue.body.id, null), 401, 'rest_forbidden');
      expectError(await ev.update(venue.body.id, { title: 'x' }, basic(contributor)), 403, 'rest_forbidden');
      expectError(await ev.remove(venue.body.id, ADMIN_AUTH), 400, 'rest-invalid-event-id');
    });

    it('handles a POST with _method=DELETE or X-HTTP-Method-Override as that method', async () => {
      const first = await ev.make(eventBody({ title: 'Override one' }));
      const viaQuery = await t.http().post(`${API}/events/${first.id}?_method=DELETE`).set('Authorization', ADMIN_AUTH);
      expect(viaQuery.body.status).toBe('trash');
      const second = await ev.make(eventBody({ title: 'Override two' }));
      const viaHeader = await t
        .http()
        .post(`${API}/events/${second.id}`)
        .set('Authorization', ADMIN_AUTH)
        .set('X-HTTP-Method-Override', 'delete');
      expect(viaHeader.body.status).toBe('trash');
    });
  });

  describe('Allow header (§14.2)', () => {
    it('lists the methods the requester may use on the addressed route', async () => {
      const draft = await ev.make(eventBody({ title: 'Allow draft' }), basic(contributor));
      const cases: Array<[string, () => Promise<{ headers: Record<string, string>; status: number }>, string]> = [
        ['anonymous GET /events', () => ev.list(), 'GET'],
        ['anonymous GET /events/<id>', () => ev.get(adminEvent.id), 'GET'],
        ['anonymous GET /events/by-slug/<slug>', () => ev.get(`by-slug/${adminEvent.slug}`), 'GET'],
        ['anonymous POST /events', () => ev.create(eventBody(), null), 'GET'],
        ['subscriber GET /events', () => ev.list('', basic(subscriber)), 'GET'],
        ['contributor GET /events', () => ev.list('', basic(contributor)), 'GET, POST'],
        ['administrator GET /events', () => ev.list('', ADMIN_AUTH), 'GET, POST'],
        ['administrator GET /events/<id>', () => ev.get(adminEvent.id, ADMIN_AUTH), FULL],
        ['administrator DELETE /events/<unknown>', () => ev.remove(987654, ADMIN_AUTH), FULL],
        ['contributor GET /events/<admin event>', () => ev.get(adminEvent.id, basic(contributor)), 'GET'],
        ['contributor GET /events/<own draft>', () => ev.get(draft.id, basic(contributor)), FULL],
        ['contributor GET /events/by-slug/<own draft>', () => ev.get(`by-slug/${draft.slug}`, basic(contributor)), FULL],
        ['author GET /events/<own draft of contributor>', () => ev.get(draft.id, basic(author)), 'GET'],
        ['editor GET /events/<contributor draft>', () => ev.get(draft.id, basic(editor)), FULL],
        ['anonymous GET /events/<draft> (403)', () => ev.get(draft.id), 'GET'],
        ['anonymous GET /events/987654 (404)', () => ev.get(987654), 'GET'],
        ['anonymous DELETE /events/987654 (401)', () => ev.remove(987654, null), 'GET'],
        ['administrator POST /events without title (400)', () => ev.create({}), 'GET, POST'],
        ['contributor PUT /events/<admin event> (403)', () => ev.update(adminEvent.id, { title: 'x' }, basic(contributor), 'put'), 'GET'],
      ];
      for (const [label, run, allow] of cases) {
        const res = await run();
        expect({ label, allow: res.headers.allow }).toEqual({ label, allow });
      }
      const deleted = await ev.remove(adminEvent.id, ADMIN_AUTH);
      expect(deleted.status).toBe(200);
      expect(deleted.headers.allow).toBe(FULL);
    });
  });
});
