import { API, ADMIN, startTestApp, type TestApp } from './support/test-app.js';

type Schema = { properties?: Record<string, { example?: unknown }>; required?: string[] };
type Document = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>> };

const CREATE_PATHS = ['/events', '/venues', '/organizers', '/categories', '/tags'];

/**
 * The request examples of the docs page are data a client can send unchanged: Swagger UI's
 * "Try it out" body is built from the `example` of every property of the request body.
 */
describe('the request examples of /doc', () => {
  let t: TestApp;
  let document: Document;
  const admin = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;

  beforeAll(async () => {
    t = await startTestApp();
    document = (await t.http().get(`${API}/doc`)).body as Document;
  });
  afterAll(() => t.close());

  const exampleBody = (path: string, method: string): Record<string, unknown> => {
    const schema = document.paths[path][method].requestBody?.content['application/json'].schema ?? {};
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, property.example]));
  };

  it.each(CREATE_PATHS)('gives every field of POST %s an example', (path) => {
    const body = exampleBody(path, 'post');
    expect(Object.keys(body).length).toBeGreaterThan(0);
    expect(Object.entries(body).filter(([, example]) => example === undefined || example === 'string')).toEqual([]);
  });

  it.each(CREATE_PATHS)('creates with the example body of POST %s sent unchanged', async (path) => {
    const res = await t.http().post(`${API}${path}`).set('Authorization', admin).send(exampleBody(path, 'post'));
    expect({ status: res.status, body: res.status === 201 ? 'created' : res.body }).toEqual({ status: 201, body: 'created' });
  });

  it('updates an event with the example body of POST /events/{id} sent unchanged', async () => {
    const res = await t.http().post(`${API}/events/1`).set('Authorization', admin).send(exampleBody('/events/{id}', 'post'));
    expect({ status: res.status, body: res.status === 200 ? 'updated' : res.body }).toEqual({ status: 200, body: 'updated' });
  });

  it('describes venue and organizer as an ID or a new record, and terms as IDs, slugs or names', () => {
    const properties = document.paths['/events'].post.requestBody?.content['application/json'].schema.properties ?? {};
    expect(properties.venue).toMatchObject({ oneOf: [{ type: 'integer' }, { type: 'object', required: ['venue'] }] });
    expect(properties.organizer).toMatchObject({
      type: 'array',
      items: { oneOf: [{ type: 'integer' }, { type: 'object', required: ['organizer'] }] },
    });
    expect(properties.categories).toMatchObject({ type: 'array', items: { oneOf: [{ type: 'integer' }, { type: 'string' }] } });
  });
});
