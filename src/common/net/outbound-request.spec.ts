import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import type { OutboundConfig } from '../../config/app-config.js';
import { outboundRequest, type OutboundRequest } from './outbound-request.js';
import { OutboundError } from './outbound-target.js';

const GET: OutboundRequest = { method: 'GET', headers: {}, timeoutMs: 2000, maxBytes: 1024, overflow: 'fail', maxRedirects: 3 };
const ALL: OutboundConfig = { allowAll: true, allow: [] };
const STRICT: OutboundConfig = { allowAll: false, allow: [] };
const onlyPort = (port: number): OutboundConfig => ({ allowAll: false, allow: [{ network: '127.0.0.1', prefix: 32, family: 4, port }] });

interface Fake {
  port: number;
  seen: IncomingMessage[];
  close: () => Promise<void>;
}

async function fake(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Fake> {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req);
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function refusal(work: Promise<unknown>): Promise<OutboundError> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe('outboundRequest', () => {
  const fakes: Fake[] = [];
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((one) => one.close()));
  });
  const start = async (handle: (req: IncomingMessage, res: ServerResponse) => void) => {
    const one = await fake(handle);
    fakes.push(one);
    return one;
  };

  it('refuses a non-public address before connecting unless the setting allows it', async () => {
    const server = await start((_req, res) => res.end('hello'));
    const url = `http://127.0.0.1:${server.port}/`;
    for (const target of [url, `http://localhost:${server.port}/`, `http://[::ffff:127.0.0.1]:${server.port}/`]) {
      const error = await refusal(outboundRequest(target, GET, STRICT));
      expect(error.problem).toBe('not_allowed');
      expect(error.message).toMatch(/^the address is not allowed/);
      expect(error.message).not.toMatch(/127\.0\.0\.1|localhost|::/);
    }
    expect(server.seen).toHaveLength(0);
    expect((await outboundRequest(url, GET, onlyPort(server.port))).body.toString()).toBe('hello');
    expect((await refusal(outboundRequest(url, GET, onlyPort(server.port + 1)))).problem).toBe('not_allowed');
  });

  it('checks every redirect again and drops credentials on the way to another origin', async () => {
    const inner = await start((req, res) => res.end(`inner ${req.headers.authorization ?? 'anonymous'}`));
    const outer = await start((req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${inner.port}${req.url}` });
      res.end();
    });
    const url = `http://127.0.0.1:${outer.port}/start`;
    const error = await refusal(outboundRequest(url, { ...GET, headers: { authorization: 'Basic x' } }, onlyPort(outer.port)));
    expect(error.problem).toBe('not_allowed');
    expect(outer.seen).toHaveLength(1);
    expect(inner.seen).toHaveLength(0);
    const followed = await outboundRequest(
      url,
      { ...GET, headers: { authorization: 'Basic x' }, credentialHeaders: ['authorization'] },
      ALL,
    );
    expect(followed).toMatchObject({ status: 200, url: `http://127.0.0.1:${inner.port}/start` });
    expect(followed.body.toString()).toBe('inner anonymous');
    expect((await outboundRequest(url, { ...GET, maxRedirects: 0 }, ALL)).status).toBe(302);
  });

  it('bounds the number of redirects', async () => {
    const loop = await start((req, res) => {
      res.writeHead(301, { location: req.url === '/a' ? '/b' : '/a' });
      res.end();
    });
    const error = await refusal(outboundRequest(`http://127.0.0.1:${loop.port}/a`, GET, ALL));
    expect(error).toMatchObject({ problem: 'redirects', message: 'more than 3 redirects' });
    expect(loop.seen).toHaveLength(4);
  });

  it('bounds the size of an answer: fails, or keeps its start', async () => {
    const big = await start((_req, res) => {
      res.write('x'.repeat(800));
      res.end('y'.repeat(800));
    });
    const url = `http://127.0.0.1:${big.port}/`;
    expect(await refusal(outboundRequest(url, GET, ALL))).toMatchObject({
      problem: 'too_large',
      message: 'the answer is larger than 1024 bytes',
    });
    const cut = await outboundRequest(url, { ...GET, overflow: 'truncate' }, ALL);
    expect(cut.truncated).toBe(true);
    expect(cut.body.length).toBe(1024);
  });

  it('bounds the time of the whole exchange', async () => {
    const silent = await start(() => undefined);
    const started = Date.now();
    const error = await refusal(outboundRequest(`http://127.0.0.1:${silent.port}/`, { ...GET, timeoutMs: 300 }, ALL));
    expect(error).toMatchObject({ problem: 'timeout', message: 'no answer within 1 s' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('says nothing of what answered when it is not HTTP', async () => {
    const sockets: Socket[] = [];
    const tcp: TcpServer = createTcpServer((socket) => {
      sockets.push(socket);
      socket.end('-ERR unknown command\r\n');
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    try {
      const error = await refusal(outboundRequest(`http://127.0.0.1:${(tcp.address() as AddressInfo).port}/`, GET, ALL));
      expect(error).toMatchObject({ problem: 'unreachable', message: 'the server could not be reached' });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => tcp.close(resolve));
    }
  });

  it('refuses what is not an http or https URL', async () => {
    expect((await refusal(outboundRequest('file:///etc/passwd', GET, ALL))).problem).toBe('url');
    expect((await refusal(outboundRequest('gopher://127.0.0.1/', GET, ALL))).problem).toBe('url');
  });
});
