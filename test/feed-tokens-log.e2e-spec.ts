import { PinoLogger } from 'nestjs-pino';
import { pino } from 'pino';
import type { Response } from 'supertest';
import { FeedTokensService } from '../src/users/feed-tokens.service.js';
import { API, startTestApp, type TestApp } from './support/test-app.js';

// A file of its own: nestjs-pino builds its pino-http logger once per process, with the settings of
// the first app started, so this app must be the first (and only) one of its test file.
describe('feed tokens in the request log', () => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('logs the request line with the token parameter but not its value', async () => {
    t = await startTestApp({ LOG_LEVEL: 'info', LOG_REQUESTS: 'true', LOG_FORMAT: 'json' });
    const { token } = await t.app.get(FeedTokensService).create('admin');
    // pino's destination, wrapped for the one request (as in node-support.e2e-spec.ts)
    const root = (await t.app.resolve(PinoLogger)).logger as unknown as Record<symbol, { write: (line: string) => boolean }>;
    const destination = root[pino.symbols.streamSym];
    const written: string[] = [];
    const { write } = destination;
    destination.write = (line: string) => written.push(line) > 0;
    let res: Response;
    try {
      res = await t.http().get(`${API}/events.ics?token=${token}&search=x`).set('User-Agent', 'feed-token-log-test');
      // the line is written when the answer is finished, which a busy machine may report later
      for (let waited = 0; waited < 3000 && !written.join('').includes('feed-token-log-test'); waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      destination.write = write;
    }
    expect(res.status).toBe(200);
    const logged = written
      .join('')
      .split('\n')
      .filter((line) => line.includes('feed-token-log-test'));
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0])).toMatchObject({
      msg: 'request completed',
      method: 'GET',
      url: `${API}/events.ics?token=[REDACTED]&search=x`,
      status: 200,
    });
    expect(logged[0]).not.toContain(token.slice('calfeed_'.length));
  }, 60_000);
});
