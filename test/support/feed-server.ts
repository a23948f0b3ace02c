import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ADMIN, API, basic, type TestApp } from './test-app.js';

/** A feed server on loopback, as a partner's calendar would be served: ETag, 304, feeds changed between runs. */
export interface FeedServer {
  /** `http://127.0.0.1:<port><path>`. */
  url: (path: string) => string;
  /** Serves `text` at `path` from now on (`null`: 404). */
  serve: (path: string, text: string | null) => void;
  /** Answers `path` with a 302 to `location`. */
  redirect: (path: string, location: string) => void;
  /** Requests received, with their headers and the status answered. */
  requests: Array<{ path: string; headers: IncomingHttpHeaders; status: number }>;
  close: () => Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const feeds = new Map<string, string>();
  const redirects = new Map<string, string>();
  const requests: FeedServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const text = feeds.get(path);
    const answer = (status: number, body?: string, headers: Record<string, string> = {}) => {
      requests.push({ path, headers: req.headers, status });
      res.writeHead(status, headers).end(body);
    };
    const location = redirects.get(path);
    if (location) return answer(302, '', { location });
    if (text === undefined) return answer(404, 'not found');
    const etag = `"${createHash('sha256').update(text).digest('hex').slice(0, 20)}"`;
    if (req.headers['if-none-match'] === etag) return answer(304);
    answer(200, text, { 'content-type': 'text/calendar; charset=utf-8', etag });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    serve: (path, text) => {
      if (text === null) feeds.delete(path);
      else feeds.set(path, text);
    },
    redirect: (path, location) => redirects.set(path, location),
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An iCalendar file of these VEVENT lines (and other components), CRLF line ends. */
export function calendar(...components: string[][]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Feeds//EN', ...components.flat(), 'END:VCALENDAR', ''].join('\r\n');
}

export function vevent(...lines: string[]): string[] {
  return ['BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'];
}

const admin = () => ({ Authorization: basic(ADMIN) });

/** Creates a paused source (runs only when asked) and returns its id. */
export async function addSource(t: TestApp, body: Record<string, unknown>): Promise<number> {
  const res = await t
    .http()
    .post(`${API}/sources`)
    .set(admin())
    .send({ paused: true, ...body });
  if (res.status !== 201) throw new Error(`source not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

/** Runs a source now and waits for the run to finish; returns the run as `GET /sources/<id>/runs` shows it. */
export async function runSource(t: TestApp, id: number): Promise<Record<string, any>> {
  const http = (): ReturnType<typeof request> => t.http();
  let started: request.Response | undefined;
  for (let attempt = 0; attempt < 100; attempt++) {
    started = await http().post(`${API}/sources/${id}/run`).set(admin());
    if (started.status !== 409) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (started?.status !== 202) throw new Error(`run not started: ${started?.status} ${JSON.stringify(started?.body)}`);
  const runId = started.body.id as number;
  for (let waited = 0; waited < 60_000; waited += 50) {
    const runs = await http().get(`${API}/sources/${id}/runs?per_page=50`).set(admin());
    const run = (runs.body.runs as Array<Record<string, any>>).find((one) => one.id === runId);
    if (run && run.status !== 'running') return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${runId} did not finish`);
}
