import http from 'node:http';
import net from 'node:net';
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

  /**
   * Sends the whole request in one write and reads nothing until the write is done, as Python's
   * urllib or any blocking client does: an answer sent while it still writes waits in its receive
   * buffer, and a connection reset by the server throws it away (the client sees EPIPE, no status).
   */
  const sendThenRead = () => {
    const body = Buffer.from(JSON.stringify({ title: 'Huge', description: 'x'.repeat(NINE_MB) }));
    const head =
      `POST ${API}/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Authorization: ${basic(ADMIN)}\r\nContent-Length: ${body.length}\r\n\r\n`;
    return new Promise<{ text: string; error: string | null }>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      let error: string | null = null;
      socket.pause();
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', (problem: NodeJS.ErrnoException) => (error ??= problem.code ?? problem.message));
      socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), error }));
      socket.write(Buffer.concat([Buffer.from(head), body]), () => socket.resume());
    });
  };

  it('is answered 413 to a client that reads only once it has sent everything', async () => {
    const { text, error } = await sendThenRead();
    expect(error).toBeNull();
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413 } });
  });

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
