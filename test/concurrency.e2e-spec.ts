import { DataSource } from 'typeorm';
import { freeSlug } from '../src/common/sql/free-slug.js';
import { LoginFailureEntity } from '../src/limits/login-failure.entity.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

describe('concurrent writes', () => {
  let t: TestApp;
  const admin = basic(ADMIN);

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('gives parallel creates with the same title unique slugs and no errors', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t
          .http()
          .post(`${API}/events`)
          .set('Authorization', admin)
          .send({ title: 'Same Night', start_date: 'tomorrow 8pm', end_date: 'tomorrow 10pm' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    const slugs = answers.map((answer) => answer.body.slug as string);
    expect(new Set(slugs).size).toBe(20);
    expect(slugs.sort()).toEqual(['same-night', ...Array.from({ length: 19 }, (_, index) => `same-night-${index + 2}`)].sort());
    const ids = answers.map((answer) => answer.body.id as number);
    expect(new Set(ids).size).toBe(20);
  });

  it('keeps 24 writers that create the same title again and again free of errors (sustained contention)', async () => {
    const statuses: number[] = [];
    const slugs: string[] = [];
    await Promise.all(
      Array.from({ length: 24 }, async (_, writer) => {
        for (let round = 0; round < 6; round++) {
          const res = await t
            .http()
            .post(`${API}/events`)
            .set('Authorization', admin)
            .send({ title: 'Busy Night', start_date: 'tomorrow 8pm', end_date: 'tomorrow 10pm', excerpt: `writer ${writer}` });
          statuses.push(res.status);
          slugs.push(res.body.slug);
        }
      }),
    );
    expect(statuses).toEqual(Array(144).fill(201));
    expect(new Set(slugs).size).toBe(144);
    const kept = await t
      .http()
      .post(`${API}/events/by-slug/busy-night`)
      .set('Authorization', admin)
      .send({ slug: 'busy-night', title: 'Busy Night, renamed' });
    expect(kept.status).toBe(200);
    expect(kept.body.slug).toBe('busy-night');
  });

  it('keeps parallel venue creates apart and leaves nothing half-written when one fails', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        t
          .http()
          .post(`${API}/venues`)
          .set('Authorization', admin)
          .send({ venue: `Hall ${index}`, slug: 'shared-hall' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((answer) => answer.body.slug)).size).toBe(10);

    const before = (await t.http().get(`${API}/events?status=any&per_page=50`).set('Authorization', admin)).body.total;
    const venuesBefore = (await t.http().get(`${API}/venues?status=any`).set('Authorization', admin)).body.total;
    const failing = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', admin)
      .send({ title: 'Half', start_date: 'tomorrow 8pm', end_date: 'tomorrow 9pm', venue: { venue: 'New Place' }, organizer: [987654] });
    expect(failing.status).toBe(400);
    expect((await t.http().get(`${API}/events?status=any&per_page=50`).set('Authorization', admin)).body.total).toBe(before);
    expect((await t.http().get(`${API}/venues?status=any`).set('Authorization', admin)).body.total).toBe(venuesBefore);
  });

  it('keeps a chosen slug from other writers until the transaction that chose it ends, savepoints included', async () => {
    const dataSource = t.app.get(DataSource);
    const choose = async (end: 'commit' | 'rollback') => {
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      try {
        const first = await freeSlug(runner.manager, 'events', 'held-night', null);
        // a second new item of the same transaction skips the first one's choice
        const second = await freeSlug(runner.manager, 'events', 'held-night', null);
        // outside any transaction nothing is reserved: there is nothing to protect until a commit
        const outside = await freeSlug(dataSource.manager, 'events', 'held-night', null);
        // the end of a savepoint is not the end of the transaction
        await runner.startTransaction();
        await runner.commitTransaction();
        const afterSavepoint = await freeSlug(runner.manager, 'events', 'held-night', null);
        if (end === 'commit') await runner.commitTransaction();
        else await runner.rollbackTransaction();
        return [first, second, outside, afterSavepoint];
      } finally {
        await runner.release();
      }
    };
    expect(await choose('rollback')).toEqual(['held-night', 'held-night-2', 'held-night', 'held-night-3']);
    // nothing was written, and the rollback ended the reservations
    expect(await choose('commit')).toEqual(['held-night', 'held-night-2', 'held-night', 'held-night-3']);
    expect(await choose('commit')).toEqual(['held-night', 'held-night-2', 'held-night', 'held-night-3']);
  });

  it('answers the ids the database gave rows inserted in one statement, while other writers insert too', async () => {
    const dataSource = t.app.get(DataSource);
    const batches = await Promise.all(
      Array.from({ length: 12 }, async (_, writer) => {
        const rows = Array.from({ length: 3 }, (_, index) => ({
          address: `numbered-${writer}-${index}`,
          loginKey: 'numbered',
          failedUtc: '2020-01-01 00:00:00',
        }));
        const { identifiers } = await dataSource.manager.insert(LoginFailureEntity, rows);
        return { rows, ids: identifiers.map((identifier) => Number(identifier.id)) };
      }),
    );
    const stored = new Map(
      (await dataSource.getRepository(LoginFailureEntity).findBy({ loginKey: 'numbered' })).map((row) => [row.id, row.address]),
    );
    expect(stored.size).toBe(36);
    for (const { rows, ids } of batches) expect(ids.map((id) => stored.get(id))).toEqual(rows.map((row) => row.address));
    await dataSource.getRepository(LoginFailureEntity).delete({ loginKey: 'numbered' });
  });
});
