import { fakeServer, faultyProxy, listen, type FakeServer } from './support/import-sources.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/** `POST /imports`, `GET /imports`, `GET /imports/<id>`: import jobs over HTTP for administrators, with the CLI's importer. */
describe('import jobs over HTTP', () => {
  let source: TestApp;
  let target: TestApp;
  let slowSource: FakeServer;
  const admin = basic(ADMIN);

  beforeAll(async () => {
    source = await startTestApp({ PUBLIC_URL: 'http://source.test' }, { database: 'source' });
    const origin = await listen(source);
    const write = (path: string, body: object) => source.http().post(`${API}${path}`).set('Authorization', admin).send(body);
    await write('/categories', { name: 'Music' });
    const venue = await write('/venues', { venue: 'Town Hall' });
    for (let n = 1; n <= 12; n++) {
      await write('/events', {
        title: `Show ${n}`,
        start_date: '2027-05-01 19:00',
        end_date: '2027-05-01 21:00',
        venue: venue.body.id,
        categories: ['Music'],
      });
    }
    // every answer of the source takes a while, so a job is still running when the next request comes
    slowSource = await faultyProxy(origin, () => null, 30);
    target = await startTestApp();
  }, 60_000);
  afterAll(async () => {
    await target.close();
    await slowSource.close();
    await source.close();
  });

  const poll = async (id: number) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const res = await target.http().get(`${API}/imports/${id}`).set('Authorization', admin);
      if (res.body.status !== 'running') return res;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the job did not end');
  };

  it('checks the body first, then that the requester is an administrator', async () => {
    const missing = await target.http().post(`${API}/imports`).send({});
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('rest_missing_callback_param');
    const anonymous = await target.http().post(`${API}/imports`).send({ from: slowSource.url });
    expect(anonymous.status).toBe(401);
    const editor = await target.user('editor');
    const refused = await target.http().post(`${API}/imports`).set('Authorization', basic(editor)).send({ from: slowSource.url });
    expect(refused.status).toBe(403);
    expect((await target.http().get(`${API}/imports`).set('Authorization', basic(editor))).status).toBe(403);
    const bad = await target.http().post(`${API}/imports`).set('Authorization', admin).send({ from: 'not a url', on_conflict: 'merge' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.params)).toEqual(['from', 'on_conflict']);
    const login = await target.http().post(`${API}/imports`).set('Authorization', admin).send({ from: slowSource.url, author: 'nobody' });
    expect(login.body.data.params).toEqual({ author: 'No user has this login.' });
  });

  it('answers 400 with the reason for a source that is not the reference API', async () => {
    const html = await fakeServer(() => ({
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: '<html><body>Shop</body></html>',
    }));
    try {
      const res = await target.http().post(`${API}/imports`).set('Authorization', admin).send({ from: html.url });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_import_source_unusable');
      expect(res.body.message).toMatch(
        /^The source cannot be imported from: http:\/\/127\.0\.0\.1:\d+\/wp-json\/ answered an HTML page instead of JSON/,
      );
      const german = await target.http().post(`/de${API}/imports`).set('Authorization', admin).send({ from: html.url });
      expect(german.body.message).toMatch(/^Aus der Quelle kann nicht importiert werden: /);
    } finally {
      await html.close();
    }
  });

  it('starts a job (202, Location), shows its progress, and imports with the same code as the CLI', async () => {
    const started = await target
      .http()
      .post(`${API}/imports`)
      .set('Authorization', admin)
      .send({ from: slowSource.url, user: ADMIN.login, password: ADMIN.password });
    expect(started.status).toBe(202);
    expect(started.headers.location).toBe(`http://calendar.test${API}/imports/${started.body.id}`);
    expect(started.body).toEqual(
      expect.objectContaining({
        id: expect.any(Number),
        source: `${slowSource.url}/wp-json/tribe/events/v1`,
        status: 'running',
        dry_run: false,
      }),
    );
    expect(JSON.stringify(started.body)).not.toContain(ADMIN.password);
    const again = await target.http().post(`${API}/imports`).set('Authorization', admin).send({ from: slowSource.url });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('rest_import_running');
    const done = await poll(started.body.id);
    expect(done.body).toEqual(
      expect.objectContaining({
        status: 'completed',
        phase: 'done',
        complete: true,
        reason: null,
        options: expect.objectContaining({ user: ADMIN.login, on_conflict: 'skip' }),
      }),
    );
    expect(done.body.counts.events.created).toBe(12);
    expect(done.body.progress.events).toEqual({ done: 12, total: 12 });
    const event = await target.http().get(`${API}/events?per_page=50&start_date=2027-01-01`);
    expect(event.body.total).toBe(12);
    const list = await target.http().get(`${API}/imports`).set('Authorization', admin);
    expect(list.body.imports[0].id).toBe(started.body.id);
    const unknown = await target.http().get(`${API}/imports/999999`).set('Authorization', admin);
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.params).toEqual({ id: 'No import job has this ID.' });
  });

  it('runs a dry run that writes nothing', async () => {
    await source
      .http()
      .post(`${API}/events`)
      .set('Authorization', admin)
      .send({ title: 'One more', start_date: '2027-05-02 19:00', end_date: '2027-05-02 20:00' });
    const started = await target
      .http()
      .post(`${API}/imports`)
      .set('Authorization', admin)
      .send({ from: slowSource.url, user: ADMIN.login, password: ADMIN.password, dry_run: true });
    expect(started.status).toBe(202);
    const done = await poll(started.body.id);
    expect(done.body).toEqual(expect.objectContaining({ status: 'completed', dry_run: true, complete: true }));
    expect(done.body.counts.events.created).toBe(1);
    expect((await target.http().get(`${API}/events?per_page=50&start_date=2027-01-01`)).body.total).toBe(12);
  });

  it('lists the routes in the namespace index and /doc', async () => {
    const index = await target.http().get(API);
    expect(index.body.routes[`/tribe/events/v1/imports`].methods).toEqual(['POST', 'GET']);
    expect(index.body.routes['/tribe/events/v1/imports/(?P<id>\\d+)'].methods).toEqual(['GET']);
    const doc = await target.http().get(`${API}/doc`);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/imports', '/imports/{id}']));
    expect(doc.body.paths['/imports'].post.summary).toBe('Start an import');
  });
});
