import type { Response } from 'supertest';
import { eventLinks, seedEvent } from './support/seed-events.js';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

const admin = basic(ADMIN);
const HOST = 'calendar.test';
const O = `${API}/organizers`;
const V = `${API}/venues`;
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
  'organizer',
  'description',
  'excerpt',
  'slug',
  'image',
  'phone',
  'website',
  'email',
  'global_id',
  'global_id_lineage',
];
const withJsonLd = (keys: string[]) => {
  const result = [...keys];
  result.splice(result.indexOf('global_id'), 0, 'json_ld');
  return result;
};
const entities = (text: string) => [...text].map((character) => `&#${character.codePointAt(0)};`).join('');

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

/** Request helpers bound to one app; `auth` null or absent on reads means anonymous. */
function client(getApp: () => TestApp) {
  const withAuth = <T extends { set: (name: string, value: string) => T }>(req: T, auth?: string | null): T =>
    auth ? req.set('Authorization', auth) : req;
  return {
    create: (body: Record<string, unknown>, auth: string | null = admin) => withAuth(getApp().http().post(O), auth).send(body),
    read: (path: string | number, auth?: string | null) => withAuth(getApp().http().get(`${O}/${path}`), auth),
    update: (path: string | number, body: Record<string, unknown>, auth: string | null = admin, method: Method = 'patch') =>
      withAuth(getApp().http()[method](`${O}/${path}`), auth).send(body),
    trash: (path: string | number, auth: string | null = admin) => withAuth(getApp().http().delete(`${O}/${path}`), auth),
    list: (query = '', auth?: string | null) =>
      withAuth(
        getApp()
          .http()
          .get(`${O}${query ? `?${query}` : ''}`),
        auth,
      ),
  };
}

