import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

describe('tags', () => {
  let t: TestApp;
  let editor: Credentials;
  let author: Credentials;
  let contributor: Credentials;
  let subscriber: Credentials;
  const admin = basic(ADMIN);

  beforeAll(async () => {
    t = await startTestApp();
    editor = await t.user('editor');
    author = await t.user('author');
    contributor = await t.user('contributor');
    subscriber = await t.user('subscriber');
  });
  afterAll(() => t.close());

  const createTag = (body: Record<string, unknown>, auth = admin) => t.http().post(`${API}/tags`).set('Authorization', auth).send(body);
  const createCategory = (body: Record<string, unknown>, auth = admin) =>
    t.http().post(`${API}/categories`).set('Authorization', auth).send(body);
  const list = (query: string) => t.http().get(`${API}/tags?hide_empty=0&per_page=50${query ? `&${query}` : ''}`);
  const names = (res: { body: { tags: Array<{ name: string }> } }) => res.body.tags.map((tag) => tag.name);
  const ids = (res: { body: { tags: Array<{ id: number }> } }) => res.body.tags.map((tag) => tag.id);

  describe('shape (spec §8.5 b)', () => {
    it('creates a tag with 201, Location and the tag shape: no parent key, taxonomy post_tag, /tag/ url, no up link', async () => {
      const res = await createTag({ name: 'Family', description: 'Fun for all ages.' });
      expect(res.status).toBe(201);
      const id = res.body.id;
      expect(Number.isInteger(id)).toBe(true);
      expect(res.headers.location).toBe(`${PUBLIC_URL}${API}/tags/${id}`);
      expect(Object.keys(res.body)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls', '_links']);
      expect(res.body).toEqual({
        id,
        count: 0,
        description: 'Fun for all ages.',
        name: 'Family',
        slug: 'family',
        taxonomy: 'post_tag',
        meta: [],
        url: `${PUBLIC_URL}/tag/family/`,
        urls: { self: `${PUBLIC_URL}${API}/tags/${id}`, collection: `${PUBLIC_URL}${API}/tags` },
        _links: { self: [{ href: `${PUBLIC_URL}${API}/tags/${id}` }], collection: [{ href: `${PUBLIC_URL}${API}/tags` }] },
      });
    });

    it('reads a single tag with _links and lists tags without _links', async () => {
      const { body: created } = await createTag({ name: 'Shape check' });
      const single = await t.http().get(`${API}/tags/${created.id}`);
      expect(single.status).toBe(200);
      expect(single.body).toEqual(created);
      expect(single.body.description).toBe('');
      expect(single.body).not.toHaveProperty('parent');
      expect(single.body.urls).not.toHaveProperty('up');
      expect(single.body._links).not.toHaveProperty('up');

      const listed = await list(`include=${created.id}`);
      expect(listed.status).toBe(200);
      expect(Object.keys(listed.body)).toEqual(['rest_url', 'total', 'total_pages', 'tags']);
      expect(listed.body.total).toBe(1);
      const [item] = listed.body.tags;
      expect(Object.keys(item)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls']);
      const { _links: _ignored, ...withoutLinks } = created;
      expect(item).toEqual(withoutLinks);
    });

    it('updates through POST, PUT and PATCH with _links and deletes returning the old tag without _links', async () => {
      const { body } = await createTag({ name: 'Rename me' });
      for (const method of ['post', 'put', 'patch'] as const) {
        const res = await t
          .http()
          [method](`${API}/tags/${body.id}`)
          .set('Authorization', admin)
          .send({ description: `via ${method}` });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ id: body.id, name: 'Rename me', description: `via ${method}`, taxonomy: 'post_tag' });
        expect(res.body).not.toHaveProperty('parent');
        expect(res.body._links).toEqual(body._links);
      }
      const renamed = await t
        .http()
        .put(`${API}/tags/${body.id}`)
        .set('Authorization', admin)
        .send({ name: 'Renamed', slug: 'renamed-tag' });
      expect(renamed.body).toMatchObject({ name: 'Renamed', slug: 'renamed-tag', url: `${PUBLIC_URL}/tag/renamed-tag/` });

      const removed = await t.http().delete(`${API}/tags/${body.id}`).set('Authorization', admin);
      expect(removed.status).toBe(200);
      expect(Object.keys(removed.body)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls']);
      expect(removed.body).toMatchObject({
        id: body.id,
        name: 'Renamed',
        slug: 'renamed-tag',
        description: 'via patch',
        url: `${PUBLIC_URL}/tag/renamed-tag/`,
      });
      const again = await t.http().get(`${API}/tags/${body.id}`);
      expect(again.status).toBe(400);
      expect(again.body.code).toBe('rest_invalid_param');
      expect(Object.keys(again.body.data.params)).toEqual(['id']);
    });
  });

  describe('list parameters (spec §9.6)', () => {
    let red: number;
    let blue: number;
    let green: number;
    let one: number;
    let percent: number;

    beforeAll(async () => {
      red = (await createTag({ name: 'Listing Red', slug: 'lst-red' })).body.id;
      blue = (await createTag({ name: 'Listing Blue', slug: 'lst-blue' })).body.id;
      green = (await createTag({ name: 'listing green', slug: 'lst-green' })).body.id;
      one = (await createTag({ name: 'One', slug: 'foo-bar' })).body.id;
      percent = (await createTag({ name: '100% fun', slug: 'hundred' })).body.id;
    });

    it('searches the name or the slug, case-insensitively, as a literal substring', async () => {
      const byName = await list('search=LISTING');
      expect(byName.status).toBe(200);
      expect(ids(byName).sort()).toEqual([red, blue, green].sort());
      const bySlug = await list('search=foo');
      expect(ids(bySlug)).toEqual([one]);
      const slugPart = await list('search=lst-gr');
      expect(ids(slugPart)).toEqual([green]);
      const wildcard = await list(`search=${encodeURIComponent('%')}`);
      expect(ids(wildcard)).toEqual([percent]);
      const underscore = await list('search=_');
      expect(underscore.status).toBe(200);
      expect(underscore.body.tags).toEqual([]);
      expect(underscore.body.total).toBe(0);
      const empty = await list('search=');
      expect(empty.status).toBe(400);
      expect(Object.keys(empty.body.data.params)).toEqual(['search']);
    });

    it('includes and excludes by id or slug, refusing unknown ones', async () => {
      const included = await list(`include=${red},lst-blue&orderby=id`);
      expect(ids(included)).toEqual([red, blue]);
      const array = await list(`include[]=${green}&include[]=lst-red&orderby=id`);
      expect(ids(array)).toEqual([red, green]);
      const excluded = await list(`search=listing&exclude=${red},lst-green`);
      expect(ids(excluded)).toEqual([blue]);
      const unknown = await list('include=no-such-tag');
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe('rest_invalid_param');
      expect(Object.keys(unknown.body.data.params)).toEqual(['include']);
      const unknownExclude = await list('exclude=987654');
      expect(unknownExclude.status).toBe(400);
      expect(Object.keys(unknownExclude.body.data.params)).toEqual(['exclude']);
    });

    it('does not accept a category id or slug as a tag in include', async () => {
      const category = await createCategory({ name: 'Not a tag', slug: 'not-a-tag' });
      const byId = await list(`include=${category.body.id}`);
      expect(byId.status).toBe(400);
      expect(Object.keys(byId.body.data.params)).toEqual(['include']);
      const bySlug = await list('include=not-a-tag');
      expect(bySlug.status).toBe(400);
      expect(Object.keys(bySlug.body.data.params)).toEqual(['include']);
    });

    it('orders by name case-insensitively, ascending by default, and descending on request', async () => {
      const defaultOrder = await list('search=listing');
      expect(names(defaultOrder)).toEqual(['Listing Blue', 'listing green', 'Listing Red']);
      const asc = await list('search=listing&orderby=name&order=ASC');
      expect(names(asc)).toEqual(['Listing Blue', 'listing green', 'Listing Red']);
      const desc = await list('search=listing&orderby=name&order=desc');
      expect(names(desc)).toEqual(['Listing Red', 'listing green', 'Listing Blue']);
      const bySlugDesc = await list('search=lst-&orderby=slug&order=desc');
      expect(ids(bySlugDesc)).toEqual([red, green, blue]);
    });

    it('orders case-insensitively on b, A, C', async () => {
      const b = (await createTag({ name: 'b' })).body.id;
      const a = (await createTag({ name: 'A' })).body.id;
      const c = (await createTag({ name: 'C' })).body.id;
      const res = await list(`include=${b},${a},${c}&orderby=name&order=asc`);
      expect(names(res)).toEqual(['A', 'b', 'C']);
    });

    it('breaks ties by id ascending', async () => {
      const byCount = await list('search=listing&orderby=count');
      expect(ids(byCount)).toEqual([red, blue, green]);
      const byDescription = await list('search=listing&orderby=description&order=asc');
      expect(ids(byDescription)).toEqual([red, blue, green]);
      const byCountDesc = await list('search=listing&orderby=count&order=desc');
      expect(ids(byCountDesc)).toEqual([red, blue, green]);
      const byGroup = await list('search=listing&orderby=term_group');
      expect(ids(byGroup)).toEqual([red, blue, green]);
    });

    it('orders by the include list and by the slug list', async () => {
      const byInclude = await list(`include=${green},${red},${blue}&orderby=include`);
      expect(ids(byInclude)).toEqual([green, red, blue]);
      const mixed = await list(`include=lst-blue,${green},lst-red&orderby=include`);
      expect(ids(mixed)).toEqual([blue, green, red]);
      const bySlugs = await list('slug=lst-green,lst-blue,lst-red&orderby=include_slugs');
      expect(ids(bySlugs)).toEqual([green, blue, red]);
      const byId = await list(`include=${green},${red},${blue}&orderby=id&order=desc`);
      expect(ids(byId)).toEqual([green, blue, red].sort((x, y) => y - x));
    });

    it('refuses an empty or unknown order and orderby', async () => {
      for (const query of ['order=', 'order=up', 'orderby=', 'orderby=parent_name', 'orderby=include_slug']) {
        const res = await list(query);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
        expect(Object.keys(res.body.data.params)).toEqual([query.split('=')[0]]);
      }
    });

    it('filters by slug, a comma list, an array or repeated keys; an unknown slug gives an empty list', async () => {
      expect(ids(await list('slug=lst-red'))).toEqual([red]);
      expect(ids(await list('slug=lst-red,lst-green&orderby=id'))).toEqual([red, green]);
      expect(ids(await list('slug=lst-red, lst-blue&orderby=id'))).toEqual([red, blue]);
      expect(ids(await list('slug[]=lst-blue&slug[]=lst-green&orderby=id'))).toEqual([blue, green]);
      expect(ids(await list('slug=lst-blue&slug=lst-green&orderby=id'))).toEqual([blue, green]);
      const unknown = await list('slug=no-such-slug');
      expect(unknown.status).toBe(200);
      expect(unknown.body.tags).toEqual([]);
      expect(unknown.body.total).toBe(0);
      const empty = await list('slug=');
      expect(empty.status).toBe(400);
      expect(Object.keys(empty.body.data.params)).toEqual(['slug']);
    });

    it('ignores parent on /tags', async () => {
      const base = await list('search=listing');
      for (const value of ['0', '987654', 'foo', '']) {
        const res = await list(`search=listing&parent=${value}`);
        expect(res.status).toBe(200);
        expect(ids(res)).toEqual(ids(base));
        expect(res.body.total).toBe(3);
      }
    });

    it('uses the last value of a repeated non-list parameter', async () => {
      const orderby = await list('search=listing&orderby=id&orderby=name');
      expect(names(orderby)).toEqual(['Listing Blue', 'listing green', 'Listing Red']);
      const search = await list('search=nothing-matches&search=foo');
      expect(ids(search)).toEqual([one]);
    });

    it('reads hide_empty as a boolean', async () => {
      for (const value of ['0', 'false', 'FALSE']) {
        const res = await t.http().get(`${API}/tags?search=listing&hide_empty=${value}`);
        expect(res.status).toBe(200);
        expect(res.body.total).toBe(3);
      }
      for (const value of ['1', 'true']) {
        const res = await t.http().get(`${API}/tags?search=listing&hide_empty=${value}`);
        expect(res.body.total).toBe(0);
      }
      for (const value of ['yes', 'abc', '']) {
        const res = await t.http().get(`${API}/tags?search=listing&hide_empty=${value}`);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
        expect(Object.keys(res.body.data.params)).toEqual(['hide_empty']);
        expect(res.body.data.details.hide_empty.code).toBe('rest_invalid_type');
      }
    });

    it('validates paging and caps per_page', async () => {
      for (const value of ['0', '-1', 'foo', '1.5', '']) {
        const res = await t.http().get(`${API}/tags?hide_empty=0&page=${value}&per_page=${value}`);
        expect(res.status).toBe(400);
        expect(Object.keys(res.body.data.params)).toEqual(['page', 'per_page']);
      }
      const capped = await t.http().get(`${API}/tags?hide_empty=0&per_page=100`);
      expect(capped.status).toBe(200);
      expect(capped.body.rest_url).toBe(`${PUBLIC_URL}${API}/tags/?page=1&per_page=50&hide_empty=0`);
      const beyond = await t.http().get(`${API}/tags?search=listing&hide_empty=0&page=9`);
      expect(beyond.status).toBe(200);
      expect(beyond.body.tags).toEqual([]);
      expect(beyond.body.total).toBe(3);
      expect(beyond.body.previous_rest_url).toBe(`${PUBLIC_URL}${API}/tags/?per_page=6&search=listing&hide_empty=0&page=8`);
      expect(beyond.body.next_rest_url).toBeUndefined();
    });

    it('trims include items, drops empty ones and refuses more than 100', async () => {
      const trimmed = await list(`include=${encodeURIComponent(` ${red} , ,lst-blue `)}&orderby=id`);
      expect(trimmed.status).toBe(200);
      expect(ids(trimmed)).toEqual([red, blue]);
      const many = Array.from({ length: 101 }, () => red).join(',');
      const tooMany = await list(`include=${many}`);
      expect(tooMany.status).toBe(400);
      expect(Object.keys(tooMany.body.data.params)).toEqual(['include']);
    });

    it('hides unused tags by default', async () => {
      const res = await t.http().get(`${API}/tags?search=listing`);
      expect(res.status).toBe(200);
      expect(res.body.tags).toEqual([]);
      expect(res.body.total).toBe(0);
      expect(res.headers['x-tec-total']).toBe('0');
      expect(res.headers['x-tec-totalpages']).toBe('0');
    });

    it('echoes the effective parameters in rest_url and pages with links', async () => {
      const res = await t.http().get(`${API}/tags?search=listing&per_page=1&page=2&hide_empty=0&orderby=name&order=desc`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(3);
      expect(res.body.total_pages).toBe(3);
      expect(names(res)).toEqual(['listing green']);
      expect(res.body.rest_url).toBe(`${PUBLIC_URL}${API}/tags/?page=2&per_page=1&search=listing&order=desc&orderby=name&hide_empty=0`);
      expect(res.body.next_rest_url).toBe(
        `${PUBLIC_URL}${API}/tags/?per_page=1&search=listing&order=desc&orderby=name&hide_empty=0&page=3`,
      );
      expect(res.body.previous_rest_url).toBe(`${PUBLIC_URL}${API}/tags/?per_page=1&search=listing&order=desc&orderby=name&hide_empty=0`);
      expect(res.headers['x-tec-total']).toBe('3');
      expect(res.headers['x-tec-totalpages']).toBe('3');
    });
  });

  describe('writes (spec §11.9)', () => {
    it('refuses parent on create with rest_taxonomy_not_hierarchical, whatever its value', async () => {
      const category = await createCategory({ name: 'Parent candidate' });
      for (const parent of [0, category.body.id, '0', 987654]) {
        const res = await createTag({ name: `With parent ${String(parent)}`, parent });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'rest_taxonomy_not_hierarchical', message: expect.any(String), data: { status: 400 } });
      }
      const listed = await list('search=with+parent');
      expect(listed.body.total).toBe(0);
    });

    it('refuses parent on update with rest_taxonomy_not_hierarchical and changes nothing', async () => {
      const { body } = await createTag({ name: 'Flat tag' });
      for (const method of ['post', 'put', 'patch'] as const) {
        const res = await t.http()[method](`${API}/tags/${body.id}`).set('Authorization', admin).send({ name: 'Changed', parent: 0 });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('rest_taxonomy_not_hierarchical');
        expect(res.body.data.status).toBe(400);
      }
      const read = await t.http().get(`${API}/tags/${body.id}`);
      expect(read.body.name).toBe('Flat tag');
    });

    it('refuses parent sent as a form field too', async () => {
      const res = await t.http().post(`${API}/tags`).set('Authorization', admin).type('form').send('name=Form+parent&parent=0');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_taxonomy_not_hierarchical');
    });

    it('lets administrators and editors manage tags', async () => {
      const byEditor = await createTag({ name: 'Editor tag' }, basic(editor));
      expect(byEditor.status).toBe(201);
      expect(byEditor.headers.allow).toBe('GET, POST');
      const updated = await t
        .http()
        .patch(`${API}/tags/${byEditor.body.id}`)
        .set('Authorization', basic(editor))
        .send({ description: 'edited' });
      expect(updated.status).toBe(200);
      expect(updated.headers.allow).toBe('GET, POST, PUT, PATCH, DELETE');
      const byAdmin = await t
        .http()
        .put(`${API}/tags/${byEditor.body.id}`)
        .set('Authorization', admin)
        .send({ name: 'Editor tag (admin)' });
      expect(byAdmin.status).toBe(200);
      const removed = await t.http().delete(`${API}/tags/${byEditor.body.id}`).set('Authorization', basic(editor));
      expect(removed.status).toBe(200);
      expect(removed.body.name).toBe('Editor tag (admin)');
    });

    it('refuses authors, contributors and subscribers with 403 and anonymous requests with 401', async () => {
      const { body: existing } = await createTag({ name: 'Guarded tag' });
      for (const who of [author, contributor, subscriber]) {
        const create = await createTag({ name: `By ${who.login}` }, basic(who));
        expect(create.status).toBe(403);
        expect(create.body).toEqual({ code: 'rest_forbidden', message: expect.any(String), data: { status: 403 } });
        expect(create.headers.allow).toBe('GET');
        const update = await t.http().post(`${API}/tags/${existing.id}`).set('Authorization', basic(who)).send({ name: 'Hijacked' });
        expect(update.status).toBe(403);
        expect(update.body.code).toBe('rest_forbidden');
        expect(update.headers.allow).toBe('GET');
        const remove = await t.http().delete(`${API}/tags/${existing.id}`).set('Authorization', basic(who));
        expect(remove.status).toBe(403);
        expect(remove.body.code).toBe('rest_forbidden');
      }
      const anonymousCreate = await t.http().post(`${API}/tags`).send({ name: 'Anonymous tag' });
      expect(anonymousCreate.status).toBe(401);
      expect(anonymousCreate.body).toEqual({ code: 'rest_forbidden', message: expect.any(String), data: { status: 401 } });
      expect(anonymousCreate.headers.allow).toBe('GET');
      const anonymousUpdate = await t.http().put(`${API}/tags/${existing.id}`).send({ name: 'Hijacked' });
      expect(anonymousUpdate.status).toBe(401);
      expect(anonymousUpdate.body.code).toBe('rest_forbidden');
      const anonymousDelete = await t.http().delete(`${API}/tags/${existing.id}`);
      expect(anonymousDelete.status).toBe(401);

      const unchanged = await t.http().get(`${API}/tags/${existing.id}`);
      expect(unchanged.status).toBe(200);
      expect(unchanged.body.name).toBe('Guarded tag');
      const none = await list('search=by-');
      expect(none.body.total).toBe(0);
    });

    it('validates before checking permission (spec §4.6)', async () => {
      const missing = await t.http().post(`${API}/tags`).set('Authorization', basic(author)).send({});
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe('rest_missing_callback_param');
      const unknown = await t.http().delete(`${API}/tags/987654`).set('Authorization', basic(subscriber));
      expect(unknown.status).toBe(400);
      expect(Object.keys(unknown.body.data.params)).toEqual(['id']);
    });

    it('refuses duplicate names, suffixes taken slugs on create, sent or generated', async () => {
      const first = await createTag({ name: 'Jazz' });
      const again = await createTag({ name: 'JAZZ' });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ code: 'term_exists', data: { status: 400, term_id: first.body.id } });
      const slug = await createTag({ name: 'Swing', slug: 'jazz' });
      expect(slug.status).toBe(201);
      expect(slug.body.slug).toBe('jazz-2');
      const generated = await createTag({ name: 'Jazz!' });
      expect(generated.status).toBe(201);
      expect(generated.body.slug).toBe('jazz-3');
      const sameNameAsCategory = await createCategory({ name: 'Jazz' });
      expect(sameNameAsCategory.status).toBe(201);
      expect(sameNameAsCategory.body.slug).toBe('jazz');
    });
  });

  describe('field rules (spec §3.3, §7.4, §7.6, §11.9)', () => {
    it('sanitises given slugs and falls back to the id for names without a Latin transliteration', async () => {
      const given = await createTag({ name: 'Sanitised', slug: '  Café Ünter den Linden!! ' });
      expect(given.status).toBe(201);
      expect(given.body.slug).toBe('cafe-unter-den-linden');
      const script = await createTag({ name: '音楽' });
      expect(script.status).toBe(201);
      expect(script.body.slug).toBe(String(script.body.id));
      expect(script.body.url).toBe(`${PUBLIC_URL}/tag/${script.body.id}/`);
      const empty = await createTag({ name: 'Empty slug', slug: '!!!' });
      expect(empty.status).toBe(400);
      expect(Object.keys(empty.body.data.params)).toEqual(['slug']);
    });

    it('strips tags from names and refuses empty or too long values', async () => {
      const html = await createTag({ name: '  <b>Bold</b> move ' });
      expect(html.status).toBe(201);
      expect(html.body.name).toBe('Bold move');
      for (const body of [
        { name: '' },
        { name: null },
        { name: 'x'.repeat(201) },
        { name: 'Empty description', description: '' },
        { name: 'Null slug', slug: null },
      ]) {
        const res = await createTag(body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
      }
      expect((await createTag({ name: 'y'.repeat(200) })).status).toBe(201);
    });

    it("keeps the slug when renaming, allows renaming a tag to its own name in another case, and refuses another tag's name", async () => {
      const first = await createTag({ name: 'Rock' });
      const second = await createTag({ name: 'Pop' });
      const recased = await t.http().patch(`${API}/tags/${first.body.id}`).set('Authorization', admin).send({ name: 'ROCK' });
      expect(recased.status).toBe(200);
      expect(recased.body).toMatchObject({ name: 'ROCK', slug: 'rock' });
      const clash = await t.http().patch(`${API}/tags/${second.body.id}`).set('Authorization', admin).send({ name: 'rock' });
      expect(clash.status).toBe(400);
      expect(clash.body).toMatchObject({ code: 'term_exists', data: { term_id: first.body.id } });
      const slugClash = await t.http().patch(`${API}/tags/${second.body.id}`).set('Authorization', admin).send({ slug: 'rock' });
      expect(slugClash.body.code).toBe('duplicate_term_slug');
      const ownSlug = await t.http().patch(`${API}/tags/${first.body.id}`).set('Authorization', admin).send({ slug: 'rock' });
      expect(ownSlug.status).toBe(200);
      const emptyDescription = await t.http().patch(`${API}/tags/${first.body.id}`).set('Authorization', admin).send({ description: '' });
      expect(emptyDescription.status).toBe(400);
      expect(Object.keys(emptyDescription.body.data.params)).toEqual(['description']);
    });

    it('ignores read-only fields and force on delete', async () => {
      const res = await createTag({
        name: 'Read-only',
        count: 5,
        taxonomy: 'tribe_events_cat',
        url: 'http://evil.example/',
        meta: { a: 1 },
        id: 999999,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ count: 0, taxonomy: 'post_tag', url: `${PUBLIC_URL}/tag/read-only/`, meta: [] });
      expect(res.body.id).not.toBe(999999);
      const removed = await t.http().delete(`${API}/tags/${res.body.id}?force=false`).set('Authorization', admin);
      expect(removed.status).toBe(200);
      expect((await t.http().get(`${API}/tags/${res.body.id}`)).status).toBe(400);
    });
  });

  describe('identity (spec §3.1, §3.2)', () => {
    it('answers a category id used as a tag id with 400 rest_invalid_param (id) on every method', async () => {
      const category = await createCategory({ name: 'Category, not tag' });
      const id = category.body.id;
      const get = await t.http().get(`${API}/tags/${id}`);
      expect(get.status).toBe(400);
      expect(get.body.code).toBe('rest_invalid_param');
      expect(Object.keys(get.body.data.params)).toEqual(['id']);
      for (const method of ['post', 'put', 'patch', 'delete'] as const) {
        const res = await t.http()[method](`${API}/tags/${id}`).set('Authorization', admin).send({ description: 'x' });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
        expect(Object.keys(res.body.data.params)).toEqual(['id']);
      }
      const stillThere = await t.http().get(`${API}/categories/${id}`);
      expect(stillThere.status).toBe(200);
      expect(stillThere.body.description).toBe('');
    });

    it('answers a tag id on /categories with 400 rest_invalid_param (id)', async () => {
      const tag = await createTag({ name: 'Tag, not category' });
      const res = await t.http().get(`${API}/categories/${tag.body.id}`);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.data.params)).toEqual(['id']);
    });

    it('shares one id sequence between categories and tags and never reuses a deleted id', async () => {
      const category = await createCategory({ name: 'Sequence category' });
      const tag = await createTag({ name: 'Sequence tag' });
      expect(tag.body.id).toBe(category.body.id + 1);
      const nextCategory = await createCategory({ name: 'Sequence category 2' });
      expect(nextCategory.body.id).toBe(tag.body.id + 1);

      const removed = await t.http().delete(`${API}/categories/${nextCategory.body.id}`).set('Authorization', admin);
      expect(removed.status).toBe(200);
      const afterCategoryDelete = await createTag({ name: 'Sequence tag 2' });
      expect(afterCategoryDelete.body.id).toBe(nextCategory.body.id + 1);

      const removedTag = await t.http().delete(`${API}/tags/${afterCategoryDelete.body.id}`).set('Authorization', admin);
      expect(removedTag.status).toBe(200);
      const afterTagDelete = await createCategory({ name: 'Sequence category 3' });
      expect(afterTagDelete.body.id).toBe(afterCategoryDelete.body.id + 1);
      const deletedAgain = await t.http().get(`${API}/tags/${afterCategoryDelete.body.id}`);
      expect(deletedAgain.status).toBe(400);
    });
  });
});
