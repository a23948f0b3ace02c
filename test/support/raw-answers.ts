import { request as httpRequest } from 'node:http';

/** An answer as it came over the wire, for comparing two answers header for header. */
export interface RawAnswer {
  status: number;
  /** Header lines as sent (name spelling kept), sorted, without the ones that name the moment or the cache state. */
  headers: string[];
  xCache: string | undefined;
  body: Buffer;
}

/** Headers that differ between two answers of the same content by nature: the clock and the cache's report. */
const PER_ANSWER = new Set(['date', 'x-cache']);

/** A `GET` with exactly the given headers (no client adds any of its own but `Host`). */
export function rawGet(port: number, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return rawRequest(port, 'GET', path, headers);
}

/** A request with exactly the given headers (and `Content-Length` when there is a body). */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: sent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (!PER_ANSWER.has(res.rawHeaders[i].toLowerCase())) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: lines.sort(),
          xCache: res.headers['x-cache'] as string,
          body: Buffer.concat(chunks),
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** How many more calls `spy` saw while `work` ran. */
export async function callsDuring(spy: { mock: { calls: unknown[] } }, work: () => Promise<unknown>): Promise<number> {
  const before = spy.mock.calls.length;
  await work();
  return spy.mock.calls.length - before;
}
