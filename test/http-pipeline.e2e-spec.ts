import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

const ROOT = '/wp-json';
const NS = 'tribe/events/v1';
const JSON_TYPE = 'application/json; charset=UTF-8';
const PRIVATE = 'no-cache, must-revalidate, max-age=0, no-store, private';
/** Authenticated 200 reads (GET/HEAD): conditional requests replace the v1 header there (docs/API.md, "Conditional requests"). */
const PRIVATE_READ = 'private, no-cache';
// spec §14.3's lists, then the headers of conditional requests (docs/API.md, "Conditional requests")
const EXPOSED = ['X-TEC-Total', 'X-TEC-TotalPages', 'X-WP-Total', 'X-WP-TotalPages', 'Link', 'Allow', 'ETag', 'Last-Modified'];
const ALLOW_METHODS = ['OPTIONS', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ALLOW_HEADERS = [
  'Authorization',
  'X-WP-Nonce',
  'Content-Disposition',
  'Content-MD5',
  'Content-Type',
  'X-HTTP-Method-Override',
  'If-None-Match',
  'If-Match',
  'If-Modified-Since',
];
const BAD_PASSWORD = basic({ login: ADMIN.login, password: 'definitely-wrong' });
const UNKNOWN_USER = basic({ login: 'nobody-at-all', password: 'definitely-wrong' });
const STARTUP_MS = 60_000;

const list = (header: string | undefined) =>
  (header ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** Every error answer: `{code, message, data: {status}}` with `data.status` equal to the HTTP status (spec §12.1). */
function expectError(res: Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(Object.keys(res.body)).toEqual(['code', 'message', 'data']);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(res.body.data.status).toBe(status);
  expect(res.headers['content-type']).toBe(JSON_TYPE);
}

/** Headers of every answer (spec §14.1). */
function expectCommonHeaders(res: Response, base = `${PUBLIC_URL}${ROOT}`): void {
  expect(res.headers['content-type']).toBe(JSON_TYPE);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-robots-tag']).toBe('noindex');
  // lists add their rel="next"/"prev" links after it
  expect(String(res.headers.link).split(', ')[0]).toBe(`<${base}/>; rel="https://api.w.org/"`);
  expect(list(res.headers.vary).map((v) => v.toLowerCase())).toContain('origin');
}

function expectNoCors(res: Response): void {
  expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
}

describe('HTTP pipeline', () => {
  describe('default configuration', () => {
    let t: TestApp;
    let author: Credentials;
    let editor: Credentials;
    let contributor: Credentials;
    let subscriber: Credentials;
    let categoryId: number;
    let tagId: number;
    let namespaceIndex: { namespace: string; routes: Record<string, unknown>; _links: unknown };
    const admin = basic(ADMIN);

    beforeAll(async () => {
      t = await startTestApp();
      author = await t.user('author');
      editor = await t.user('editor');
      contributor = await t.user('contributor');
      subscriber = await t.user('subscriber');
      categoryId = (await t.http().post(`${API}/categories`).set('Authorization', admin).send({ name: 'Pipeline category' })).body.id;
      tagId = (await t.http().post(`${API}/tags`).set('Authorization', admin).send({ name: 'Pipeline tag' })).body.id;
      namespaceIndex = (await t.http().get(API)).body;
    }, STARTUP_MS);
    afterAll(() => t.close());

    const createCategory = (name: string) => t.http().post(`${API}/categories`).set('Authorization', admin).send({ name });

    describe('route matching (spec §2.3)', () => {
      it('matches fixed segments case-insensitively', async () => {
        const canonical = await t.http().get(`${API}/categories?hide_empty=0`);
        expect(canonical.status).toBe(200);
        for (const path of [`${API}/CATEGORIES`, `${API}/Categories`, `${ROOT}/TRIBE/Events/V1/categories`]) {
          const res = await t.http().get(`${path}?hide_empty=0`);
          expect(res.status).toBe(200);
          expect(res.body).toEqual(canonical.body);
        }
        const single = await t.http().get(`${API}/TAGS/${tagId}`);
        expect(single.status).toBe(200);
        expect(single.body.id).toBe(tagId);
        expect(single.body.urls.self).toBe(`${PUBLIC_URL}${API}/tags/${tagId}`);
        expect((await t.http().get(`${API}/DOC`)).status).toBe(200);
        const created = await t.http().post(`${API}/CATEGORIES`).set('Authorization', admin).send({ name: 'Upper-case route' });
        expect(created.status).toBe(201);
        expect(created.headers.location).toBe(`${PUBLIC_URL}${API}/categories/${created.body.id}`);
      });

      it('ignores one trailing slash', async () => {
        const index = await t.http().get(`${API}/`);
        expect(index.status).toBe(200);
        expect(index.body).toEqual(namespaceIndex);
        const collection = await t.http().get(`${API}/categories/?hide_empty=0`);
        expect(collection.status).toBe(200);
        expect(collection.body).toEqual((await t.http().get(`${API}/categories?hide_empty=0`)).body);
        const single = await t.http().get(`${API}/categories/${categoryId}/`);
        expect(single.status).toBe(200);
        expect(single.body.id).toBe(categoryId);
        expect((await t.http().get(`${API}/doc/`)).status).toBe(200);
        const created = await t.http().post(`${API}/tags/`).set('Authorization', admin).send({ name: 'Trailing slash tag' });
        expect(created.status).toBe(201);
      });

      it('does not ignore two trailing slashes', async () => {
        expectError(await t.http().get(`${API}/categories//`), 404, 'rest_no_route');
        expectError(await t.http().get(`${API}/categories/${categoryId}//`), 404, 'rest_no_route');
      });

      it('reads ids with leading zeros', async () => {
        const padded = `00${categoryId}`;
        const res = await t.http().get(`${API}/categories/${padded}`);
        expect(res.status).toBe(200);
        expect(res.body.id).toBe(categoryId);
        expect(res.body.urls.self).toBe(`${PUBLIC_URL}${API}/categories/${categoryId}`);
        const updated = await t
          .http()
          .patch(`${API}/categories/0${categoryId}`)
          .set('Authorization', admin)
          .send({ description: 'zero-padded' });
        expect(updated.status).toBe(200);
        expect(updated.body.id).toBe(categoryId);
        const tag = await t.http().get(`${API}/tags/000${tagId}`);
        expect(tag.status).toBe(200);
        expect(tag.body.id).toBe(tagId);
      });

      it('answers id 0 and ids beyond every term with 400 rest_invalid_param (id), not 404 or 500', async () => {
        for (const id of ['0', '000', '99999999999999999999999']) {
          for (const path of [`${API}/categories/${id}`, `${API}/tags/${id}`]) {
            const res = await t.http().get(path);
            expectError(res, 400, 'rest_invalid_param');
            expect(Object.keys(res.body.data.params)).toEqual(['id']);
          }
        }
      });

      it('answers a non-numeric id with 404 rest_no_route', async () => {
        for (const path of [
          'categories/abc',
          'categories/1a',
          'categories/-1',
          'categories/1.5',
          'categories/%20',
          'tags/x1',
          'categories/by-slug/foo',
        ]) {
          const res = await t.http().get(`${API}/${path}`);
          expectError(res, 404, 'rest_no_route');
          expect(res.headers.allow).toBeUndefined();
        }
        expectError(await t.http().delete(`${API}/categories/abc`).set('Authorization', admin), 404, 'rest_no_route');
        expectError(await t.http().put(`${API}/tags/abc`).set('Authorization', admin).send({ name: 'x' }), 404, 'rest_no_route');
      });

      it('answers unknown paths, other namespaces and other versions with 404 rest_no_route', async () => {
        for (const path of [
          `${API}/nope`,
          `${ROOT}/wp/v2/posts`,
          `${ROOT}/tribe/events/v2/events`,
          `${ROOT}/tribe/events/v2/categories`,
          `${ROOT}/tribe/events/v1x/categories`,
          `${ROOT}/tribe/events`,
          `${ROOT}/tribe`,
          `${API}/categories/${categoryId}/extra`,
          `${API}/doc/extra`,
        ]) {
          const res = await t.http().get(path);
          expectError(res, 404, 'rest_no_route');
          expect(res.body.message).toBe('No route matches this URL and request method.');
          expect(res.headers.allow).toBeUndefined();
          expectCommonHeaders(res);
        }
      });

      it('answers a known path with an unsupported method with 404 rest_no_route, even for an administrator', async () => {
        const cases: Array<[method: 'put' | 'patch' | 'delete' | 'post', path: string]> = [
          ['put', `${API}/categories`],
          ['patch', `${API}/categories`],
          ['delete', `${API}/categories`],
          ['put', `${API}/tags`],
          ['delete', `${API}/tags`],
          ['post', `${API}/doc`],
          ['delete', `${API}/doc`],
          ['post', API],
          ['put', API],
          ['delete', API],
          ['post', `${ROOT}/`],
          ['delete', `${ROOT}/`],
        ];
        for (const [method, path] of cases) {
          const res = await t.http()[method](path).set('Authorization', admin).send({ name: 'Never' });
          expectError(res, 404, 'rest_no_route');
          expect(res.headers.allow).toBeUndefined();
        }
        const none = await t.http().get(`${API}/categories?hide_empty=0&search=never`);
        expect(none.body.total).toBe(0);
      });

      it('sends the bare origin to the docs page (browsers) or the API index (other clients)', async () => {
        const browser = await t.http().get('/').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
        expect(browser.status).toBe(302);
        expect(browser.headers.location).toBe(`${PUBLIC_URL}/docs`);
        const client = await t.http().get('/').set('Accept', '*/*');
        expect(client.status).toBe(302);
        expect(client.headers.location).toBe(`${PUBLIC_URL}${ROOT}/`);
        const german = await t.http().get('/de/').set('Accept', 'application/json');
        expect(german.headers.location).toBe(`${PUBLIC_URL}/de${ROOT}/`);
        expectError(await t.http().post('/').send({}), 404, 'rest_no_route');
        const queryStyle = await t.http().get(`/?rest_route=/${NS}/categories`);
        expect(queryStyle.status).toBe(200);
      });

      it('answers paths outside the API root with 404 rest_no_route', async () => {
        for (const path of [
          '/foo',
          '/index.php',
          `/index.php${API}/categories`,
          '/wp-jsonx/tribe/events/v1/categories',
          '/api/tribe/events/v1/categories',
          '/tribe/events/v1/categories',
          `/en${API}/categories`,
          `/xx${API}/categories`,
          `/de-de${API}/categories`,
        ]) {
          const res = await t.http().get(path);
          expectError(res, 404, 'rest_no_route');
          expectCommonHeaders(res);
        }
      });

      it('serves a non-default edition under its language prefix', async () => {
        const res = await t.http().get(`/de${API}/categories/${categoryId}`);
        expect(res.status).toBe(200);
        expect(res.body.urls.self).toBe(`${PUBLIC_URL}/de${API}/categories/${categoryId}`);
        expectCommonHeaders(res, `${PUBLIC_URL}/de${ROOT}`);
        const missing = await t.http().get(`/de${API}/nope`);
        expectError(missing, 404, 'rest_no_route');
        expect(missing.body.message).not.toBe('No route matches this URL and request method.');
        expectCommonHeaders(missing, `${PUBLIC_URL}/de${ROOT}`);
        const created = await t.http().post(`/de${API}/tags`).set('Authorization', admin).send({ name: 'German edition tag' });
        expect(created.status).toBe(201);
        expect(created.headers.location).toBe(`${PUBLIC_URL}/de${API}/tags/${created.body.id}`);
        expect(created.body.url).toBe(`${PUBLIC_URL}/tag/german-edition-tag/`);
      });
    });

    describe('HEAD and OPTIONS (spec §2.3 items 7 and 8)', () => {
      it('answers HEAD like GET without a body', async () => {
        const get = await t.http().get(`${API}/categories?hide_empty=0`);
        const head = await t.http().head(`${API}/categories?hide_empty=0`);
        expect(head.status).toBe(200);
        expect(head.text ?? '').toBe('');
        expect(head.headers['x-tec-total']).toBe(get.headers['x-tec-total']);
        expect(head.headers['x-tec-totalpages']).toBe(get.headers['x-tec-totalpages']);
        expect(head.headers.allow).toBe('GET');
        expectCommonHeaders(head);
        for (const path of [`${API}/categories/${categoryId}`, `${API}/tags/${tagId}`, API, `${API}/doc`, `${ROOT}/`]) {
          const res = await t.http().head(path);
          expect(res.status).toBe(200);
          expect(res.text ?? '').toBe('');
          expectCommonHeaders(res);
        }
      });

      it('answers HEAD errors like GET errors without a body', async () => {
        const invalid = await t.http().head(`${API}/categories/987654`);
        expect(invalid.status).toBe(400);
        expect(invalid.text ?? '').toBe('');
        expectCommonHeaders(invalid);
        const unknown = await t.http().head(`${API}/nope`);
        expect(unknown.status).toBe(404);
        expect(unknown.text ?? '').toBe('');
        expectCommonHeaders(unknown);
      });

      it('answers OPTIONS on a known route with its namespace index entry and Allow', async () => {
        const collectionEntry = namespaceIndex.routes[`/${NS}/categories`];
        expect(collectionEntry).toBeDefined();
        const res = await t.http().options(`${API}/categories`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(collectionEntry);
        expect(res.body).toMatchObject({ namespace: NS, methods: ['GET', 'POST'] });
        expect(Array.isArray(res.body.endpoints)).toBe(true);
        expect(res.body.endpoints.map((e: { methods: string[] }) => e.methods)).toEqual([['GET'], ['POST']]);
        expect(res.headers.allow).toBe('GET');
        expectCommonHeaders(res);

        const asAdmin = await t.http().options(`${API}/categories`).set('Authorization', admin);
        expect(asAdmin.status).toBe(200);
        expect(asAdmin.headers.allow).toBe('GET, POST');

        const itemEntry = namespaceIndex.routes[`/${NS}/categories/(?P<id>\\d+)`];
        expect(itemEntry).toBeDefined();
        for (const path of [`${API}/categories/${categoryId}`, `${API}/categories/987654`, `${API}/CATEGORIES/${categoryId}/`]) {
          const item = await t.http().options(path);
          expect(item.status).toBe(200);
          expect(item.body).toEqual(itemEntry);
          expect(item.body.methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
        }
        const tags = await t.http().options(`${API}/tags/${tagId}`).set('Authorization', basic(editor));
        expect(tags.body).toEqual(namespaceIndex.routes[`/${NS}/tags/(?P<id>\\d+)`]);
        expect(tags.headers.allow).toBe('GET, POST, PUT, PATCH, DELETE');
        const ns = await t.http().options(API);
        expect(ns.status).toBe(200);
        expect(ns.body).toEqual(namespaceIndex.routes[`/${NS}`]);
        expect(ns.headers.allow).toBe('GET');
        const doc = await t.http().options(`${API}/doc`);
        expect(doc.body).toEqual(namespaceIndex.routes[`/${NS}/doc`]);
      });

      it('answers OPTIONS on an unknown route with 404 rest_no_route', async () => {
        for (const path of [`${API}/nope`, `${API}/categories/abc`, `${ROOT}/wp/v2/posts`, '/foo']) {
          expectError(await t.http().options(path), 404, 'rest_no_route');
        }
      });
    });

    describe('method override (spec §2.3 item 9)', () => {
      it('handles POST with _method=DELETE as DELETE', async () => {
        const { body } = await createCategory('Override delete');
        const res = await t.http().post(`${API}/categories/${body.id}?_method=DELETE`).set('Authorization', admin);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ id: body.id, name: 'Override delete' });
        expect(res.body._links).toBeUndefined();
        expect((await t.http().get(`${API}/categories/${body.id}`)).status).toBe(400);
      });

      it('reads the override value case-insensitively', async () => {
        const { body } = await createCategory('Override lower-case');
        const res = await t.http().post(`${API}/categories/${body.id}?_method=delete`).set('Authorization', admin);
        expect(res.status).toBe(200);
        expect((await t.http().get(`${API}/categories/${body.id}`)).status).toBe(400);
      });

      it('handles POST with X-HTTP-Method-Override as that method', async () => {
        const { body } = await createCategory('Header override');
        const patched = await t
          .http()
          .post(`${API}/categories/${body.id}`)
          .set('Authorization', admin)
          .set('X-HTTP-Method-Override', 'PATCH')
          .send({ description: 'patched' });
        expect(patched.status).toBe(200);
        expect(patched.body.description).toBe('patched');
        const removed = await t
          .http()
          .post(`${API}/categories/${body.id}`)
          .set('Authorization', admin)
          .set('X-HTTP-Method-Override', 'delete');
        expect(removed.status).toBe(200);
        expect((await t.http().get(`${API}/categories/${body.id}`)).status).toBe(400);
      });

      it('routes the overridden method: PATCH, PUT or DELETE on a collection is no route', async () => {
        expectError(
          await t
            .http()
            .post(`${API}/categories`)
            .set('Authorization', admin)
            .set('X-HTTP-Method-Override', 'PATCH')
            .send({ name: 'Never patched' }),
          404,
          'rest_no_route',
        );
        expectError(
          await t.http().post(`${API}/categories?_method=PUT`).set('Authorization', admin).send({ name: 'Never put' }),
          404,
          'rest_no_route',
        );
        expectError(await t.http().post(`${API}/tags?_method=DELETE`).set('Authorization', admin), 404, 'rest_no_route');
        const none = await t.http().get(`${API}/categories?hide_empty=0&search=never`);
        expect(none.body.total).toBe(0);
      });

      it('ignores override values other than PUT, PATCH and DELETE', async () => {
        const viaQuery = await t
          .http()
          .post(`${API}/categories?_method=GET`)
          .set('Authorization', admin)
          .send({ name: 'Override GET ignored' });
        expect(viaQuery.status).toBe(201);
        const viaHeader = await t
          .http()
          .post(`${API}/categories`)
          .set('Authorization', admin)
          .set('X-HTTP-Method-Override', 'HEAD')
          .send({ name: 'Override HEAD ignored' });
        expect(viaHeader.status).toBe(201);
        const options = await t
          .http()
          .post(`${API}/categories?_method=OPTIONS`)
          .set('Authorization', admin)
          .send({ name: 'Override OPTIONS ignored' });
        expect(options.status).toBe(201);
      });

      it('ignores _method and X-HTTP-Method-Override on methods other than POST', async () => {
        const { body } = await createCategory('Override ignored');
        const get = await t.http().get(`${API}/categories/${body.id}?_method=DELETE`).set('Authorization', admin);
        expect(get.status).toBe(200);
        const getHeader = await t
          .http()
          .get(`${API}/categories/${body.id}`)
          .set('Authorization', admin)
          .set('X-HTTP-Method-Override', 'DELETE');
        expect(getHeader.status).toBe(200);
        expect(getHeader.body._links).toBeDefined();
        const put = await t
          .http()
          .put(`${API}/categories/${body.id}?_method=DELETE`)
          .set('Authorization', admin)
          .send({ description: 'still here' });
        expect(put.status).toBe(200);
        expect(put.body.description).toBe('still here');
        expect((await t.http().get(`${API}/categories/${body.id}`)).status).toBe(200);
        const del = await t
          .http()
          .delete(`${API}/categories/${body.id}`)
          .set('Authorization', admin)
          .set('X-HTTP-Method-Override', 'PATCH');
        expect(del.status).toBe(200);
        expect((await t.http().get(`${API}/categories/${body.id}`)).status).toBe(400);
      });

      it('applies permissions to the overridden method', async () => {
        const { body } = await createCategory('Override anonymous');
        const res = await t.http().post(`${API}/categories/${body.id}?_method=DELETE`);
        expectError(res, 401, 'rest_forbidden');
        expect(res.headers.allow).toBe('GET');
        expect((await t.http().get(`${API}/categories/${body.id}`)).status).toBe(200);
      });
    });

    describe('query-style addressing (spec §2.3 item 10)', () => {
      it('answers /?rest_route= like the path form, with path-form links', async () => {
        const direct = await t.http().get(`${API}/categories?hide_empty=0&per_page=2`);
        expect(direct.status).toBe(200);
        for (const path of [
          `/?rest_route=/${NS}/categories&hide_empty=0&per_page=2`,
          `/index.php?rest_route=/${NS}/categories&hide_empty=0&per_page=2`,
          `/?rest_route=${encodeURIComponent(`/${NS}/categories`)}&hide_empty=0&per_page=2`,
          `/?hide_empty=0&rest_route=/${NS}/categories&per_page=2`,
        ]) {
          const res = await t.http().get(path);
          expect(res.status).toBe(200);
          expect(res.body).toEqual(direct.body);
          expect(res.headers['x-tec-total']).toBe(direct.headers['x-tec-total']);
          expect(res.body.rest_url).toBe(`${PUBLIC_URL}${API}/categories/?page=1&per_page=2&hide_empty=0`);
          expectCommonHeaders(res);
        }
      });

      it('answers single routes and the namespace index in query style', async () => {
        const single = await t.http().get(`/?rest_route=/${NS}/categories/${categoryId}`);
        expect(single.status).toBe(200);
        expect(single.body).toEqual((await t.http().get(`${API}/categories/${categoryId}`)).body);
        const index = await t.http().get(`/index.php?rest_route=/${NS}`);
        expect(index.status).toBe(200);
        expect(index.body).toEqual(namespaceIndex);
      });

      it('serves the edition of a /{lang}/ prefix in query style', async () => {
        const res = await t.http().get(`/de/?rest_route=/${NS}/categories&hide_empty=0`);
        expect(res.status).toBe(200);
        expect(res.body.rest_url).toBe(`${PUBLIC_URL}/de${API}/categories/?page=1&per_page=6&hide_empty=0`);
        expectCommonHeaders(res, `${PUBLIC_URL}/de${ROOT}`);
        const indexPhp = await t.http().get(`/de/index.php?rest_route=/${NS}/tags/${tagId}`);
        expect(indexPhp.status).toBe(200);
        expect(indexPhp.body.urls.self).toBe(`${PUBLIC_URL}/de${API}/tags/${tagId}`);
      });

      it('treats rest_route on an API path as an ignored unknown parameter', async () => {
        const direct = await t.http().get(`${API}/categories?hide_empty=0`);
        const res = await t.http().get(`${API}/categories?hide_empty=0&rest_route=/${NS}/tags`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(direct.body);
      });

      it('answers unknown query-style routes with 404 rest_no_route', async () => {
        expectError(await t.http().get(`/?rest_route=/${NS}/nope`), 404, 'rest_no_route');
        expectError(await t.http().get('/?rest_route=/wp/v2/posts'), 404, 'rest_no_route');
        expectError(await t.http().get(`/?rest_route=/tribe/events/v2/categories`), 404, 'rest_no_route');
      });
    });

    describe('request bodies (spec §7.2)', () => {
      const postRaw = (body: string, type: string, auth: string | null = admin, path = `${API}/categories`) => {
        const req = t.http().post(path).set('Content-Type', type);
        if (auth) req.set('Authorization', auth);
        return req.send(body);
      };

      it('refuses invalid JSON and JSON that is not an object with 400 rest_invalid_json', async () => {
        for (const body of ['{"name":', '{name: "x"}', '[{"name":"Array"}]', '[]', '"text"', '42', 'null', 'true']) {
          const res = await postRaw(body, 'application/json');
          expectError(res, 400, 'rest_invalid_json');
          expect(res.body.message).toBe('The request body is not a valid JSON object.');
          expect(res.headers.allow).toBe('GET, POST');
          expectCommonHeaders(res);
        }
        const none = await t.http().get(`${API}/categories?hide_empty=0&search=array`);
        expect(none.body.total).toBe(0);
      });

      it('refuses invalid JSON on updates too', async () => {
        const res = t
          .http()
          .patch(`${API}/tags/${tagId}`)
          .set('Authorization', admin)
          .set('Content-Type', 'application/json; charset=utf-8');
        expectError(await res.send('{"description": }'), 400, 'rest_invalid_json');
      });

      it('treats an empty JSON body as no parameters', async () => {
        const res = await postRaw('', 'application/json');
        expectError(res, 400, 'rest_missing_callback_param');
        expect(res.body.data.params).toEqual(['name']);
      });

      it('accepts JSON with a charset and */*+json media types', async () => {
        const cases: Array<[string, string]> = [
          ['application/json; charset=utf-8', 'Json charset'],
          ['application/json;charset=UTF-8', 'Json charset upper'],
          ['application/vnd.x+json', 'Vendor json'],
          ['application/merge-patch+json; charset=utf-8', 'Merge patch json'],
        ];
        for (const [type, name] of cases) {
          const res = await postRaw(JSON.stringify({ name }), type);
          expect({ type, status: res.status }).toEqual({ type, status: 201 });
          expect(res.body.name).toBe(name);
        }
        const vendorInvalid = await postRaw('[1,2]', 'application/vnd.x+json');
        expectError(vendorInvalid, 400, 'rest_invalid_json');
      });

      it('ignores bodies of other content types', async () => {
        for (const type of ['text/plain', 'application/xml', 'application/octet-stream']) {
          const res = await postRaw('{"name":"Ignored body"', type);
          expectError(res, 400, 'rest_missing_callback_param');
        }
        const noType = await t.http().post(`${API}/categories`).set('Authorization', admin).send(Buffer.from('{"name":"No type"}'));
        expectError(noType, 400, 'rest_missing_callback_param');
      });

      it('reads form bodies, decoding values', async () => {
        const res = await postRaw('name=Form+Category&description=Caf%C3%A9+%26+bar&slug=form-made', 'application/x-www-form-urlencoded');
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ name: 'Form Category', description: 'Café & bar', slug: 'form-made' });
        const charset = await postRaw('name=Form+charset', 'application/x-www-form-urlencoded; charset=UTF-8');
        expect(charset.status).toBe(201);
      });

      it('builds arrays and objects from bracket notation in form bodies and query strings', async () => {
        const a = (await createCategory('Bracket A')).body.id;
        const b = (await createCategory('Bracket B')).body.id;
        const c = (await createCategory('Bracket C')).body.id;
        const query = await t.http().get(`${API}/categories?hide_empty=0&orderby=include&include[]=${c}&include[]=${a}&include[]=${b}`);
        expect(query.status).toBe(200);
        expect(query.body.categories.map((x: { id: number }) => x.id)).toEqual([c, a, b]);
        const indexed = await t.http().get(`${API}/categories?hide_empty=0&orderby=include&include[0]=${b}&include[1]=${c}`);
        expect(indexed.body.categories.map((x: { id: number }) => x.id)).toEqual([b, c]);
        const formBody = await t
          .http()
          .get(`${API}/categories`)
          .set('Content-Type', 'application/x-www-form-urlencoded')
          .send(`hide_empty=0&orderby=include&include[]=${b}&include[]=${a}`);
        expect(formBody.status).toBe(200);
        expect(formBody.body.categories.map((x: { id: number }) => x.id)).toEqual([b, a]);
        const object = await postRaw('name[first]=Nested', 'application/x-www-form-urlencoded');
        expectError(object, 400, 'rest_invalid_param');
        expect(Object.keys(object.body.data.params)).toEqual(['name']);
      });

      it('ignores unknown parameters, including _fields, _embed, _envelope and _jsonp', async () => {
        const direct = await t.http().get(`${API}/categories?hide_empty=0`);
        const res = await t.http().get(`${API}/categories?hide_empty=0&_envelope=1&_jsonp=callback&_fields=id&_embed=1&whatever=x`);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe(JSON_TYPE);
        expect(res.body).toEqual(direct.body);
        const single = await t.http().get(`${API}/tags/${tagId}?_envelope&_fields=name`);
        expect(single.body).toEqual((await t.http().get(`${API}/tags/${tagId}`)).body);
      });

      it('reads a key repeated without brackets as a list for list parameters', async () => {
        const a = (await createCategory('Repeated A')).body.id;
        const b = (await createCategory('Repeated B')).body.id;
        const res = await t.http().get(`${API}/categories?hide_empty=0&orderby=include&include=${b}&include=${a}`);
        expect(res.status).toBe(200);
        expect(res.body.categories.map((x: { id: number }) => x.id)).toEqual([b, a]);
      });

      it('lets the body win over the query string and the path id win over both', async () => {
        const res = await t
          .http()
          .post(`${API}/categories?name=From+query&description=From+query`)
          .set('Authorization', admin)
          .send({ name: 'From body' });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ name: 'From body', description: 'From query' });
        const other = (await createCategory('Path wins other')).body.id;
        const update = await t
          .http()
          .patch(`${API}/categories/${res.body.id}?id=${other}`)
          .set('Authorization', admin)
          .send({ id: other, description: 'path wins' });
        expect(update.status).toBe(200);
        expect(update.body.id).toBe(res.body.id);
        expect((await t.http().get(`${API}/categories/${other}`)).body.description).toBe('');
      });

      it('reads multipart fields and ignores files', async () => {
        const res = await t
          .http()
          .post(`${API}/categories`)
          .set('Authorization', admin)
          .field('name', 'Multipart category')
          .field('description', 'From a multipart form')
          .attach('slug', Buffer.from('file-slug'), 'slug.txt');
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ name: 'Multipart category', description: 'From a multipart form', slug: 'multipart-category' });
        const onlyFile = await t
          .http()
          .post(`${API}/categories`)
          .set('Authorization', admin)
          .attach('name', Buffer.from('File name'), 'name.txt');
        expectError(onlyFile, 400, 'rest_missing_callback_param');
        const bracket = await t.http().post(`${API}/categories`).set('Authorization', admin).field('name[x]', 'Nested');
        expectError(bracket, 400, 'rest_invalid_param');
      });
    });

    describe('order of checks (spec §4.6)', () => {
      it('checks credentials before route matching', async () => {
        for (const path of [`${API}/nope`, `${ROOT}/wp/v2/posts`, '/foo']) {
          const res = await t.http().get(path).set('Authorization', BAD_PASSWORD);
          expectError(res, 401, 'incorrect_password');
          expect(res.headers['www-authenticate']).toBeUndefined();
          expect(res.headers.allow).toBeUndefined();
          expectError(await t.http().get(path).set('Authorization', UNKNOWN_USER), 401, 'invalid_username');
        }
        expectError(await t.http().put(`${API}/categories`).set('Authorization', BAD_PASSWORD), 401, 'incorrect_password');
        expectError(await t.http().get(`${API}/categories/abc`).set('Authorization', UNKNOWN_USER), 401, 'invalid_username');
      });

      it('checks credentials before the JSON body', async () => {
        const res = await t
          .http()
          .post(`${API}/categories`)
          .set('Authorization', BAD_PASSWORD)
          .set('Content-Type', 'application/json')
          .send('{bad json');
        expectError(res, 401, 'incorrect_password');
        expect(res.headers.allow).toBeUndefined();
      });

      it('checks the route before the JSON body', async () => {
        const unknown = await t.http().post(`${API}/nope`).set('Content-Type', 'application/json').send('{bad json');
        expectError(unknown, 404, 'rest_no_route');
        const method = await t
          .http()
          .put(`${API}/categories`)
          .set('Authorization', admin)
          .set('Content-Type', 'application/json')
          .send('[1]');
        expectError(method, 404, 'rest_no_route');
        const outside = await t.http().post('/foo').set('Content-Type', 'application/json').send('nope');
        expectError(outside, 404, 'rest_no_route');
      });

      it('parses the JSON body before required parameters and permission', async () => {
        const anonymous = await t.http().post(`${API}/categories`).set('Content-Type', 'application/json').send('{bad json');
        expectError(anonymous, 400, 'rest_invalid_json');
        const missing = await t.http().post(`${API}/categories`).send({});
        expectError(missing, 400, 'rest_missing_callback_param');
        const invalid = await t.http().post(`${API}/tags`).set('Authorization', basic(author)).send({ name: '' });
        expectError(invalid, 400, 'rest_invalid_param');
      });

      it('authenticates valid credentials and then answers unknown routes with 404', async () => {
        const res = await t.http().get(`${API}/nope`).set('Authorization', admin);
        expectError(res, 404, 'rest_no_route');
        expect(res.headers['cache-control']).toBe(PRIVATE);
      });
    });

    describe('headers on every answer (spec §14.1)', () => {
      const cases = (): Array<[string, () => Promise<Response>, 'auth' | 'auth-read' | 'anon']> => [
        ['list 200', () => t.http().get(`${API}/categories?hide_empty=0`), 'anon'],
        ['single 200', () => t.http().get(`${API}/tags/${tagId}`), 'anon'],
        [
          'create 201',
          () =>
            t
              .http()
              .post(`${API}/tags`)
              .set('Authorization', admin)
              .send({ name: `Header tag ${Date.now()}` }),
          'auth',
        ],
        ['update 200', () => t.http().patch(`${API}/tags/${tagId}`).set('Authorization', admin).send({ description: 'headers' }), 'auth'],
        ['invalid 400', () => t.http().get(`${API}/categories?order=sideways`), 'anon'],
        ['authenticated 400', () => t.http().get(`${API}/categories/987654`).set('Authorization', basic(subscriber)), 'auth'],
        ['anonymous 401', () => t.http().post(`${API}/categories`).send({ name: 'Anonymous header' }), 'anon'],
        ['bad credentials 401', () => t.http().get(`${API}/categories`).set('Authorization', BAD_PASSWORD), 'anon'],
        [
          'forbidden 403',
          () => t.http().post(`${API}/categories`).set('Authorization', basic(contributor)).send({ name: 'Contributor header' }),
          'auth',
        ],
        ['no route 404', () => t.http().get(`${API}/nope`), 'anon'],
        ['outside root 404', () => t.http().get('/somewhere/else'), 'anon'],
        [
          'invalid json 400',
          () => t.http().post(`${API}/tags`).set('Authorization', admin).set('Content-Type', 'application/json').send('{'),
          'auth',
        ],
        ['HEAD 200', () => t.http().head(`${API}/tags?hide_empty=0`), 'anon'],
        ['OPTIONS 200', () => t.http().options(`${API}/tags`), 'anon'],
        ['authenticated OPTIONS 200', () => t.http().options(`${API}/tags`).set('Authorization', basic(editor)), 'auth'],
        ['namespace index', () => t.http().get(API), 'anon'],
        ['invalid namespace 404', () => t.http().get(`${API}?namespace=other`), 'anon'],
        ['doc', () => t.http().get(`${API}/doc`), 'anon'],
        ['API index', () => t.http().get(`${ROOT}/`), 'anon'],
        ['authenticated API index', () => t.http().get(`${ROOT}/`).set('Authorization', admin), 'auth-read'],
      ];

      it('sends Content-Type, X-Content-Type-Options, X-Robots-Tag, Link and Vary on every answer', async () => {
        for (const [name, send] of cases()) {
          const res = await send();
          try {
            expectCommonHeaders(res);
          } catch (error) {
            throw new Error(`${name} (${res.status}): ${(error as Error).message}`, { cause: error });
          }
        }
      });

      it('sends Cache-Control no-store private on answers to authenticated requests only', async () => {
        for (const [name, send, who] of cases()) {
          const res = await send();
          if (who === 'auth') {
            expect({ name, cacheControl: res.headers['cache-control'] }).toEqual({ name, cacheControl: PRIVATE });
          } else if (who === 'auth-read') {
            expect({ name, cacheControl: res.headers['cache-control'] }).toEqual({ name, cacheControl: PRIVATE_READ });
          } else {
            expect({ name, private: (res.headers['cache-control'] ?? '').includes('private') }).toEqual({ name, private: false });
          }
        }
      });

      it('writes JSON without escaping slashes or non-ASCII characters', async () => {
        const res = await t.http().post(`${API}/categories`).set('Authorization', admin).send({ name: 'Café Ünter', description: 'a/b ü' });
        expect(res.status).toBe(201);
        expect(res.text).toContain('"name":"Café Ünter"');
        expect(res.text).toContain('"description":"a/b ü"');
        expect(res.text).toContain(`"self":"${PUBLIC_URL}${API}/categories/${res.body.id}"`);
      });
    });

    describe('CORS with CORS_ORIGINS=* (spec §14.3)', () => {
      const origin = 'https://client.example';

      it('echoes an allowed origin with credentials and the exposed headers', async () => {
        const res = await t.http().get(`${API}/categories?hide_empty=0`).set('Origin', origin);
        expect(res.status).toBe(200);
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(res.headers['access-control-allow-credentials']).toBe('true');
        expect(list(res.headers['access-control-expose-headers'])).toEqual(EXPOSED);
        expect(list(res.headers.vary).map((v) => v.toLowerCase())).toContain('origin');
      });

      it('adds the CORS headers to error answers too', async () => {
        for (const res of [
          await t.http().get(`${API}/nope`).set('Origin', origin),
          await t.http().get(`${API}/categories`).set('Origin', origin).set('Authorization', BAD_PASSWORD),
          await t.http().post(`${API}/categories`).set('Origin', origin).send({ name: 'CORS anonymous' }),
        ]) {
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.headers['access-control-allow-origin']).toBe(origin);
          expect(res.headers['access-control-allow-credentials']).toBe('true');
        }
      });

      it('sends no Access-Control headers without an Origin', async () => {
        const res = await t.http().get(`${API}/categories`);
        expectNoCors(res);
        expect(list(res.headers.vary).map((v) => v.toLowerCase())).toContain('origin');
      });

      it('answers a preflight with the route entry and the allow-methods, allow-headers and max-age', async () => {
        const res = await t
          .http()
          .options(`${API}/categories`)
          .set('Origin', origin)
          .set('Access-Control-Request-Method', 'POST')
          .set('Access-Control-Request-Headers', 'authorization, content-type');
        expect(res.status).toBe(200);
        expect(res.body).toEqual(namespaceIndex.routes[`/${NS}/categories`]);
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(res.headers['access-control-allow-credentials']).toBe('true');
        expect(list(res.headers['access-control-allow-methods'])).toEqual(ALLOW_METHODS);
        expect(list(res.headers['access-control-allow-headers'])).toEqual(ALLOW_HEADERS);
        expect(res.headers['access-control-max-age']).toBe('600');
        expect(res.headers.allow).toBe('GET');
        expectCommonHeaders(res);
      });

      it('answers a preflight for a write method without credentials (never 401)', async () => {
        const res = await t.http().options(`${API}/tags/${tagId}`).set('Origin', origin).set('Access-Control-Request-Method', 'DELETE');
        expect(res.status).toBe(200);
        expect(res.body).toEqual(namespaceIndex.routes[`/${NS}/tags/(?P<id>\\d+)`]);
        expect(res.headers['access-control-max-age']).toBe('600');
      });

      it('answers a preflight on an unknown route with 404 rest_no_route', async () => {
        const res = await t.http().options(`${API}/nope`).set('Origin', origin).set('Access-Control-Request-Method', 'GET');
        expectError(res, 404, 'rest_no_route');
      });
    });

    describe('Allow (spec §14.2)', () => {
      const allowOf = async (method: 'get' | 'post' | 'head' | 'options', path: string, auth?: string) => {
        const req = t.http()[method](path);
        if (auth) req.set('Authorization', auth);
        return (await req).headers.allow;
      };

      it('lists the methods each role may use on categories and tags', async () => {
        const full = 'GET, POST, PUT, PATCH, DELETE';
        const table: Array<[who: string, auth: string | undefined, categories: string, category: string, tags: string, tag: string]> = [
          ['anonymous', undefined, 'GET', 'GET', 'GET', 'GET'],
          ['subscriber', basic(subscriber), 'GET', 'GET', 'GET', 'GET'],
          ['contributor', basic(contributor), 'GET', 'GET', 'GET', 'GET'],
          ['author', basic(author), 'GET, POST', full, 'GET', 'GET'],
          ['editor', basic(editor), 'GET, POST', full, 'GET, POST', full],
          ['administrator', admin, 'GET, POST', full, 'GET, POST', full],
        ];
        for (const [who, auth, categories, category, tags, tag] of table) {
          const actual = {
            who,
            categories: await allowOf('get', `${API}/categories`, auth),
            category: await allowOf('get', `${API}/categories/${categoryId}`, auth),
            tags: await allowOf('get', `${API}/tags`, auth),
            tag: await allowOf('get', `${API}/tags/${tagId}`, auth),
          };
          expect(actual).toEqual({ who, categories, category, tags, tag });
        }
      });

      it('sends Allow on errors of a matched route, whatever the validation', async () => {
        const anonymous = await t.http().post(`${API}/categories`).send({ name: 'Anonymous allow' });
        expect(anonymous.status).toBe(401);
        expect(anonymous.headers.allow).toBe('GET');
        const authorTag = await t.http().post(`${API}/tags`).set('Authorization', basic(author)).send({ name: 'Author tag' });
        expect(authorTag.status).toBe(403);
        expect(authorTag.headers.allow).toBe('GET');
        const unknownAdmin = await t.http().get(`${API}/categories/987654`).set('Authorization', admin);
        expect(unknownAdmin.status).toBe(400);
        expect(unknownAdmin.headers.allow).toBe('GET, POST, PUT, PATCH, DELETE');
        const invalidList = await t.http().get(`${API}/tags?orderby=nope`).set('Authorization', basic(author));
        expect(invalidList.status).toBe(400);
        expect(invalidList.headers.allow).toBe('GET');
        const created = await t.http().post(`${API}/tags`).set('Authorization', admin).send({ name: 'Allow created' });
        expect(created.status).toBe(201);
        expect(created.headers.allow).toBe('GET, POST');
      });

      it('sends Allow on the namespace index, /doc, HEAD and OPTIONS', async () => {
        expect(await allowOf('get', API, admin)).toBe('GET');
        expect(await allowOf('get', `${API}/doc`, admin)).toBe('GET');
        expect(await allowOf('head', `${API}/categories/${categoryId}`, basic(author))).toBe('GET, POST, PUT, PATCH, DELETE');
        expect(await allowOf('options', `${API}/categories/${categoryId}`, basic(author))).toBe('GET, POST, PUT, PATCH, DELETE');
        expect(await allowOf('options', `${API}/tags`, basic(author))).toBe('GET');
      });

      it('sends no Allow on 404 rest_no_route and on failed credentials', async () => {
        expect(await allowOf('get', `${API}/nope`, admin)).toBeUndefined();
        expect(await allowOf('get', `${API}/categories/abc`)).toBeUndefined();
        expect(await allowOf('get', `${API}/categories`, BAD_PASSWORD)).toBeUndefined();
        expect(await allowOf('get', `${API}/categories/${categoryId}`, UNKNOWN_USER)).toBeUndefined();
      });
    });

    describe('errors (spec §12.1)', () => {
      it('uses the error shape with data.status equal to the HTTP status for every kind of error', async () => {
        expectError(await t.http().get(`${API}/nope`), 404, 'rest_no_route');
        expectError(await t.http().get(`${API}?namespace=other`), 404, 'rest_invalid_namespace');
        expectError(await t.http().get(`${API}/categories`).set('Authorization', BAD_PASSWORD), 401, 'incorrect_password');
        expectError(await t.http().get(`${API}/categories`).set('Authorization', UNKNOWN_USER), 401, 'invalid_username');
        expectError(await t.http().post(`${API}/tags`).send({ name: 'x' }), 401, 'rest_forbidden');
        expectError(await t.http().post(`${API}/tags`).set('Authorization', basic(subscriber)).send({ name: 'x' }), 403, 'rest_forbidden');
        expectError(
          await t.http().post(`${API}/tags`).set('Authorization', admin).set('Content-Type', 'application/json').send('[]'),
          400,
          'rest_invalid_json',
        );
        expectError(
          await t.http().post(`${API}/tags`).set('Authorization', admin).send({ name: 'x', parent: 1 }),
          400,
          'rest_taxonomy_not_hierarchical',
        );
        const missing = await t.http().post(`${API}/tags`).set('Authorization', admin).send({});
        expect(missing.body).toEqual({
          code: 'rest_missing_callback_param',
          message: expect.any(String),
          data: { status: 400, params: ['name'] },
        });
        const invalid = await t.http().get(`${API}/tags?page=0`);
        expect(invalid.body).toEqual({
          code: 'rest_invalid_param',
          message: expect.any(String),
          data: { status: 400, params: { page: expect.any(String) }, details: expect.anything() },
        });
      });

      it('never answers malformed parameter shapes with a 500', async () => {
        const queries = [
          'include=99999999999999999999',
          'include[a][b]=1',
          'search[]=x',
          'search[a]=x',
          'page[]=1',
          'per_page[x]=2',
          'orderby[]=name',
          'order[]=asc',
          'hide_empty[]=0',
          'slug[a][b]=c',
          'exclude=%00',
          'search=%00',
          `search=${'x'.repeat(501)}`,
        ];
        for (const query of queries) {
          const res = await t.http().get(`${API}/tags?${query}`);
          expect({ query, status: res.status < 500 }).toEqual({ query, status: true });
          if (res.status >= 400) expect(res.body.data.status).toBe(res.status);
        }
        const hugeInclude = await t.http().get(`${API}/categories?include=99999999999999999999`);
        expectError(hugeInclude, 400, 'rest_invalid_param');
        expect(Object.keys(hugeInclude.body.data.params)).toEqual(['include']);
        const longSearch = await t.http().get(`${API}/categories?search=${'x'.repeat(501)}`);
        expectError(longSearch, 400, 'rest_invalid_param');
        expect(Object.keys(longSearch.body.data.params)).toEqual(['search']);
        for (const body of [
          { name: { nested: 'x' } },
          { name: ['a', 'b'] },
          { name: 'ok', slug: { a: 1 } },
          { name: 'ok', description: 12 },
        ]) {
          const res = await t.http().post(`${API}/categories`).set('Authorization', admin).send(body);
          expect({ body, status: res.status < 500 }).toEqual({ body, status: true });
        }
      });
    });

    describe('namespace index and API index (spec §13.1, §13.3)', () => {
      it('answers GET {api} with the namespace index', async () => {
        const res = await t.http().get(API);
        expect(res.status).toBe(200);
        expect(Object.keys(res.body)).toEqual(['namespace', 'routes', '_links']);
        expect(res.body.namespace).toBe(NS);
        expect(res.body._links).toEqual({ up: [{ href: `${PUBLIC_URL}${ROOT}/` }] });
        expect(Object.keys(res.body.routes)).toEqual(expect.arrayContaining([`/${NS}`, `/${NS}/doc`, `/${NS}/categories`, `/${NS}/tags`]));
      });

      it('refuses another namespace with 404 rest_invalid_namespace and accepts its own and any context', async () => {
        for (const path of [`${API}?namespace=other`, `${API}/?namespace=wp/v2`, `${API}?namespace=tribe/events/v2`]) {
          const res = await t.http().get(path);
          expectError(res, 404, 'rest_invalid_namespace');
          expect(res.body.message).toBe('The requested namespace does not exist.');
        }
        expect((await t.http().get(`${API}?namespace=${NS}`)).status).toBe(200);
        const context = await t.http().get(`${API}?context=edit`);
        expect(context.status).toBe(200);
        expect(context.body).toEqual(namespaceIndex);
      });

      it('answers GET {base}/ with the API index', async () => {
        const res = await t.http().get(`${ROOT}/`);
        expect(res.status).toBe(200);
        // the routes of the second namespace served, tec/v1 (its own index), after those of the configured one
        const tecIndex = (await t.http().get(`${ROOT}/tec/v1`)).body as { routes: Record<string, unknown> };
        expect(Object.keys(res.body)).toEqual([
          'name',
          'description',
          'url',
          'home',
          'gmt_offset',
          'timezone_string',
          'namespaces',
          'routes',
          '_links',
        ]);
        expect(res.body).toEqual({
          name: 'Events',
          description: '',
          url: PUBLIC_URL,
          home: PUBLIC_URL,
          gmt_offset: 0,
          timezone_string: 'UTC',
          namespaces: [NS, 'tec/v1'],
          routes: { ...namespaceIndex.routes, ...tecIndex.routes },
          _links: { help: [{ href: `${PUBLIC_URL}${API}/doc` }] },
        });
        expectCommonHeaders(res);
      });

      it('answers the API index of another edition with its own links', async () => {
        const res = await t.http().get(`/de${ROOT}/`);
        expect(res.status).toBe(200);
        expect(res.body._links).toEqual({ help: [{ href: `${PUBLIC_URL}/de${API}/doc` }] });
        expect(res.body.url).toBe(PUBLIC_URL);
        expectCommonHeaders(res, `${PUBLIC_URL}/de${ROOT}`);
      });
    });
  });

  describe('MAX_BODY_BYTES (spec §14.4, §4.6 step 1)', () => {
    const LIMIT = 256;
    let t: TestApp;
    const admin = basic(ADMIN);
    const oversized = JSON.stringify({ name: 'Too big', description: 'x'.repeat(LIMIT) });

    beforeAll(async () => {
      t = await startTestApp({ MAX_BODY_BYTES: String(LIMIT) });
    }, STARTUP_MS);
    afterAll(() => t.close());

    const expectTooLarge = (res: Response) => {
      expectError(res, 413, 'rest_payload_too_large');
      expect(res.body.message).toBe(`The request body is larger than the allowed ${LIMIT} bytes.`);
      expect(res.headers.allow).toBeUndefined();
      expectCommonHeaders(res);
    };

    it('refuses a body above the limit with 413 rest_payload_too_large', async () => {
      expectTooLarge(
        await t.http().post(`${API}/categories`).set('Authorization', admin).set('Content-Type', 'application/json').send(oversized),
      );
      const none = await t.http().get(`${API}/categories?hide_empty=0`);
      expect(none.body.total).toBe(0);
    });

    it('accepts a body of exactly the limit', async () => {
      const base = JSON.stringify({ name: 'Exact', description: '' });
      const exact = JSON.stringify({ name: 'Exact', description: 'y'.repeat(LIMIT - base.length) });
      expect(Buffer.byteLength(exact)).toBe(LIMIT);
      const res = await t.http().post(`${API}/categories`).set('Authorization', admin).set('Content-Type', 'application/json').send(exact);
      expect(res.status).toBe(201);
      const over = JSON.stringify({ name: 'Exact 2', description: 'y'.repeat(LIMIT - base.length) });
      expect(Buffer.byteLength(over)).toBe(LIMIT + 2);
      expectTooLarge(
        await t.http().post(`${API}/categories`).set('Authorization', admin).set('Content-Type', 'application/json').send(over),
      );
    });

    it('checks the body size before credentials, route, JSON parsing and permission', async () => {
      expectTooLarge(
        await t.http().post(`${API}/categories`).set('Authorization', BAD_PASSWORD).set('Content-Type', 'application/json').send(oversized),
      );
      expectTooLarge(
        await t.http().post(`${API}/categories`).set('Authorization', UNKNOWN_USER).set('Content-Type', 'application/json').send(oversized),
      );
      expectTooLarge(await t.http().post(`${API}/nope`).set('Content-Type', 'application/json').send(oversized));
      expectTooLarge(await t.http().post('/outside').set('Content-Type', 'application/json').send(oversized));
      expectTooLarge(await t.http().put(`${API}/categories`).set('Content-Type', 'application/json').send(oversized));
      expectTooLarge(
        await t
          .http()
          .post(`${API}/categories`)
          .set('Content-Type', 'application/json')
          .send(`{${'x'.repeat(LIMIT)}`),
      );
      expectTooLarge(await t.http().post(`${API}/categories`).set('Content-Type', 'application/json').send(oversized));
    });

    it('limits every body type and every method', async () => {
      expectTooLarge(
        await t
          .http()
          .post(`${API}/tags`)
          .set('Authorization', admin)
          .type('form')
          .send(`name=Form&description=${'x'.repeat(LIMIT)}`),
      );
      expectTooLarge(
        await t.http().post(`${API}/tags`).set('Authorization', admin).field('name', 'Multipart').field('description', 'x'.repeat(LIMIT)),
      );
      expectTooLarge(
        await t
          .http()
          .post(`${API}/tags`)
          .set('Authorization', admin)
          .set('Content-Type', 'text/plain')
          .send('x'.repeat(LIMIT + 1)),
      );
      expectTooLarge(
        await t
          .http()
          .get(`${API}/categories`)
          .set('Content-Type', 'text/plain')
          .send('x'.repeat(LIMIT + 1)),
      );
    });

    /** Sends a chunked body (no Content-Length) through a real socket. */
    const sendChunked = async (chunks: string[]) => {
      const server = t.app.getHttpServer();
      if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      return new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: `${API}/categories`,
            headers: { 'Content-Type': 'application/json', Authorization: admin },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        for (const chunk of chunks) req.write(chunk);
        req.end();
      });
    };

    it('accepts a small chunked body', async () => {
      const answer = await sendChunked(['{"name":', '"Small chunked"}']);
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body).name).toBe('Small chunked');
    });

    it('limits a chunked body without Content-Length', async () => {
      const answer = await sendChunked([`{"name":"Chunked","description":"`, ...Array.from({ length: 7 }, () => 'z'.repeat(64)), '"}']);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413 } });
      const none = await t.http().get(`${API}/categories?hide_empty=0&slug=chunked`);
      expect(none.body.total).toBe(0);
    });
  });

  describe('CORS_ORIGINS with a list (spec §14.3)', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp({ CORS_ORIGINS: 'https://ok.example' });
    }, STARTUP_MS);
    afterAll(() => t.close());

    it('echoes a listed origin', async () => {
      const res = await t.http().get(`${API}/categories`).set('Origin', 'https://ok.example');
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('https://ok.example');
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(list(res.headers['access-control-expose-headers'])).toEqual(EXPOSED);
    });

    it('sends no Access-Control headers to other origins but still processes the request', async () => {
      for (const origin of ['https://evil.example', 'http://ok.example', 'https://ok.example:8443', 'https://sub.ok.example', 'null']) {
        const res = await t.http().get(`${API}/categories?hide_empty=0`).set('Origin', origin);
        expect(res.status).toBe(200);
        expect(res.body.rest_url).toBe(`${PUBLIC_URL}${API}/categories/?page=1&per_page=6&hide_empty=0`);
        expectNoCors(res);
        expect(list(res.headers.vary).map((v) => v.toLowerCase())).toContain('origin');
      }
      const write = await t
        .http()
        .post(`${API}/categories`)
        .set('Origin', 'https://evil.example')
        .set('Authorization', basic(ADMIN))
        .send({ name: 'Cross origin' });
      expect(write.status).toBe(201);
      expectNoCors(write);
    });

    it('answers a preflight from another origin without Access-Control headers', async () => {
      const res = await t
        .http()
        .options(`${API}/categories`)
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'POST');
      expect(res.status).toBe(200);
      expect(res.body.methods).toEqual(['GET', 'POST']);
      expectNoCors(res);
    });

    it('answers a preflight from a listed origin with the CORS headers', async () => {
      const res = await t
        .http()
        .options(`${API}/categories`)
        .set('Origin', 'https://ok.example')
        .set('Access-Control-Request-Method', 'POST');
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('https://ok.example');
      expect(list(res.headers['access-control-allow-methods'])).toEqual(ALLOW_METHODS);
      expect(list(res.headers['access-control-allow-headers'])).toEqual(ALLOW_HEADERS);
      expect(res.headers['access-control-max-age']).toBe('600');
    });
  });

  describe('unexpected failures (spec §12.1, §12.2)', () => {
    let t: TestApp;
    let storage: DataSource;

    beforeAll(async () => {
      t = await startTestApp();
      storage = t.app.get(DataSource);
      await t.http().post(`${API}/tags`).set('Authorization', basic(ADMIN)).send({ name: 'Before failure' });
    }, STARTUP_MS);
    afterAll(async () => {
      await storage.query('ALTER TABLE tags_gone RENAME TO tags').catch(() => undefined);
      await t.close();
    });

    it('answers a storage failure with 500 internal_server_error that leaks no internals', async () => {
      await storage.query('ALTER TABLE tags RENAME TO tags_gone');
      for (const send of [
        () => t.http().get(`${API}/tags?hide_empty=0`),
        () => t.http().get(`${API}/tags/1`),
        () => t.http().post(`${API}/tags`).set('Authorization', basic(ADMIN)).send({ name: 'During failure' }),
      ]) {
        const res = await send();
        expect(res.status).toBe(500);
        expect(res.body).toEqual({
          code: 'internal_server_error',
          message: 'The server could not complete the request.',
          data: { status: 500 },
        });
        expect(res.text).not.toMatch(
          /tags_gone|no such table|doesn't exist|sqlite|select |insert |QueryFailed|TypeORM|Error:|\sat\s|\/work\/|node_modules|\.ts\b/i,
        );
        expect(res.text).not.toMatch(/\bER_[A-Z_]+|SQLITE_[A-Z_]+/);
        expectCommonHeaders(res);
      }
      const categories = await t.http().get(`${API}/categories?hide_empty=0`);
      expect(categories.status).toBe(200);
    });
  });

  describe('PUBLIC_URL with a path (spec §2.2)', () => {
    const CAL_URL = 'http://calendar.test/cal';
    let t: TestApp;
    const admin = basic(ADMIN);

    beforeAll(async () => {
      t = await startTestApp({
        PUBLIC_URL: `${CAL_URL}/`,
        SITE_TIMEZONE: 'Asia/Kolkata',
        SITE_NAME: 'Harbour Events',
        SITE_DESCRIPTION: 'Things to do',
      });
    }, STARTUP_MS);
    afterAll(() => t.close());

    it('answers with and without the path prefix, always emitting it', async () => {
      const created = await t.http().post(`/cal${API}/categories`).set('Authorization', admin).send({ name: 'Prefixed' });
      expect(created.status).toBe(201);
      const id = created.body.id;
      expect(created.headers.location).toBe(`${CAL_URL}${API}/categories/${id}`);
      expect(created.body.url).toBe(`${CAL_URL}/events/category/prefixed/`);
      expect(created.body.urls).toEqual({ self: `${CAL_URL}${API}/categories/${id}`, collection: `${CAL_URL}${API}/categories` });
      expectCommonHeaders(created, `${CAL_URL}${ROOT}`);

      const withPrefix = await t.http().get(`/cal${API}/categories?hide_empty=0`);
      const withoutPrefix = await t.http().get(`${API}/categories?hide_empty=0`);
      for (const res of [withPrefix, withoutPrefix]) {
        expect(res.status).toBe(200);
        expect(res.body.rest_url).toBe(`${CAL_URL}${API}/categories/?page=1&per_page=6&hide_empty=0`);
        expect(res.body.categories[0].url).toBe(`${CAL_URL}/events/category/prefixed/`);
        expectCommonHeaders(res, `${CAL_URL}${ROOT}`);
      }
      expect(withPrefix.body).toEqual(withoutPrefix.body);

      const tag = await t.http().post(`${API}/tags`).set('Authorization', admin).send({ name: 'Unprefixed request' });
      expect(tag.status).toBe(201);
      expect(tag.headers.location).toBe(`${CAL_URL}${API}/tags/${tag.body.id}`);
      expect(tag.body.url).toBe(`${CAL_URL}/tag/unprefixed-request/`);
    });

    it('serves editions, the namespace index, /doc and the API index with the prefix', async () => {
      for (const prefix of ['/cal', '']) {
        const de = await t.http().get(`${prefix}/de${API}/categories?hide_empty=0`);
        expect(de.status).toBe(200);
        expect(de.body.rest_url).toBe(`${CAL_URL}/de${API}/categories/?page=1&per_page=6&hide_empty=0`);
        expectCommonHeaders(de, `${CAL_URL}/de${ROOT}`);

        const ns = await t.http().get(`${prefix}${API}`);
        expect(ns.status).toBe(200);
        expect(ns.body._links).toEqual({ up: [{ href: `${CAL_URL}${ROOT}/` }] });
        expect(ns.body.routes[`/${NS}/categories`]._links).toEqual({ self: [{ href: `${CAL_URL}${API}/categories` }] });

        const doc = await t.http().get(`${prefix}${API}/doc`);
        expect(doc.status).toBe(200);
        expect(doc.body.servers).toEqual([{ url: `${CAL_URL}${API}` }]);

        const index = await t.http().get(`${prefix}${ROOT}/`);
        expect(index.status).toBe(200);
        expect(index.body).toMatchObject({
          name: 'Harbour Events',
          description: 'Things to do',
          url: CAL_URL,
          home: CAL_URL,
          gmt_offset: 5.5,
          timezone_string: 'Asia/Kolkata',
          namespaces: [NS, 'tec/v1'],
          _links: { help: [{ href: `${CAL_URL}${API}/doc` }] },
        });
      }
    });

    it('accepts query-style addressing with and without the prefix', async () => {
      for (const path of [
        `/cal/?rest_route=/${NS}/categories&hide_empty=0`,
        `/?rest_route=/${NS}/categories&hide_empty=0`,
        `/cal/index.php?rest_route=/${NS}/categories&hide_empty=0`,
      ]) {
        const res = await t.http().get(path);
        expect(res.status).toBe(200);
        expect(res.body.rest_url).toBe(`${CAL_URL}${API}/categories/?page=1&per_page=6&hide_empty=0`);
      }
    });

    it('redirects the public root, with and without its path, like the bare origin', async () => {
      for (const path of ['/cal', '/cal/', '/']) {
        const res = await t.http().get(path).set('Accept', 'application/json');
        expect({ path, status: res.status, location: res.headers.location }).toEqual({ path, status: 302, location: `${CAL_URL}${ROOT}/` });
      }
    });

    it('answers paths outside both forms with 404 rest_no_route', async () => {
      for (const path of [`/calx${API}/categories`, `/other${API}/categories`, `/cal/cal${API}/categories`, `/cal/en${API}/categories`]) {
        const res = await t.http().get(path);
        expectError(res, 404, 'rest_no_route');
        expectCommonHeaders(res, `${CAL_URL}${ROOT}`);
      }
    });
  });
});
