import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildProgram } from '../../src/cli/commands.js';
import { ImportFailed } from '../../src/cli/import-command.js';
import { TecImporter } from '../../src/importer/tec-importer.js';
import { LoginLocks } from '../../src/limits/login-locks.js';
import { FeedTokensService } from '../../src/users/feed-tokens.service.js';
import { UsersService } from '../../src/users/users.service.js';
import type { TestApp } from './test-app.js';

/** Makes an app listen on a free port of 127.0.0.1 (the importer reads it over real HTTP); returns its origin. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export interface CliRun {
  /** 0 or 1, as `npm run cli` would exit. */
  code: number;
  lines: string[];
  /** The one line printed on standard error when the code is 1. */
  error: string | null;
}

/** created, updated, unchanged, kept, trashed, skipped of one resource in an import summary. */
export function summaryRow(lines: string[], name: string): number[] | undefined {
  return lines
    .find((line) => new RegExp(`^${name} +\\d+ +\\d+`).test(line))
    ?.trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
}

/** Runs `import:tec <args>` against the target app, as the command-line tool does. */
export async function importTec(target: TestApp, args: string[], stopRequested?: () => boolean): Promise<CliRun> {
  const lines: string[] = [];
  try {
    await buildProgram(
      {
        users: async () => target.app.get(UsersService),
        loginLocks: async () => target.app.get(LoginLocks),
        feedTokens: async () => target.app.get(FeedTokensService),
        importer: async () => target.app.get(TecImporter),
      },
      { out: (line) => lines.push(line), stopRequested },
    ).parseAsync(['node', 'cli', 'import:tec', ...args]);
    return { code: 0, lines, error: null };
  } catch (error) {
    if (error instanceof ImportFailed || error instanceof Error) return { code: 1, lines, error: error.message.split('\n')[0] };
    throw error;
  }
}

export interface SeenRequest {
  method: string;
  url: string;
  auth: boolean;
  status: number;
}

export interface FakeServer {
  url: string;
  requests: SeenRequest[];
  close: () => Promise<void>;
}

/** A plain HTTP server for fakes; `handle` answers (status, headers, body). */
export async function fakeServer(
  handle: (
    req: IncomingMessage,
  ) =>
    | Promise<{ status: number; headers?: Record<string, string>; body: string } | 'hang'>
    | { status: number; headers?: Record<string, string>; body: string }
    | 'hang',
): Promise<FakeServer> {
  const requests: SeenRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const answer = await handle(req);
      const seen = { method: req.method ?? 'GET', url: req.url ?? '/', auth: req.headers.authorization !== undefined, status: 0 };
      requests.push(seen);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      seen.status = answer.status;
      res.writeHead(answer.status, answer.headers ?? { 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(answer.body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A proxy in front of a source app: `fault` may answer instead of the source (429, 500, a hang)
 * for some requests; every request is logged with the status the importer got.
 */
export async function faultyProxy(
  upstream: string,
  fault: (req: IncomingMessage, count: number) => { status: number; headers?: Record<string, string>; body?: string } | 'hang' | null,
  delayMs = 0,
): Promise<FakeServer> {
  let count = 0;
  const target = new URL(upstream);
  return fakeServer(async (req) => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const injected = fault(req, ++count);
    if (injected === 'hang') return 'hang';
    if (injected)
      return {
        status: injected.status,
        headers: injected.headers,
        body: injected.body ?? '{"code":"injected","message":"Injected fault."}',
      };
    return new Promise((resolve, reject) => {
      const forwarded = httpRequest(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined && !['transfer-encoding', 'connection', 'content-length'].includes(name))
                headers[name] = Array.isArray(value) ? value.join(', ') : value;
            }
            resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(chunks).toString('utf8') });
          });
        },
      );
      forwarded.on('error', reject);
      forwarded.end();
    });
  });
}

export const FIXTURES = '/work/shared/fixtures/tec-samples';

interface FixtureEntry {
  name: string;
  method: string;
  url_path_and_query: string;
  auth: 'anon' | 'admin';
  status: number;
}

