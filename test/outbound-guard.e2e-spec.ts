import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { fakeServer, importTec, type FakeServer } from './support/import-sources.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/** A TCP port that answers like a database would (not HTTP), and counts who connected. */
async function databaseLikePort(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.end('J\0\0\0\n11.4.2-MariaDB\0');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => sockets.length,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Every outbound fetch (import jobs, `import:tec`, webhook deliveries) with `OUTBOUND_ALLOW_PRIVATE` at its default. */
describe('outbound requests with the default setting', () => {
  let strict: TestApp;
  let internal: Awaited<ReturnType<typeof databaseLikePort>>;
  const admin = basic(ADMIN);

  beforeAll(async () => {
    strict = await startTestApp({ OUTBOUND_ALLOW_PRIVATE: 'false' });
    internal = await databaseLikePort();
  });
  afterAll(async () => {
    await strict.close();
    await internal.close();
  });

  const startImport = (app: TestApp, from: string) => app.http().post(`${API}/imports`).set('Authorization', admin).send({ from });

  it('refuses an import from loopback and private addresses before connecting, naming nothing of what is there', async () => {
    const port = new URL(internal.url).port;
    for (const from of [
      internal.url,
      `http://localhost:${port}`,
      `http://[::1]:${port}`,
      `http://[::ffff:127.0.0.1]:${port}`,
      'http://10.0.0.1',
    ]) {
      const res = await startImport(strict, from);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_import_source_unusable');
      expect(res.body.message).toMatch(/the address is not allowed: it is not public/);
      expect(res.body.message).not.toMatch(/HPE_|ECONN|MariaDB|INVALID|\(gave up/);
    }
    expect(internal.connections()).toBe(0);
  });

  it('refuses it on the command line too, at once', async () => {
    const started = Date.now();
    const run = await importTec(strict, ['--from', internal.url, '--retry-base', '1000']);
    expect(run.code).toBe(1);
    expect(run.error).toMatch(/^cannot read http:\/\/127\.0\.0\.1:\d+\/wp-json\/: the address is not allowed/);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(internal.connections()).toBe(0);
  });

  it('says that a source could not be reached, not what answered, where the operator allows the address', async () => {
    const open = await startTestApp({ OUTBOUND_ALLOW_PRIVATE: `127.0.0.1:${new URL(internal.url).port}` }, { sharing: strict });
    try {
      const run = await importTec(open, ['--from', internal.url, '--retries', '1', '--retry-base', '10']);
      expect(run.error).toMatch(
        /^cannot reach http:\/\/127\.0\.0\.1:\d+\/wp-json\/: the server could not be reached \(gave up after 2 attempts\)$/,
      );
      expect(internal.connections()).toBe(2);
    } finally {
      await open.close();
    }
  });

  it('checks every redirect: an allowed source that redirects to another loopback port is refused', async () => {
    const landing = await databaseLikePort();
    let redirector: FakeServer | undefined;
    try {
      redirector = await fakeServer((req) => ({ status: 302, headers: { location: `${landing.url}${req.url ?? '/'}` }, body: '' }));
      const allowed = await startTestApp({ OUTBOUND_ALLOW_PRIVATE: `127.0.0.1:${new URL(redirector.url).port}` }, { sharing: strict });
      try {
        const res = await startImport(allowed, redirector.url);
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/the address is not allowed/);
        expect(redirector.requests.length).toBeGreaterThan(0);
        expect(landing.connections()).toBe(0);
      } finally {
        await allowed.close();
      }
    } finally {
      await redirector?.close();
      await landing.close();
    }
  });

  it('refuses a webhook to loopback when it is saved', async () => {
    const before = internal.connections();
    for (const url of [`${internal.url}/hook`, `http://localhost:${new URL(internal.url).port}/hook`]) {
      const res = await strict
        .http()
        .post(`${API}/webhooks`)
        .set('Authorization', admin)
        .send({ url, events: ['*'] });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.data.params)).toEqual(['url']);
    }
    expect(internal.connections()).toBe(before);
  });
});
