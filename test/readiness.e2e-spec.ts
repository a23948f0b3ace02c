import { createFirstAdministrator } from '../src/app.setup.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/**
 * `/health/ready` is 503 until start-up is complete (the first administrator exists), so a load
 * balancer sends no write that the empty user table would answer 401; `/health` (liveness) is 200 all along.
 */
describe('readiness during start-up', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({}, { firstAdministrator: false });
  });

  afterAll(async () => {
    await t.close();
  });

  it('is 503 before the first administrator exists and 200 after, while liveness stays 200', async () => {
    const before = await t.http().get('/health/ready');
    expect(before.status).toBe(503);
    expect(before.body).toMatchObject({ status: 'error', error: { startup: { status: 'down' } }, info: { database: { status: 'up' } } });
    expect((await t.http().get('/health')).status).toBe(200);
    // what a load balancer would otherwise have let through
    expect((await t.http().get(`${API}/tags`).set('Authorization', basic(ADMIN))).status).toBe(401);

    await createFirstAdministrator(t.app, t.config);

    const after = await t.http().get('/health/ready');
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ status: 'ok', info: { startup: { status: 'up' }, database: { status: 'up' } } });
    expect((await t.http().get('/health')).status).toBe(200);
    expect((await t.http().post(`${API}/tags`).set('Authorization', basic(ADMIN)).send({ name: 'Ready' })).status).toBe(201);
  });

  it('stays ready when a later start finds the administrator already there', async () => {
    expect(await createFirstAdministrator(t.app, t.config)).toBeNull();
    expect((await t.http().get('/health/ready')).status).toBe(200);
  });
});
