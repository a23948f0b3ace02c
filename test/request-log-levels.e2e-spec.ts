import { PinoLogger } from 'nestjs-pino';
import { pino } from 'pino';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

// A file of its own: nestjs-pino builds its pino-http logger once per process, with the settings of
// the first app started, so this app must be the first (and only) one of its test file.
describe('request lines at a level that writes none', () => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('writes no request line at LOG_LEVEL=warn, through the framework or before it, and answers as ever', async () => {
    t = await startTestApp({ LOG_LEVEL: 'warn', LOG_REQUESTS: 'true', LOG_FORMAT: 'json' });
    const created = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', basic(ADMIN))
      .send({ title: 'Quiet', start_date: 'tomorrow 8pm', end_date: 'tomorrow 10pm' });
    expect(created.status).toBe(201);
    const root = (await t.app.resolve(PinoLogger)).logger as unknown as Record<symbol, { write: (line: string) => boolean }>;
    const destination = root[pino.symbols.streamSym];
    const written: string[] = [];
    const { write } = destination;
    destination.write = (line: string) => written.push(line) > 0;
    try {
      const answers = [
        await t.http().get(`${API}/events/${created.body.id}`).set('User-Agent', 'quiet-log-test'),
        // the second read of the same shape is answered before the framework
        await t.http().get(`${API}/events/${created.body.id}`).set('User-Agent', 'quiet-log-test'),
        await t.http().get(`${API}/events/999999`).set('User-Agent', 'quiet-log-test'),
        await t.http().get(`${API}/events?per_page=1`).set('User-Agent', 'quiet-log-test'),
      ];
      expect(answers.map((res) => res.status)).toEqual([200, 200, 404, 200]);
      expect(answers[1].body.title).toBe('Quiet');
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      destination.write = write;
    }
    expect(written.filter((line) => line.includes('quiet-log-test'))).toEqual([]);
  }, 60_000);
});
