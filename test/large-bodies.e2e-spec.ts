import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

const NINE_MB = 9 * 1024 * 1024;

/**
 * A body far above `MAX_BODY_BYTES` (1 MiB by default) sent by a plain HTTP client: it gets the 413
 * and its JSON error, not a connection closed while it was still sending (EPIPE, ECONNRESET).
 */
describe('a 9 MB body on a create', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp();
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(() => t.close());

  const send = (chunked: boolean) => {
    const body = Buffer.from(JSON.stringify({ title: 'Huge', description: 'x'.repeat(NINE_MB) }));
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `${API}/events`,
          agent: false,
          headers: {
            'Content-Type': 'application/json',
            Authorization: basic(ADMIN),
            ...(chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(body.length) }),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      // in pieces, as a client streaming a file would
      for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
      req.end();
    });
  };

  it.each([
    ['with Content-Length', false],
    ['chunked', true],
  ])('is answered 413 with the JSON error, which the client reads (%s)', async (_, chunked) => {
    const answer = await send(chunked);
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413 } });
    const none = await t.http().get(`${API}/events?search=Huge`).set('Authorization', basic(ADMIN));
    expect(none.body.total).toBe(0);
  });
});
