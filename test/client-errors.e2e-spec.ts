import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { API, startTestApp, type TestApp } from './support/test-app.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The connection ended with a reset instead of a close. */
  reset: boolean;
}

/**
 * Sends raw bytes on a fresh connection, all of them, and reads the answer until the server closes.
 * `halfClose`: the client also ends its side at once (as a client that sends and is done); a server
 * that waits for the database would then abort the request, so ordinary requests keep it open.
 */
function sendRaw(port: number, bytes: Buffer, halfClose = true): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let reset = false;
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
      else reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...headerLines] = (head ?? '').split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      let body: unknown = rest.join('\r\n\r\n');
      try {
        body = JSON.parse(body as string);
      } catch {
        // left as text: the assertions say what was expected
      }
      resolve({ status: Number(statusLine?.split(' ')[1] ?? 0), headers, body, reset });
    });
    if (halfClose) socket.end(bytes);
    else socket.write(bytes);
  });
}

/** Answers the HTTP parser gives before the application sees a request (issue: hardening, section 2). */
describe('requests refused below the framework', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp({ MAX_HEADER_BYTES: '16384', MAX_URL_BYTES: '8192' });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });

  afterAll(async () => {
    await t.close();
  });

  const expectContractError = (answer: RawAnswer, status: number, code: string) => {
    expect({ status: answer.status, reset: answer.reset }).toEqual({ status, reset: false });
    expect(answer.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).toMatchObject({ code, data: { status } });
    expect(typeof (answer.body as { message: unknown }).message).toBe('string');
  };

  it('answers 431 in the contract shape for a 20 KB header (the application) and a 100 KB one (the parser)', async () => {
    const huge = await sendRaw(port, Buffer.from(`GET ${API}/events HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`));
    expectContractError(huge, 431, 'rest_headers_too_large');
    const request = `GET ${API}/events HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    const answer = await sendRaw(port, Buffer.from(request));
    expectContractError(answer, 431, 'rest_headers_too_large');
    expect((answer.body as { message: string }).message).toBe('The request headers are larger than the allowed 16384 bytes.');
  });

  it('answers 414 for a query string of 10,000 ids and for one of 30,000, without a reset', async () => {
    for (const count of [10_000, 30_000]) {
      const include = Array.from({ length: count }, (_unused, index) => index + 1).join(',');
      const answer = await sendRaw(port, Buffer.from(`GET ${API}/events?include=${include} HTTP/1.1\r\nHost: x\r\n\r\n`));
      expectContractError(answer, 414, 'rest_uri_too_long');
    }
  });

  it('answers 414 through the application for a target over MAX_URL_BYTES that the parser took, in the edition language', async () => {
    const res = await t.http().get(`/de${API}/events?search=${'a'.repeat(9_000)}`);
    expect(res.status).toBe(414);
    expect(res.body).toEqual({
      code: 'rest_uri_too_long',
      message: 'Die Anfrage-URL ist länger als die erlaubten 8192 Bytes.',
      data: { status: 414 },
    });
    expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
  });

  it('answers 400 in the contract shape for raw bytes that are not HTTP, or not UTF-8 in the request line', async () => {
    for (const bytes of [
      Buffer.concat([
        Buffer.from(`GET ${API}/events?q=`),
        Buffer.from([0xff, 0xfe, 0x00, 0x01]),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
      ]),
      Buffer.from('NOT HTTP AT ALL\r\n\r\n'),
      Buffer.from(`GET ${API}/events HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n`),
    ]) {
      expectContractError(await sendRaw(port, bytes), 400, 'rest_bad_request');
    }
  });

  it('still serves ordinary requests on the same server', async () => {
    const answer = await sendRaw(port, Buffer.from(`GET ${API}/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), false);
    expect(answer.status).toBe(200);
    expect(answer.reset).toBe(false);
  });
});
