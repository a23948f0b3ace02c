import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

describe('rate limits', () => {
  describe('failed logins', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ LOGIN_FAILURE_LIMIT: '3', LOGIN_FAILURE_WINDOW_SECONDS: '60' });
    });
    afterAll(() => t.close());

    it('answers 429 with Retry-After after too many failures from one client, even for the right password', async () => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const res = await t
          .http()
          .get(`${API}/tags`)
          .set('Authorization', basic({ login: ADMIN.login, password: `wrong-${attempt}` }));
        expect(res.status).toBe(401);
      }
      const blocked = await t.http().get(`${API}/tags`).set('Authorization', basic(ADMIN));
      expect(blocked.status).toBe(429);
      expect(blocked.body).toMatchObject({ code: 'rest_too_many_requests', data: { status: 429 } });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      const anonymous = await t.http().get(`${API}/tags`);
      expect(anonymous.status).toBe(200);
    });
  });

  describe('requests', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
    });
    afterAll(() => t.close());

    it('limits requests per client when configured', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await t.http().get(`${API}/tags`)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    });
  });
});
