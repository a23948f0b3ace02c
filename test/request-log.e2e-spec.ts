import { PinoLogger } from 'nestjs-pino';
import { pino } from 'pino';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

// A file of its own: nestjs-pino builds its root logger once per process, with the settings of the
// first app started, so this app must be the first (and only) one of its test file.
describe('request log and request ids', () => {
  let t: TestApp;
  const written: string[] = [];
  let restore: () => void = () => undefined;

  beforeAll(async () => {
    t = await startTestApp({ LOG_LEVEL: 'info', LOG_REQUESTS: 'true', LOG_FORMAT: 'json' });
    const root = (await t.app.resolve(PinoLogger)).logger as unknown as Record<symbol, { write: (line: string) => boolean }>;
    const destination = root[pino.symbols.streamSym];
    const { write } = destination;
    destination.write = (line: string) => written.push(line) > 0;
    restore = () => (destination.write = write);
  });
  afterAll(async () => {
    restore();
    await t.close();
  });

  /** The request lines written for requests with this user agent, once the answer's line is out. */
  async function linesOf(agent: string, count: number): Promise<Array<Record<string, unknown>>> {
    const lines = () =>
      written
        .join('')
        .split('\n')
        .filter((line) => line.includes(agent))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    // the line is written when the answer is finished, which the client may see first
    for (let waited = 0; waited < 3000 && lines().length < count; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    return lines();
  }

  it('echoes a usable X-Request-Id, makes one otherwise, and names it in the one short line of each request', async () => {
    const given = await t.http().get(`${API}/categories`).set('X-Request-Id', 'edge-42.a').set('User-Agent', 'log-test-given');
    expect(given.headers['x-request-id']).toBe('edge-42.a');
    const unusable = await t.http().get(`${API}/categories`).set('X-Request-Id', 'has space"').set('User-Agent', 'log-test-made');
    expect(unusable.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const [line] = await linesOf('log-test-given', 1);
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      reqId: 'edge-42.a',
      method: 'GET',
      url: `${API}/categories`,
      status: 200,
      bytes: Number(given.headers['content-length']),
      ms: expect.any(Number),
      userId: null,
      userAgent: 'log-test-given',
      msg: 'request completed',
    });
    expect((await linesOf('log-test-made', 1))[0].reqId).toBe(unusable.headers['x-request-id']);
  });

  it('names the user of an authenticated request and writes errors of the client as completed requests', async () => {
    const res = await t.http().get(`${API}/events/999999`).set('Authorization', basic(ADMIN)).set('User-Agent', 'log-test-admin');
    expect(res.status).toBe(404);
    const [line] = await linesOf('log-test-admin', 1);
    expect(line).toMatchObject({ status: 404, userId: 1, msg: 'request completed' });
    expect(JSON.stringify(line)).not.toContain('Basic ');
  });
});