/** The ids of a list answer, failing with the answer itself when it is not a 200 list. */
function ids(res: Response): number[] {
  if (res.status !== 200 || !Array.isArray(res.body.organizers))
    throw new Error(`expected a 200 list, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.organizers.map((item: { id: number }) => item.id);
}

describe('organizers', () => {
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
    it('gives a venue then an organizer consecutive ids (§3.1)', async () => {
      const venue = await t.http().post(V).set('Authorization', admin).send({ venue: 'Sequence Venue' });
      const organizer = await create({ organizer: 'Sequence Organizer' });
      expect(organizer.status).toBe(201);
      expect(organizer.body.id).toBe(venue.body.id + 1);
      const next = await create({ organizer: 'Sequence Organizer Two' });
      expect(next.body.id).toBe(organizer.body.id + 1);
    });

    it('answers 400 rest_invalid_param (id) for ids that are not organizers, on GET, update and DELETE (§3.2)', async () => {
      const venue = await t.http().post(V).set('Authorization', admin).send({ venue: 'Wrong Kind Venue' });
      const withImage = await create({ organizer: 'Wrong Kind Image Holder', image: 'https://img.example/wrong-kind.png' });
      const event = await seedEvent(t, {});
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
      for (const id of [venue.body.id, withImage.body.image.id, event.id, categoryId, 0, 987654]) {
        expectInvalid(await read(id), ['id']);
        expectInvalid(await read(id, admin), ['id']);
        for (const method of ['post', 'put', 'patch'] as const) expectInvalid(await update(id, { phone: '1' }, admin, method), ['id']);
        expectInvalid(await trash(id), ['id']);
      }
      expectInvalid(await read(`by-slug/${venue.body.slug}`), ['slug']);
      expectInvalid(await read('by-slug/no-such-organizer'), ['slug']);
      for (const method of ['post', 'put', 'patch'] as const)
        expectInvalid(await update('by-slug/no-such-organizer', { phone: '1' }, admin, method), ['slug']);
      expectInvalid(await trash('by-slug/no-such-organizer'), ['slug']);
      expect((await t.http().get(`${V}/${venue.body.id}`)).body.status).toBe('publish');
    });
  });

  describe('payload shape (§8.4)', () => {
    it('creates with 201, Location and every field in the documented order', async () => {
      const res = await create(
        {
          organizer: 'Tidewater Arts Guild',
          description: 'Arts and crafts.',
          excerpt: 'Crafts.',
          phone: '+1 920 555 0199',
          website: 'https://tidewater.example',
          email: 'hi@tidewater.example',
          image: 'https://img.example/guild.webp',
        },
        basic(editor),
      );
      expect(res.status).toBe(201);
      const id = res.body.id;
      expect(res.headers.location).toBe(`${PUBLIC_URL}${API}/organizers/${id}`);
      expect(Object.keys(res.body)).toEqual(FULL_KEYS);
      expect(res.body).toEqual({
        id,
        author: String(editor.id),
        status: 'publish',
        date: expect.stringMatching(WALL),
        date_utc: res.body.date,
        modified: expect.stringMatching(WALL),
        modified_utc: res.body.modified,
        url: `${PUBLIC_URL}/organizer/tidewater-arts-guild/`,
        organizer: 'Tidewater Arts Guild',
        description: '<p>Arts and crafts.</p>',
        excerpt: '<p>Crafts.</p>',
        slug: 'tidewater-arts-guild',
        image: { url: 'https://img.example/guild.webp', id: expect.any(Number), extension: 'webp' },
        phone: '+1 920 555 0199',
        website: 'https://tidewater.example',
        email: 'hi@tidewater.example',
        global_id: `${HOST}?id=${id}`,
        global_id_lineage: [`${HOST}?id=${id}`],
      });
      const single = await read(id);
      expect(single.status).toBe(200);
      expect(Object.keys(single.body)).toEqual(withJsonLd(FULL_KEYS));
      const { json_ld: _ignored, ...rest } = single.body;
      expect(rest).toEqual(res.body);
      expect(single.body).not.toHaveProperty('show_map');
    });

    it('omits empty fields and the image when there is none, and has no show_map keys', async () => {
      const res = await create({ organizer: 'Bare Organizer' });
      expect(Object.keys(res.body)).toEqual([
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
        'global_id',
        'global_id_lineage',
      ]);
      expect(res.body.author).toBe('1');
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
        'organizer',
        'slug',
        'json_ld',
        'global_id',
        'global_id_lineage',
      ]);
    });

    it('uses the url form that matches the status (§8.1)', async () => {
      const draft = await create({ organizer: 'Url Draft Org', status: 'draft' });
      expect(draft.body.url).toBe(`${PUBLIC_URL}/?post_type=tribe_organizer&p=${draft.body.id}`);
      const future = await create({ organizer: 'Url Future Org', status: 'publish', date: '2099-01-01 00:00:00' });
      expect(future.body).toMatchObject({ status: 'future', url: `${PUBLIC_URL}/?post_type=tribe_organizer&p=${future.body.id}` });
      const priv = await create({ organizer: 'Url Private Org', status: 'private' });
      expect(priv.body.url).toBe(`${PUBLIC_URL}/organizer/url-private-org/`);
      const pending = await create({ organizer: 'Url Pending Org', status: 'pending' });
      expect(pending.body.url).toBe(`${PUBLIC_URL}/?post_type=tribe_organizer&p=${pending.body.id}`);
    });

    it('adds the schema.org Person with the e-mail as character references to single reads only (§8.10)', async () => {
      const created = await create({
        organizer: 'Harbour & "Choir"',
        description: 'Arts <b>guild</b>',
        phone: '+1 920 555 0100',
        website: 'https://choir.example',
        email: 'hi@tidewater.example',
        image: 'https://img.example/choir.png',
      });
      expect(created.body).not.toHaveProperty('json_ld');
      const expected = {
        '@type': 'Person',
        name: 'Harbour &amp; &quot;Choir&quot;',
        description: '&lt;p&gt;Arts &lt;b&gt;guild&lt;/b&gt;&lt;/p&gt;\\n',
        image: 'https://img.example/choir.png',
        url: 'https://choir.example',
        telephone: '+1 920 555 0100',
        email: entities('hi@tidewater.example'),
        sameAs: 'https://choir.example',
      };
      expect(expected.email.startsWith('&#104;&#105;&#64;&#116;')).toBe(true);
      const byId = await read(created.body.id);
      expect(byId.body.json_ld).toEqual(expected);
      expect(Object.keys(byId.body.json_ld)).toEqual(Object.keys(expected));
      expect((await read(`by-slug/${created.body.slug}`)).body.json_ld).toEqual(expected);
      expect((await update(created.body.id, { phone: '1' })).body).not.toHaveProperty('json_ld');
      const listed = await api.list('per_page=50', admin);
      for (const organizer of listed.body.organizers) expect(organizer).not.toHaveProperty('json_ld');

      const withExcerpt = await create({ organizer: 'Excerpt Org', excerpt: 'Short', description: 'Long' });
      expect((await read(withExcerpt.body.id)).body.json_ld.description).toBe('&lt;p&gt;Short&lt;/p&gt;\\n');
      const empty = await create({ organizer: 'Empty Person' });
      expect((await read(empty.body.id)).body.json_ld).toEqual({
        '@type': 'Person',
        name: 'Empty Person',
        description: '',
        url: '',
        telephone: '',
        email: '',
        sameAs: '',
      });
    });

    it('stores the e-mail as sent, without validating it beyond its length', async () => {
      const odd = await create({ organizer: 'Odd Mail Org', email: 'not really an address' });
      expect(odd.status).toBe(201);
      expect(odd.body.email).toBe('not really an address');
      expectInvalid(await create({ organizer: 'Long Mail Org', email: `${'m'.repeat(250)}@x.example` }), ['email']);
    });

    it('handles images: URL, reuse, id, removal, contributor limits', async () => {
      const url = 'https://img.example/people/Face.PNG';
      const first = await create({ organizer: 'Image Org One', image: url });
      expect(first.body.image).toEqual({ url, id: expect.any(Number), extension: 'png' });
      expect((await create({ organizer: 'Image Org Two', image: url })).body.image.id).toBe(first.body.image.id);
      expect((await create({ organizer: 'Image Org Three', image: first.body.image.id })).body.image).toEqual(first.body.image);
      const removed = await update(first.body.id, { image: null });
      expect(removed.body).not.toHaveProperty('image');
      expectInvalid(await create({ organizer: 'Image Org Contributor', image: 'https://img.example/unseen.gif' }, basic(contributor)), [
        'image',
      ]);
      expectInvalid(await create({ organizer: 'Image Org Not Image', image: first.body.id }), ['image']);
    });
  });

  describe('validation (§11.8)', () => {
    it('requires the name', async () => {
      const res = await create({ email: 'nameless@example.com' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'rest_missing_callback_param',
        message: expect.any(String),
        data: { status: 400, params: ['organizer'] },
      });
    });

    it('applies the name rules on create: not empty, not null, at most 1000 characters (§7.4, §7.6)', async () => {
      for (const organizer of ['', '   ', null]) {
        const res = await create({ organizer, phone: '0000' });
        expect({ organizer, status: res.status, code: res.body.code, params: Object.keys(res.body.data?.params ?? {}) }).toEqual({
          organizer,
          status: 400,
          code: 'rest_invalid_param',
          params: ['organizer'],
        });
      }
      expectInvalid(await create({ organizer: 'o'.repeat(1001) }), ['organizer']);
    });

    it('refuses each invalid field with rest_invalid_param naming it', async () => {
      expectInvalid(await create({ organizer: 'Bad Status Org', status: 'kinda_thinking_about_it' }), ['status']);
      expectInvalid(await create({ organizer: 'Trash Status Org', status: 'trash' }), ['status']);
      expectInvalid(await create({ organizer: 'Bad Author Org', author: 23 }), ['author']);
      expectInvalid(await create({ organizer: 'Bad Author Word Org', author: 'foo' }), ['author']);
      expectInvalid(await create({ organizer: 'Bad Date Org', date: 'before my birthday' }), ['date']);
      expectInvalid(await create({ organizer: 'Bad Date Utc Org', date_utc: '2027-13-01' }), ['date_utc']);
      expectInvalid(await create({ organizer: 'Bad Website Org', website: 'not a url' }), ['website']);
      expectInvalid(await create({ organizer: 'Bad Image Org', image: 'foo bar' }), ['image']);
      expectInvalid(await create({ organizer: 'Bad Image Page Org', image: 'https://img.example/about.html' }), ['image']);
      expectInvalid(await create({ organizer: 'Bad Slug Org', slug: '' }), ['slug']);
      expectInvalid(await create({ organizer: 'Bad Password Org', post_password: 'p'.repeat(256) }), ['post_password']);
    });

    it('reports all invalid fields at once in parameter-table order and writes nothing', async () => {
      const res = await create({
        organizer: 'Never Stored Org',
        image: 'foo bar',
        website: 'nope',
        date: 'before my birthday',
        author: 23,
        status: 'kinda_thinking_about_it',
      });
      expectInvalid(res, ['status', 'author', 'date', 'website', 'image']);
      expectInvalid(await read('by-slug/never-stored-org', admin), ['slug']);
    });

    it('applies the same checks on update', async () => {
      const { body } = await create({ organizer: 'Update Checks Org' });
      expectInvalid(await update(body.id, { organizer: '' }), ['organizer']);
      expectInvalid(await update(body.id, { organizer: null }), ['organizer']);
      expectInvalid(await update(body.id, { status: 'kinda_thinking_about_it' }), ['status']);
      expectInvalid(await update(body.id, { author: 'foo' }), ['author']);
      expectInvalid(await update(body.id, { website: 'mailto:x@example.com' }), ['website']);
      expectInvalid(await update(body.id, { image: 'https://img.example/doc.pdf' }), ['image']);
      expect((await read(body.id)).body.organizer).toBe('Update Checks Org');
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
        const body = (label: string) => ({
          organizer: `Org status ${requested ?? 'none'} ${label}`,
          ...(requested ? { status: requested } : {}),
        });
        for (const [label, auth] of [
          ['admin', admin],
          ['editor', basic(editor)],
          ['author', basic(author)],
        ] as const) {
          expect((await create(body(label), auth)).body.status).toBe(publisherStatus);
        }
        const res = await create(body('contributor'), basic(contributor));
        expect(res.status).toBe(201);
        expect(res.body.status).toBe(contributorStatus);
      },
    );

    it('schedules with a future date, publishes a past future, and keeps the status on updates without one', async () => {
      expect((await create({ organizer: 'Org Scheduled', date: '2099-05-05 05:05:05' }, basic(author))).body.status).toBe('future');
      expect((await create({ organizer: 'Org Future Dated', status: 'future', date: '2099-05-05 05:05:05' })).body.status).toBe('future');
      const past = await create({ organizer: 'Org Past Future', status: 'future', date: '2002-02-02 02:02:02' });
      expect(past.body).toMatchObject({ status: 'publish', date: '2002-02-02 02:02:02' });
      expect(
        (await create({ organizer: 'Org Contributor Future', status: 'future', date: '2099-05-05 05:05:05' }, basic(contributor))).body
          .status,
      ).toBe('pending');
      const draft = await create({ organizer: 'Org Keep Draft', status: 'draft' }, basic(author));
      expect((await update(draft.body.id, { phone: '42' }, basic(author))).body.status).toBe('draft');
      const pending = await create({ organizer: 'Org Keep Pending', status: 'pending' }, basic(contributor));
      expect((await update(pending.body.id, { phone: '42' }, basic(editor))).body.status).toBe('pending');
      expect((await update(draft.body.id, { status: 'publish' }, basic(author))).body.status).toBe('publish');
      const contributorDraft = await create({ organizer: 'Org Contributor Submit' }, basic(contributor));
      expect((await update(contributorDraft.body.id, { status: 'private' }, basic(contributor))).body.status).toBe('pending');
    });
  });

  describe('reading single organizers (§5.4, §10.2)', () => {
    it('applies canRead per status and role, by id and by slug', async () => {
      const draft = await create({ organizer: 'Org Read Draft', status: 'draft' }, basic(author));
      for (const path of [draft.body.id, `by-slug/${draft.body.slug}`]) {
        expectCode(await read(path), 403, 'organizer-not-accessible');
        expectCode(await read(path, basic(subscriber)), 403, 'organizer-not-accessible');
        expectCode(await read(path, basic(author2)), 403, 'organizer-not-accessible');
        expectCode(await read(path, basic(contributor)), 403, 'organizer-not-accessible');
        expect((await read(path, basic(author))).status).toBe(200);
        expect((await read(path, basic(editor))).status).toBe(200);
      }
      const pending = await create({ organizer: 'Org Read Pending' }, basic(contributor));
      expect((await read(pending.body.id, basic(contributor))).status).toBe(200);
      expectCode(await read(pending.body.id, basic(contributor2)), 403, 'organizer-not-accessible');
      const scheduled = await create({
        organizer: 'Org Read Scheduled',
        status: 'future',
        date: '2099-01-01 00:00:00',
        author: contributor.id,
      });
      expectCode(await read(scheduled.body.id, basic(contributor)), 403, 'organizer-not-accessible');
      const priv = await create({ organizer: 'Org Read Private', status: 'private' }, basic(author));
      expect((await read(priv.body.id, basic(author))).status).toBe(200);
      expect((await read(priv.body.id, admin)).status).toBe(200);
      expectCode(await read(priv.body.id), 403, 'organizer-not-accessible');
      expectCode(await read(priv.body.id, basic(author2)), 403, 'organizer-not-accessible');
      const published = await create({ organizer: 'Org Read Public' });
      expect((await read(published.body.id)).status).toBe(200);
      expect((await read('by-slug/ORG-READ-PUBLIC')).body.id).toBe(published.body.id);
    });
  });

  describe('updates (§11.8)', () => {
    it('updates through POST, PUT and PATCH, by id and by slug, changing only the fields sent', async () => {
      const created = await create({ organizer: 'Method Org', phone: '111', website: 'https://method.example', email: 'm@method.example' });
      const { id, slug } = created.body;
      for (const method of ['post', 'put', 'patch'] as const) {
        const res = await update(id, { phone: `phone-${method}` }, admin, method);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          id,
          organizer: 'Method Org',
          phone: `phone-${method}`,
          website: 'https://method.example',
          email: 'm@method.example',
          slug,
        });
        expect(res.body).not.toHaveProperty('json_ld');
      }
      for (const method of ['post', 'put', 'patch'] as const) {
        const res = await update(`by-slug/${slug}`, { description: `via ${method}` }, admin, method);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ id, description: `<p>via ${method}</p>`, phone: 'phone-patch' });
      }
    });

    it('keeps contact fields when only the name is sent and removes them with ""; renaming keeps the slug', async () => {
      const created = await create({
        organizer: 'Contact Org',
        phone: '222',
        website: 'https://contact.example',
        email: 'c@contact.example',
      });
      const renamed = await update(created.body.id, { organizer: 'Contact Org Renamed' });
      expect(renamed.body).toMatchObject({
        organizer: 'Contact Org Renamed',
        slug: 'contact-org',
        phone: '222',
        website: 'https://contact.example',
        email: 'c@contact.example',
      });
      const cleared = await update(created.body.id, { email: '', phone: '', website: '' });
      expect(cleared.status).toBe(200);
      for (const key of ['email', 'phone', 'website']) expect(cleared.body).not.toHaveProperty(key);
      expect((await read(created.body.id)).body.json_ld).toMatchObject({ url: '', telephone: '', email: '', sameAs: '' });
    });
  });

  describe('permissions (§4.5, §4.6)', () => {
    it('refuses anonymous creates with 401 and subscribers with 403', async () => {
      expectCode(await create({ organizer: 'Anonymous Org' }, null), 401, 'rest_forbidden');
      expectCode(await create({ organizer: 'Subscriber Org' }, basic(subscriber)), 403, 'rest_forbidden');
      expectInvalid(await read('by-slug/anonymous-org', admin), ['slug']);
      expectInvalid(await read('by-slug/subscriber-org', admin), ['slug']);
    });

    it('lets contributors edit and trash only their own unpublished (and private) organizers', async () => {
      const c = basic(contributor);
      const draft = await create({ organizer: 'Org Contrib Draft' }, c);
      expect((await update(draft.body.id, { phone: '1' }, c)).status).toBe(200);
      const ownPublished = await create({ organizer: 'Org Contrib Published', author: contributor.id });
      expectCode(await update(ownPublished.body.id, { phone: '1' }, c), 403, 'rest_forbidden');
      expectCode(await trash(ownPublished.body.id, c), 403, 'rest_forbidden');
      const ownPrivate = await create({ organizer: 'Org Contrib Private', author: contributor.id, status: 'private' });
      expect((await update(ownPrivate.body.id, { phone: '1' }, c)).status).toBe(200);
      const others = await create({ organizer: 'Org Other Contrib Draft' }, basic(contributor2));
      expectCode(await update(others.body.id, { phone: '1' }, c), 403, 'rest_forbidden');
      expectCode(await trash(others.body.id, c), 403, 'rest_forbidden');
      expect((await trash(draft.body.id, c)).body.status).toBe('trash');
    });

    it('lets authors manage only their own organizers and editors all of them', async () => {
      const own = await create({ organizer: 'Org Author Own' }, basic(author));
      expect((await update(own.body.id, { phone: '1' }, basic(author))).status).toBe(200);
      const others = await create({ organizer: 'Org Editor Own' }, basic(editor));
      expectCode(await update(others.body.id, { phone: '1' }, basic(author)), 403, 'rest_forbidden');
      expectCode(await trash(others.body.id, basic(author)), 403, 'rest_forbidden');
      expect((await update(own.body.id, { phone: '2' }, basic(editor))).status).toBe(200);
      expect((await trash(own.body.id, basic(editor))).status).toBe(200);
      expect((await trash(others.body.id, admin)).status).toBe(200);
      const guarded = await create({ organizer: 'Org Guarded' });
      expectCode(await update(guarded.body.id, { phone: '1' }, null), 401, 'rest_forbidden');
      expectCode(await trash(guarded.body.id, null), 401, 'rest_forbidden');
      expectCode(await update(guarded.body.id, { phone: '1' }, basic(subscriber)), 403, 'rest_forbidden');
      expectCode(await trash(guarded.body.id, basic(subscriber)), 403, 'rest_forbidden');
    });

    it('applies the same per-item checks on the by-slug routes', async () => {
      const adminOrg = await create({ organizer: 'Org Slug Guarded' });
      const authorOrg = await create({ organizer: 'Org Slug Author' }, basic(author));
      for (const method of ['post', 'put', 'patch'] as const) {
        expectCode(await update(`by-slug/${adminOrg.body.slug}`, { phone: 'hijack' }, basic(contributor), method), 403, 'rest_forbidden');
        expectCode(await update(`by-slug/${adminOrg.body.slug}`, { phone: 'hijack' }, basic(author), method), 403, 'rest_forbidden');
      }
      expectCode(await trash(`by-slug/${adminOrg.body.slug}`, basic(author)), 403, 'rest_forbidden');
      expect((await read(adminOrg.body.id)).body).not.toHaveProperty('phone');
      expect((await update(`by-slug/${authorOrg.body.slug}`, { phone: 'mine' }, basic(author), 'put')).status).toBe(200);
      expect((await trash(`by-slug/${authorOrg.body.slug}`, basic(author))).body).toMatchObject({
        status: 'trash',
        slug: 'org-slug-author__trashed',
      });
    });

    it('checks existence and validation before permission (§4.6)', async () => {
      expectInvalid(await trash(987654, null), ['id']);
      expectInvalid(await update(987654, { phone: '1' }, null), ['id']);
      expectInvalid(await trash('by-slug/nobody-here', basic(subscriber)), ['slug']);
      const missing = await create({}, null);
      expect(missing.body.code).toBe('rest_missing_callback_param');
      const { body } = await create({ organizer: 'Org Validated First' });
      expectInvalid(await update(body.id, { website: 'nope' }, null), ['website']);
    });
  });

  describe('slugs (§3.3)', () => {
    it('generates, suffixes, sanitises and refuses empty slugs', async () => {
      expect((await create({ organizer: 'Jazz Night' })).body.slug).toBe('jazz-night');
      expect((await create({ organizer: 'Jazz Night!' })).body.slug).toBe('jazz-night-2');
      expect((await create({ organizer: 'Jazz  Night', status: 'draft' })).body.slug).toBe('jazz-night-3');
      expect((await create({ organizer: 'Café Ünter den Linden' })).body.slug).toBe('cafe-unter-den-linden');
      expect((await create({ organizer: 'User Slug Org', slug: '  --Summer  2027--' })).body.slug).toBe('summer-2027');
      const arabic = await create({ organizer: 'مهرجان' });
      expect(arabic.body.slug).toBe(String(arabic.body.id));
      expectInvalid(await create({ organizer: 'Empty Slug Org', slug: '' }), ['slug']);
      expectInvalid(await create({ organizer: 'Symbol Slug Org', slug: '***' }), ['slug']);
      const venue = await t.http().post(V).set('Authorization', admin).send({ venue: 'Jazz Night' });
      expect(venue.body.slug).toBe('jazz-night');
    });

    it('keeps the slug on rename, changes it when sent, and looks it up exactly', async () => {
      const created = await create({ organizer: 'Slug Keeper Org' });
      expect((await update(created.body.id, { organizer: 'Another Name' })).body.slug).toBe('slug-keeper-org');
      const changed = await update(created.body.id, { slug: 'Brand New' });
      expect(changed.body).toMatchObject({ slug: 'brand-new', url: `${PUBLIC_URL}/organizer/brand-new/` });
      expectInvalid(await read('by-slug/slug-keeper-org'), ['slug']);
      expect((await read('by-slug/brand-new')).body.id).toBe(created.body.id);
      expect((await update((await create({ organizer: 'Slug Thief Org' })).body.id, { slug: 'brand-new' })).body.slug).toBe('brand-new-2');
    });
  });

  describe('de-duplication on create (§11.8)', () => {
    it('returns the existing organizer for the documented examples', async () => {
      const original = await create({ organizer: 'Harbourside Arts Guild', phone: '+1 920 555 0199', email: 'hi@harbourside.example' });
      const id = original.body.id;
      for (const body of [
        { organizer: 'Harbourside Arts Guild', email: 'hi@harbourside.example' },
        { organizer: 'harbourside arts guild' },
        { organizer: 'HARBOURSIDE ARTS GUILD', phone: ' +1 920 555 0199 ', email: 'HI@HARBOURSIDE.EXAMPLE' },
      ]) {
        const res = await create(body);
        expect(res.status).toBe(201);
        expect(res.body.id).toBe(id);
        expect(res.headers.location).toBe(`${PUBLIC_URL}${API}/organizers/${id}`);
      }
      const unchanged = await create({
        organizer: 'Harbourside Arts Guild',
        image: 'https://img.example/dedup-org.png',
        status: 'draft',
        post_password: 'x',
      });
      expect(unchanged.body.id).toBe(id);
      expect(unchanged.body).not.toHaveProperty('image');
      expect(unchanged.body.status).toBe('publish');
      expect((await read(id)).body.email).toBe('hi@harbourside.example');
      const different = await create({ organizer: 'Harbourside Arts Guild', email: 'other@harbourside.example' });
      expect(different.body.id).not.toBe(id);
      expect(different.body.slug).toBe('harbourside-arts-guild-2');
    });

    it('skips trashed and unreadable organizers and never applies to updates', async () => {
      const hidden = await create({ organizer: 'Org Hidden Twin', status: 'private' }, basic(author2));
      const mine = await create({ organizer: 'Org Hidden Twin' }, basic(author));
      expect(mine.body.id).not.toBe(hidden.body.id);
      const binned = await create({ organizer: 'Org Binned Twin' });
      await trash(binned.body.id);
      expect((await create({ organizer: 'Org Binned Twin' })).body.id).not.toBe(binned.body.id);
      const a = await create({ organizer: 'Org Update Twin A' });
      const b = await create({ organizer: 'Org Update Twin B' });
      const renamed = await update(b.body.id, { organizer: 'Org Update Twin A' });
      expect(renamed.body.id).toBe(b.body.id);
      expect((await read(a.body.id)).body.organizer).toBe('Org Update Twin A');
    });
  });

  describe('trash (§5.7)', () => {
    it('trashes, answers 410 the second time, and restores through an update with a status', async () => {
      const created = await create({ organizer: 'Org Trash Me', phone: '3' }, basic(author));
      const trashed = await trash(created.body.id, basic(author));
      expect(trashed.status).toBe(200);
      expect(trashed.body).toMatchObject({
        id: created.body.id,
        status: 'trash',
        slug: 'org-trash-me__trashed',
        url: `${PUBLIC_URL}/?post_type=tribe_organizer&p=${created.body.id}`,
        phone: '3',
      });
      expectCode(await trash(created.body.id), 410, 'organizer-is-in-trash');
      expectCode(await trash('by-slug/org-trash-me__trashed', basic(author)), 410, 'organizer-is-in-trash');
      expectCode(await read(created.body.id), 403, 'organizer-not-accessible');
      expectCode(await read(created.body.id, basic(author2)), 403, 'organizer-not-accessible');
      expect((await read(created.body.id, basic(editor))).body.status).toBe('trash');
      expect((await read(created.body.id, basic(author))).status).toBe(200);
      expectInvalid(await read('by-slug/org-trash-me', admin), ['slug']);
      const still = await update(created.body.id, { phone: '4' }, basic(author));
      expect(still.body).toMatchObject({ status: 'trash', phone: '4', slug: 'org-trash-me__trashed' });
      const restored = await update(created.body.id, { status: 'publish' }, basic(author));
      expect(restored.body).toMatchObject({ status: 'publish', slug: 'org-trash-me', url: `${PUBLIC_URL}/organizer/org-trash-me/` });
    });

    it('leaves trashed organizers out of lists unless status includes trash', async () => {
      const created = await create({ organizer: 'Org Trash Quokka' });
      const totals = async () => ({
        byDefault: (await api.list('', admin)).body.total,
        anonymous: (await api.list('')).body.total,
        trash: (await api.list('status=trash', admin)).body.total,
        publishAndTrash: (await api.list('status[]=trash&status[]=publish', admin)).body.total,
      });
      const before = await totals();
      const res = await t.http().delete(`${O}/${created.body.id}?force=1`).set('Authorization', admin);
      expect(res.body.status).toBe('trash');
      expect(await totals()).toEqual({
        byDefault: before.byDefault - 1,
        anonymous: before.anonymous - 1,
        trash: before.trash + 1,
        publishAndTrash: before.publishAndTrash,
      });
      expect(ids(await api.list('status=trash&per_page=50', admin))).toContain(created.body.id);
    });

    it('unlinks a trashed organizer from every event, keeping the other organizers', async () => {
      const first = await create({ organizer: 'Org Linked First' });
      const second = await create({ organizer: 'Org Linked Second' });
      const event = await seedEvent(t, { organizerIds: [first.body.id, second.body.id] });
      const other = await seedEvent(t, { organizerIds: [first.body.id], startUtc: '2001-01-01 00:00:00' });
      expect(ids(await api.list(`event=${event.id}`))).toEqual([second.body.id, first.body.id]);
      await trash(first.body.id);
      expect(await eventLinks(t, event.id)).toEqual({ venueId: null, organizerIds: [second.body.id], modifiedUtc: event.modifiedUtc });
      expect((await eventLinks(t, other.id)).organizerIds).toEqual([]);
      await update(first.body.id, { status: 'publish' });
      expect(ids(await api.list(`event=${event.id}`))).toEqual([second.body.id]);
      expect(ids(await api.list(`event=${other.id}`))).toEqual([]);
    });
  });

  describe('password protection (§5.6)', () => {
    const full = {
      organizer: 'Locked Guild',
      description: 'Secret.',
      excerpt: 'Hush.',
      phone: '555',
      website: 'https://locked-guild.example',
      email: 'hidden@guild.example',
      image: 'https://img.example/locked-guild.png',
      post_password: 'Open Sesame',
    };
    const redactions = { description: '', excerpt: '', image: false, phone: '', website: '', email: '' };

    it('redacts for readers who may not update it, unlocks with the exact password, never returns post_password', async () => {
      const created = await create(full, basic(author));
      expect(created.status).toBe(201);
      expect(JSON.stringify(created.body)).not.toMatch(/post_password|Open Sesame/);
      const own = (await read(created.body.id, basic(author))).body;
      expect(own.json_ld).toBeDefined();
      expect(own.email).toBe('hidden@guild.example');
      const { json_ld: _ld, ...ownWithoutLd } = own;
      for (const auth of [null, basic(subscriber), basic(author2), basic(contributor)]) {
        for (const path of [created.body.id, `by-slug/${created.body.slug}`]) {
          const res = await read(path, auth);
          expect(res.status).toBe(200);
          expect(Object.keys(res.body)).toEqual(Object.keys(ownWithoutLd));
          expect(res.body).toEqual({ ...ownWithoutLd, ...redactions });
          expect(res.body.organizer).toBe('Locked Guild');
        }
      }
      expect((await read(created.body.id, basic(editor))).body).toEqual(own);
      expect((await t.http().get(`${O}/${created.body.id}?password=Open+Sesame`)).body).toEqual(own);
      expect((await t.http().get(`${O}/by-slug/${created.body.slug}?password=Open%20Sesame`)).body).toEqual(own);
      const wrong = await t.http().get(`${O}/${created.body.id}?password=OPEN+SESAME`);
      expect(wrong.body).toEqual({ ...ownWithoutLd, ...redactions });
      const event = await seedEvent(t, { organizerIds: [created.body.id] });
      expect((await api.list(`event=${event.id}`)).body.organizers).toEqual([{ ...ownWithoutLd, ...redactions }]);
      const unlocked = await api.list(`event=${event.id}&password=Open+Sesame`);
      expect(unlocked.body.organizers).toEqual([ownWithoutLd]);
      expect(unlocked.body.rest_url).not.toContain('password');
      await update(created.body.id, { post_password: null }, basic(author));
      expect((await read(created.body.id)).body).toMatchObject({ email: 'hidden@guild.example', json_ld: own.json_ld });
    });
  });
});

describe('organizer lists (§5.5, §9)', () => {
  let t: TestApp;
  let author: Credentials;
  let author2: Credentials;
  let contributor: Credentials;
  let subscriber: Credentials;
  const api = client(() => t);
  const { create, trash, list } = api;
  const o: Record<string, number> = {};
  const url = (query: string) => `${PUBLIC_URL}${API}/organizers/?${query}`;

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
    expect(res.body).toEqual({ organizers: [], rest_url: url('page=1&per_page=6&status=publish'), total: 0, total_pages: 0 });
    expect(res.headers['x-tec-total']).toBe('0');
    expect(res.headers['x-tec-totalpages']).toBe('0');
    expect((await list('', basic(contributor))).body.rest_url).toBe(url('page=1&per_page=6&status=any'));
    const beyond = await list('page=2');
    expectCode(beyond, 404, 'organizer-archive-page-not-found');
    expect(beyond.headers['x-tec-total']).toBeUndefined();
  });

  describe('with organizers of every status', () => {
    beforeAll(async () => {
      const make = async (key: string, body: Record<string, unknown>, auth: string) => {
        const res = await create({ organizer: `List ${key}`, ...body }, auth);
        expect(res.status).toBe(201);
        o[key] = res.body.id;
      };
      await make('old', { date: '2018-01-01 00:00:00' }, admin);
      await make('a', { date: '2020-06-06 06:06:06' }, admin);
      await make('b', { date: '2020-06-06 06:06:06' }, basic(author));
      await make('new', { date: '2023-01-01 00:00:00' }, basic(author2));
      await make('authorDraft', { status: 'draft' }, basic(author));
      await make('author2Pending', { status: 'pending' }, basic(author2));
      await make('contribDraft', {}, basic(contributor));
      await make('authorPrivate', { status: 'private' }, basic(author));
      await make('future', { status: 'future', date: '2099-09-09 09:09:09' }, basic(author2));
      await make('authorTrash', {}, basic(author));
      await trash(o.authorTrash, basic(author));
    });

    const published = () => [o.new, o.b, o.a, o.old];

    it('orders by publication date descending, then id descending, per visibility', async () => {
      const anonymous = await list();
      expect(ids(anonymous)).toEqual(published());
      expect(anonymous.body.total).toBe(4);
      expect(ids(await list('', basic(subscriber)))).toEqual(published());
      expect(ids(await list('per_page=50', admin))).toEqual([
        o.future,
        o.authorPrivate,
        o.contribDraft,
        o.author2Pending,
        o.authorDraft,
        ...published(),
      ]);
      expect(ids(await list('per_page=50', basic(author)))).toEqual([o.authorPrivate, o.authorDraft, ...published()]);
      expect(ids(await list('per_page=50', basic(author2)))).toEqual([o.future, o.author2Pending, ...published()]);
      expect(ids(await list('per_page=50', basic(contributor)))).toEqual([o.contribDraft, ...published()]);
    });

    it('validates the status filter', async () => {
      for (const status of ['draft', 'any', 'publish,pending']) {
        expectInvalid(await list(`status=${status}`), ['status']);
        expectInvalid(await list(`status=${status}`, basic(subscriber)), ['status']);
      }
      expectInvalid(await list(`status=${encodeURIComponent('foo, bar, publish')}`, admin), ['status']);
      expect(ids(await list(`status=${encodeURIComponent('draft, pending')}`, admin))).toEqual([
        o.contribDraft,
        o.author2Pending,
        o.authorDraft,
      ]);
      expect(ids(await list('status[]=private&status[]=future', admin))).toEqual([o.future, o.authorPrivate]);
      expect(ids(await list('status=trash', admin))).toEqual([o.authorTrash]);
      expect(ids(await list('status=trash', basic(author)))).toEqual([o.authorTrash]);
      expect(ids(await list('status=trash', basic(author2)))).toEqual([]);
      expect(ids(await list('status=draft,pending', basic(author)))).toEqual([o.authorDraft]);
      expect(ids(await list('status=future', basic(author2)))).toEqual([o.future]);
      expect(ids(await list('status=any', basic(author)))).toEqual([o.authorPrivate, o.authorDraft, ...published()]);
      expect((await list('status=any,trash&per_page=50', admin)).body.total).toBe(10);
    });

    it('pages with links that keep the parameters', async () => {
      const first = await list('per_page=3');
      expect(ids(first)).toEqual([o.new, o.b, o.a]);
      expect(first.body).toMatchObject({
        rest_url: url('page=1&per_page=3&status=publish'),
        next_rest_url: url('per_page=3&status=publish&page=2'),
        total: 4,
        total_pages: 2,
      });
      expect(first.body.previous_rest_url).toBeUndefined();
      expect(first.headers['x-tec-total']).toBe('4');
      expect(first.headers['x-tec-totalpages']).toBe('2');
      const second = await t.http().get(first.body.next_rest_url.slice(PUBLIC_URL.length));
      expect(ids(second)).toEqual([o.old]);
      expect(second.body.previous_rest_url).toBe(url('per_page=3&status=publish'));
      expect(second.body.next_rest_url).toBeUndefined();
      const admins = await list('per_page=2&page=3&status=any', admin);
      expect(admins.body.previous_rest_url).toBe(url('per_page=2&status=any&page=2'));
      expect(admins.body.next_rest_url).toBe(url('per_page=2&status=any&page=4'));
      expectCode(await list('per_page=3&page=3'), 404, 'organizer-archive-page-not-found');
      expectInvalid(await list('page=foo&per_page=0'), ['page', 'per_page']);
    });

    it('echoes parameters in the documented order', async () => {
      const event = await seedEvent(t, {});
      const res = await list(`password=x&only_with_upcoming=on&status=publish&has_events=TRUE&event=${event.id}&per_page=4&zzz=1`);
      expect(res.status).toBe(200);
      expect(res.body.rest_url).toBe(url(`page=1&per_page=4&event=${event.id}&has_events=1&status=publish&only_with_upcoming=1`));
    });

    it('echoes search between status and only_with_upcoming', async () => {
      const event = await seedEvent(t, {});
      const withSearch = await list(
        `password=x&only_with_upcoming=on&status=publish&search=Guild+Hall&has_events=TRUE&event=${event.id}&per_page=4&zzz=1`,
      );
      expect(withSearch.status).toBe(200);
      expect(withSearch.body.rest_url).toBe(
        url(`page=1&per_page=4&event=${event.id}&has_events=1&status=publish&search=Guild+Hall&only_with_upcoming=1`),
      );
    });

    it('reduces per_page above 50 to 50', async () => {
      for (let i = 0; i < 48; i++) expect((await create({ organizer: `Bulk Org ${i}` })).status).toBe(201);
      const res = await list('per_page=51');
      expect(res.body).toMatchObject({ total: 52, total_pages: 2, rest_url: url('page=1&per_page=50&status=publish') });
      expect(res.body.organizers).toHaveLength(50);
      expect(ids(await list('per_page=500&page=2'))).toEqual([o.a, o.old]);
    });
  });
});

describe('organizer search (§9.5)', () => {
  let t: TestApp;
  let author: Credentials;
  const api = client(() => t);
  const { create, list } = api;
  const o: Record<string, number> = {};
  const search = (words: string, auth?: string | null) => list(`search=${encodeURIComponent(words)}`, auth);

  beforeAll(async () => {
    t = await startTestApp();
    author = await t.user('author');
    o.one = (await create({ organizer: 'First Organizer', email: 'one@common.example', website: 'http://one.example' })).body.id;
    o.two = (
      await create({ organizer: 'Second Organizer', email: 'two@common.example', website: 'http://two.example', phone: '+44 20 7946 0000' })
    ).body.id;
    o.three = (await create({ organizer: 'Third Party', description: 'Runs the <em>lantern</em> walks', excerpt: 'Night tours' })).body.id;
  });
  afterAll(() => t.close());

  it('matches the documented examples', async () => {
    const common = await search('@common.example');
    expect(ids(common)).toEqual([o.two, o.one]);
    expect(common.body.total).toBe(2);
    const website = await search('http://one.example');
    expect(ids(website)).toEqual([o.one]);
    expect(website.body.total).toBe(1);
    expect(website.headers['x-tec-total']).toBe('1');
  });

  it('searches the name, description, excerpt and phone, all words within one field', async () => {
    expect(ids(await search('organizer'))).toEqual([o.two, o.one]);
    expect(ids(await search('organizer first'))).toEqual([o.one]);
    expect(ids(await search('walks LANTERN'))).toEqual([o.three]);
    expect(ids(await search('tours'))).toEqual([o.three]);
    expect(ids(await search('7946'))).toEqual([o.two]);
    const none = await search('first two');
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ organizers: [], total: 0, total_pages: 0 });
    expect(ids(await search('lantern tours'))).toEqual([]);
    expect((await search('@@@ ...')).body.total).toBe(3);
    expectInvalid(await list('search='), ['search']);
  });

  it('never matches protected organizers for users who may not update them', async () => {
    const locked = await create({ organizer: 'Secret Organizer', email: 'three@common.example', post_password: 'pw' }, basic(author));
    expect(ids(await search('organizer'))).toEqual([o.two, o.one]);
    expect((await search('@common.example')).body.total).toBe(2);
    expect(ids(await search('common example', basic(author)))).toEqual([locked.body.id, o.two, o.one]);
    expect(ids(await search('secret', admin))).toEqual([locked.body.id]);
    expect(ids(await search('secret'))).toEqual([]);
  });
});

describe('organizer event filters (§9.5)', () => {
  let t: TestApp;
  let author: Credentials;
  const api = client(() => t);
  const { create, list, trash } = api;
  const o: Record<string, number> = {};
  const e: Record<string, number> = {};
  const FUTURE = '2099-04-01 10:00:00';

  beforeAll(async () => {
    t = await startTestApp();
    author = await t.user('author');
    for (const key of ['A', 'B', 'C', 'D']) o[key] = (await create({ organizer: `Filter Org ${key}` })).body.id;
    o.E = (await create({ organizer: 'Filter Org E', status: 'draft' })).body.id;
    o.F = (await create({ organizer: 'Filter Org F' })).body.id;
    e.up = (await seedEvent(t, { organizerIds: [o.A, o.B], startUtc: FUTURE })).id;
    e.past = (await seedEvent(t, { organizerIds: [o.C], startUtc: '2002-01-01 00:00:00' })).id;
    e.draftUp = (await seedEvent(t, { organizerIds: [o.D, o.E], startUtc: FUTURE, status: 'draft', authorId: author.id })).id;
    e.hiddenUp = (await seedEvent(t, { organizerIds: [o.F], startUtc: FUTURE, hideFromListings: true })).id;
    e.none = (await seedEvent(t, { startUtc: FUTURE })).id;
  });
  afterAll(() => t.close());

  const keys = (...names: string[]) => names.map((name) => o[name]);

  it('filters by event, applying organizer visibility', async () => {
    expect(ids(await list(`event=${e.up}`))).toEqual(keys('B', 'A'));
    expect(ids(await list(`event=${e.draftUp}`))).toEqual(keys('D'));
    expect(ids(await list(`event=${e.draftUp}`, admin))).toEqual(keys('E', 'D'));
    expect((await list(`event=${e.none}`)).body).toMatchObject({ organizers: [], total: 0 });
    expectInvalid(await list('event=987654'), ['event']);
    expectInvalid(await list(`event=${o.A}`), ['event']);
  });

  it('filters with has_events and only_with_upcoming, alone and together', async () => {
    expect(ids(await list('has_events=1'))).toEqual(keys('F', 'C', 'B', 'A'));
    expect(ids(await list('has_events=0'))).toEqual(keys('D'));
    expect(ids(await list('has_events=no', admin))).toEqual(keys('E', 'D'));
    expect(ids(await list('only_with_upcoming=1'))).toEqual(keys('B', 'A'));
    expect(ids(await list('only_with_upcoming=1', basic(author)))).toEqual(keys('D', 'B', 'A'));
    expect(ids(await list('only_with_upcoming=1', admin))).toEqual(keys('E', 'D', 'B', 'A'));
    expect((await list('only_with_upcoming=nah')).body.total).toBe(5);
    expect(ids(await list('has_events=1&only_with_upcoming=1', basic(author)))).toEqual(keys('B', 'A'));
    expect(ids(await list('has_events=0&only_with_upcoming=1', basic(author)))).toEqual(keys('D'));
  });

  it('drops a trashed organizer from its events for good', async () => {
    await trash(o.A);
    expect((await eventLinks(t, e.up)).organizerIds).toEqual([o.B]);
    await api.update(o.A, { status: 'publish' });
    expect(ids(await list(`event=${e.up}`))).toEqual(keys('B'));
    expect(ids(await list('has_events=1'))).toEqual(keys('F', 'C', 'B'));
  });
});
