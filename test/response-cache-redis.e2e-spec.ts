import { Redis } from 'ioredis';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

const admin = basic(ADMIN);
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A prefix of this run's own, so runs sharing one Redis never meet. */
const PREFIX = `calendar-test-${process.pid}-${Date.now()}:`;

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const available = await redisAnswers();
if (!available) console.warn(`Skipping the shared response cache tests: no Redis answers at ${REDIS_URL} (set TEST_REDIS_URL).`);

/** Two app processes on one database with `REDIS_URL`: the second takes the answers the first built. */
(available ? describe : describe.skip)('response cache shared through Redis', () => {
  let first: TestApp;
  let second: TestApp;
  const settings = { REDIS_URL, REDIS_KEY_PREFIX: PREFIX };

  beforeAll(async () => {
    first = await startTestApp(settings);
    second = await startTestApp(settings, { sharing: first });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('answers from the build of the other process, and never an answer older than the last write', async () => {
    const created = await first.http().post(`${API}/events`).set('Authorization', admin).send({
      title: 'Shared 0',
      start_date: 'tomorrow 10am',
      end_date: 'tomorrow 11am',
    });
    expect(created.status).toBe(201);
    const path = `${API}/events/${created.body.id}`;
    for (let round = 1; round <= 3; round++) {
      const built = await first.http().get(path);
      expect({ round, cache: built.headers['x-cache'], title: built.body.title }).toEqual({
        round,
        cache: 'MISS',
        title: `Shared ${round - 1}`,
      });
      // a short pause lets the store to Redis land before the other process asks
      await new Promise((resolve) => setTimeout(resolve, 50));
      const taken = await second.http().get(path);
      expect({ round, cache: taken.headers['x-cache'], etag: taken.headers.etag }).toEqual({
        round,
        cache: 'HIT',
        etag: built.headers.etag,
      });
      expect(taken.text).toBe(built.text);
      const renamed = await second
        .http()
        .post(path)
        .set('Authorization', admin)
        .send({ title: `Shared ${round}` });
      expect(renamed.status).toBe(200);
    }
    for (const app of [second, first]) expect((await app.http().get(path)).body.title).toBe('Shared 3');
  });

  it('keeps answering when Redis is away: every lookup is a miss', async () => {
    const lonely = await startTestApp({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_KEY_PREFIX: PREFIX }, { sharing: first });
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const list = await lonely.http().get(`${API}/events`);
        expect(list.status).toBe(200);
        expect(list.body.events.map((event: { title: string }) => event.title)).toContain('Shared 3');
      }
    } finally {
      await lonely.close();
    }
  });
});
