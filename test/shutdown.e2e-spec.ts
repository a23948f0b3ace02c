import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gracefulShutdown } from '../src/lifecycle.js';
import { API, startTestApp, type TestApp } from './support/test-app.js';

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('graceful shutdown', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(() => t.close().catch(() => undefined));

  it('finishes every request in flight, refuses new connections, then exits 0', async () => {
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const server = t.app.getHttpServer();
    let accepted = 0;
    server.on('request', () => accepted++);
    const inFlight = Array.from({ length: 40 }, () => get(port, `${API}/events?per_page=50`));
    while (accepted < 40) await new Promise((resolve) => setImmediate(resolve));

    const exits: number[] = [];
    const stopping = gracefulShutdown(t.app, 5000, (code) => exits.push(code))('SIGTERM');
    const statuses = await Promise.all(inFlight);
    await stopping;

    expect(statuses).toEqual(Array(40).fill(200));
    expect(exits).toEqual([0]);
    await expect(get(port, `${API}/events`)).rejects.toThrow(/ECONNREFUSED/);
  });
});