/** The request as the fixtures key it: path without trailing slash, parameters sorted, the event window left out. */
function fixtureKey(method: string, pathAndQuery: string, auth: string, dropStatus = false): string {
  const url = new URL(pathAndQuery, 'http://fixture');
  const path = decodeURIComponent(url.pathname).replace(/\/+$/, '').toLowerCase();
  const params = [...url.searchParams]
    // the recordings ask for 2000-01-01 … 2100-01-01; every recorded event lies in 2024-2029
    .filter(([name]) => name !== 'start_date' && name !== 'end_date' && !(dropStatus && name === 'status'))
    .map(([name, value]) => [name, name === 'status' ? value.split(',').sort().join(',') : value])
    .sort(([a], [b]) => a.localeCompare(b));
  return `${method} ${path}?${params.map(([name, value]) => `${name}=${value}`).join('&')} ${auth}`;
}

/** The status line and headers of a recording, as the reference sent them. */
function recordedHeaders(name: string): { status: number; headers: Record<string, string> } {
  const lines = readFileSync(join(FIXTURES, `${name}.headers`), 'utf8').split('\r\n');
  const status = Number(/^HTTP\/[\d.]+ (\d+)/.exec(lines[0])?.[1] ?? 200);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (['transfer-encoding', 'connection', 'content-length', 'date', 'server'].includes(name)) continue;
    headers[name] = line.slice(colon + 1).trim();
  }
  return { status, headers };
}

/**
 * A fake site of the reference plugin that answers the recorded requests of
 * `/work/shared/fixtures/tec-samples/` with the recorded bodies and headers (byte for byte) and
 * `404 rest_no_route` otherwise, whatever the password (the recordings hold none). Two helps
 * beyond the recordings, stated here: the venue and organizer lists were recorded without a
 * `status` filter (the reference's admin default there already shows every status but the trash),
 * and `wp/v2` answers that WordPress core gives and the recordings lack are built from the
 * recorded data (`tribe_events` ids, the protected event's password `peer-secret` from
 * seed-requests.json, the admin user) when `withWpV2` is set.
 */
export async function fixtureSource(options: { withWpV2?: boolean } = {}): Promise<FakeServer> {
  const index = JSON.parse(readFileSync(join(FIXTURES, 'index.json'), 'utf8')) as FixtureEntry[];
  const byKey = new Map<string, FixtureEntry>();
  for (const entry of index) byKey.set(fixtureKey(entry.method, entry.url_path_and_query, entry.auth), entry);
  const eventIds = index
    .filter((entry) => /^event-\d+-admin$/.test(entry.name) && entry.status !== 400 && entry.name !== 'event-50-admin')
    .map((entry) => Number(/^event-(\d+)/.exec(entry.name)?.[1]));
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8', ...headers },
    body: JSON.stringify(body),
  });
  return fakeServer((req) => {
    const auth = req.headers.authorization ? 'admin' : 'anon';
    const url = req.url ?? '/';
    const path = new URL(url, 'http://fixture').pathname.replace(/\/+$/, '');
    if (options.withWpV2 && path === '/wp-json/wp/v2/tribe_events')
      return json(
        200,
        eventIds.map((id) => ({ id })),
        { 'x-wp-total': String(eventIds.length), 'x-wp-totalpages': '1' },
      );
    if (options.withWpV2 && path === '/wp-json/wp/v2/tribe_events/49' && auth === 'admin')
      return json(200, { id: 49, password: 'peer-secret' });
    if (options.withWpV2 && path === '/wp-json/wp/v2/users')
      return json(200, [{ id: 1, username: 'admin', slug: 'admin' }], { 'x-wp-totalpages': '1' });
    const method = req.method ?? 'GET';
    const listWithStatus = /\/(venues|organizers)\?/.test(url) && /status=(publish|future|draft|pending|private)(%2C|,)/.test(url);
    const entry =
      byKey.get(fixtureKey(method, url, auth)) ??
      (auth === 'admin' && listWithStatus ? byKey.get(fixtureKey(method, url, auth, true)) : undefined) ??
      // public routes answer credentials as they answer a visitor (the index, the namespace)
      (auth === 'admin' && !/\/(events|venues|organizers|categories|tags)/.test(path)
        ? byKey.get(fixtureKey(method, url, 'anon'))
        : undefined);
    if (!entry)
      return json(404, {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    const { status, headers } = recordedHeaders(entry.name);
    return { status, headers, body: readFileSync(join(FIXTURES, `${entry.name}.json`), 'utf8') };
  });
}
