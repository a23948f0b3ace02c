import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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
