import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

describe('categories', () => {
  let t: TestApp;
  let author: Credentials;
  let contributor: Credentials;
  const admin = basic(ADMIN);

  beforeAll(async () => {
    t = await startTestApp();
    author = await t.user('author');
    contributor = await t.user('contributor');
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>, auth = admin) => t.http().post(`${API}/categories`).set('Authorization', auth).send(body);

  it('creates a category with 201, Location and the term shape with _links', async () => {
    const res = await create({ name: 'Outdoor', description: 'Events held in the open air.' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`${PUBLIC_URL}${API}/categories/${res.body.id}`);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'count',
      'description',
      'name',
      'slug',
      'taxonomy',
      'parent',
      'meta',
      'url',
      'urls',
      '_links',
    ]);
    expect(res.body).toMatchObject({
      count: 0,
      name: 'Outdoor',
      slug: 'outdoor',
      taxonomy: 'tribe_events_cat',
      parent: 0,
      meta: [],
      url: `${PUBLIC_URL}/events/category/outdoor/`,
      urls: { self: `${PUBLIC_URL}${API}/categories/${res.body.id}`, collection: `${PUBLIC_URL}${API}/categories` },
      _links: {
        self: [{ href: `${PUBLIC_URL}${API}/categories/${res.body.id}` }],
        collection: [{ href: `${PUBLIC_URL}${API}/categories` }],
      },
    });
  });

  it('nests category URLs under their ancestors and links up', async () => {
    const parent = await create({ name: 'Walks' });
    const child = await create({ name: 'Night walks', parent: parent.body.id });
    expect(child.status).toBe(201);
    expect(child.body.url).toBe(`${PUBLIC_URL}/events/category/walks/night-walks/`);
    expect(child.body.urls.up).toBe(`${PUBLIC_URL}${API}/categories/${parent.body.id}`);
    expect(child.body._links.up).toEqual([{ href: `${PUBLIC_URL}${API}/categories/${parent.body.id}` }]);
  });

  it('answers missing and invalid parameters in the error shape', async () => {
    const missing = await create({});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'These required parameters are missing: name',
      data: { status: 400, params: ['name'] },
    });
    const empty = await create({ name: '' });
    expect(empty.body.code).toBe('rest_invalid_param');
    expect(Object.keys(empty.body.data.params)).toEqual(['name']);
    const badParent = await create({ name: 'Orphan', parent: 987654 });
    expect(badParent.status).toBe(400);
    expect(Object.keys(badParent.body.data.params)).toEqual(['parent']);
    const badType = await create({ name: 'Typed', parent: 'foo' });
    expect(badType.body.data.details.parent.code).toBe('rest_invalid_type');
  });

  it('refuses duplicate names with term_exists, suffixes a taken slug on create and refuses it on update', async () => {
    const first = await create({ name: 'Music' });
    const again = await create({ name: 'MUSIC' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'term_exists', data: { status: 400, term_id: first.body.id } });
    const slug = await create({ name: 'Concerts', slug: 'music' });
    expect(slug.status).toBe(201);
    expect(slug.body.slug).toBe('music-2');
    const generated = await create({ name: 'Music!', parent: first.body.id });
    expect(generated.status).toBe(201);
    expect(generated.body.slug).toBe('music-3');
    const renamed = await t.http().patch(`${API}/categories/${slug.body.id}`).set('Authorization', admin).send({ slug: 'music' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.code).toBe('duplicate_term_slug');
  });

  it('applies the capability table: authors manage categories, contributors and anonymous do not', async () => {
    expect((await create({ name: 'By author' }, basic(author))).status).toBe(201);
    expect((await create({ name: 'By contributor' }, basic(contributor))).status).toBe(403);
    const anonymous = await t.http().post(`${API}/categories`).send({ name: 'Anonymous' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('rest_forbidden');
    expect(anonymous.headers.allow).toBe('GET');
  });

  it('reads, updates through POST, PUT and PATCH, and deletes returning the old term', async () => {
    const { body } = await create({ name: 'Talks' });
    const read = await t.http().get(`${API}/categories/${body.id}`);
    expect(read.status).toBe(200);
    expect(read.body._links).toBeDefined();
    for (const method of ['post', 'put', 'patch'] as const) {
      const res = await t
        .http()
        [method](`${API}/categories/${body.id}`)
        .set('Authorization', admin)
        .send({ description: `via ${method}` });
      expect(res.status).toBe(200);
      expect(res.body.description).toBe(`via ${method}`);
      expect(res.body.name).toBe('Talks');
    }
    const removed = await t.http().delete(`${API}/categories/${body.id}`).set('Authorization', admin);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: body.id, name: 'Talks', description: 'via patch' });
    expect(removed.body._links).toBeUndefined();
    const gone = await t.http().delete(`${API}/categories/${body.id}`).set('Authorization', admin);
    expect(gone.status).toBe(400);
    expect(Object.keys(gone.body.data.params)).toEqual(['id']);
  });

  it('checks existence before permission', async () => {
    const subscriber = await t.user('subscriber');
    const res = await t.http().delete(`${API}/categories/987654`).set('Authorization', basic(subscriber));
    expect(res.status).toBe(400);
  });

  it('hides unused categories by default and pages the rest with links', async () => {
    const hidden = await t.http().get(`${API}/categories`);
    expect(hidden.body.total).toBe(0);
    expect(hidden.headers['x-tec-total']).toBe('0');
    const all = await t.http().get(`${API}/categories?hide_empty=0&per_page=2&page=2&orderby=name`);
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories', 'next_rest_url', 'previous_rest_url']);
    expect(all.body.rest_url).toBe(`${PUBLIC_URL}${API}/categories/?page=2&per_page=2&orderby=name&hide_empty=0`);
    expect(all.body.previous_rest_url).toBe(`${PUBLIC_URL}${API}/categories/?per_page=2&orderby=name&hide_empty=0`);
    expect(all.headers['x-tec-total']).toBe(String(all.body.total));
    const beyond = await t.http().get(`${API}/categories?hide_empty=0&page=99`);
    expect(beyond.status).toBe(200);
    expect(beyond.body.categories).toEqual([]);
    expect(beyond.body.previous_rest_url).toContain('page=98');
  });

  it('validates list parameters', async () => {
    const res = await t.http().get(`${API}/categories?order=sideways&orderby=&search=`);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params)).toEqual(['search', 'order', 'orderby']);
    const unknown = await t.http().get(`${API}/categories?include=987654`);
    expect(Object.keys(unknown.body.data.params)).toEqual(['include']);
  });
});
