import mysql from 'mysql2/promise';
import { API, startTestApp, type TestApp } from './support/test-app.js';
import { TcpProxy } from './support/tcp-proxy.js';

const databaseUrl = process.env.DATABASE_URL?.trim();
const describeOnMysql = databaseUrl ? describe : describe.skip;
if (!databaseUrl) console.warn('Database fault tests run only against MySQL/MariaDB (DATABASE_URL); the SQLite run skips them.');

describeOnMysql('database faults (MySQL/MariaDB through a TCP proxy)', () => {
  let t: TestApp;
  let proxy: TcpProxy;

  beforeAll(async () => {
    const url = new URL(databaseUrl as string);
    // Create the schema directly, then let the app reach the same database through the proxy.
    const connection = await mysql.createConnection(databaseUrl as string);
    await connection.end();
    proxy = new TcpProxy(url.hostname, Number(url.port || 3306));
    await proxy.start();
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    t = await startTestApp({ DATABASE_URL: url.toString(), DB_CONNECT_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await proxy.restore();
    await t.close();
    await proxy.cut();
  });

  it('answers 503 db_unavailable fast while the database is cut, and recovers by itself', async () => {
    expect((await t.http().get(`${API}/categories`)).status).toBe(200);
    expect((await t.http().get('/health/ready')).status).toBe(200);

    await proxy.cut();
    const started = Date.now();
    const down = await t.http().get(`${API}/events`);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      code: 'db_unavailable',
      message: 'The service is temporarily unavailable; try again shortly.',
      data: { status: 503 },
    });
    expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
    const write = await t.http().post(`${API}/tags`).auth('admin', 'admin-password-1').send({ name: 'During the outage' });
    expect(write.status).toBe(503);
    const ready = await t.http().get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.error.database.status).toBe('down');
    expect((await t.http().get('/health')).status).toBe(200);

    await proxy.restore();
    let recovered = 0;
    for (let attempt = 0; attempt < 20 && recovered !== 200; attempt++) {
      recovered = (await t.http().get(`${API}/events`)).status;
      if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(recovered).toBe(200);
    expect((await t.http().get('/health/ready')).status).toBe(200);
    const tags = await t.http().get(`${API}/tags?hide_empty=0&search=outage`);
    expect(tags.body.total).toBe(0);
  });
});
