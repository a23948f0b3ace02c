import { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { buildProgram } from '../src/cli/commands.js';
import { LoginLocks } from '../src/limits/login-locks.js';
import { FeedTokensService } from '../src/users/feed-tokens.service.js';
import { UsersService } from '../src/users/users.service.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

describe('storage, health and the command-line tool', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('applies the committed migrations, and they match the entities exactly', async () => {
    const dataSource = t.app.get<DataSource>(getDataSourceToken());
    expect(await dataSource.showMigrations()).toBe(false);
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('keeps events, venues, organizers and images in one id sequence and terms in another', async () => {
    const dataSource = t.app.get<DataSource>(getDataSourceToken());
    const ids: number[] = [];
    for (const kind of ['event', 'venue', 'organizer']) {
      const result = await dataSource.createQueryBuilder().insert().into('item_ids').values({ kind }).execute();
      ids.push(Number(result.identifiers[0]?.id ?? result.raw.insertId ?? result.raw));
    }
    expect(ids[1]).toBe(ids[0] + 1);
    expect(ids[2]).toBe(ids[1] + 1);
    const category = await t.http().post(`${API}/categories`).set('Authorization', basic(ADMIN)).send({ name: 'First' });
    const tag = await t.http().post(`${API}/tags`).set('Authorization', basic(ADMIN)).send({ name: 'Second' });
    expect(tag.body.id).toBe(category.body.id + 1);
  });

  it('reports liveness and readiness outside the API', async () => {
    const live = await t.http().get('/health');
    expect(live.status).toBe(200);
    expect(live.body.status).toBe('ok');
    const ready = await t.http().get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.info.database.status).toBe('up');
  });

  it('creates users and application passwords from the command line', async () => {
    const lines: string[] = [];
    const run = (...args: string[]) =>
      buildProgram(
        {
          users: async () => t.app.get(UsersService),
          loginLocks: async () => t.app.get(LoginLocks),
          feedTokens: async () => t.app.get(FeedTokensService),
        },
        { out: (line) => lines.push(line) },
      ).parseAsync(['node', 'cli', ...args]);

    await run('user:create', '--login', 'Maria', '--role', 'editor');
    const password = lines.at(-1) as string;
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
    const me = await t
      .http()
      .post(`${API}/tags`)
      .set('Authorization', basic({ login: 'maria', password }))
      .send({ name: 'By Maria' });
    expect(me.status).toBe(201);

    lines.length = 0;
    await run('user:list');
    expect(lines).toEqual([
      `1\t${ADMIN.login}\tadministrator\tapplication passwords: 1`,
      expect.stringMatching(/^\d+\tMaria\teditor\tapplication passwords: 1$/),
    ]);

    await run('app-password:create', '--login', 'maria', '--name', 'phone', '--password', 'phone-secret-1');
    expect(lines.at(-1)).toBe('phone-secret-1');
    lines.length = 0;
    await run('app-password:list', '--login', 'maria');
    expect(lines).toEqual([
      expect.stringMatching(/^default\t\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\t\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      expect.stringMatching(/^phone\t.+\t-$/),
    ]);

    await run('app-password:revoke', '--login', 'maria', '--name', 'default');
    const revoked = await t
      .http()
      .get(`${API}/tags`)
      .set('Authorization', basic({ login: 'maria', password }));
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe('incorrect_password');

    await run('user:set-role', '--login', 'maria', '--role', 'subscriber');
    const demoted = await t
      .http()
      .post(`${API}/tags`)
      .set('Authorization', basic({ login: 'maria', password: 'phone-secret-1' }))
      .send({ name: 'Not allowed' });
    expect(demoted.status).toBe(403);

    await expect(run('user:create', '--login', 'maria', '--role', 'editor')).rejects.toThrow(/already exists/);
    await expect(run('user:create', '--login', 'bad login', '--role', 'editor')).rejects.toThrow(/Invalid login/);
    await expect(run('user:create', '--login', 'x', '--role', 'boss')).rejects.toThrow(/Invalid role/);
    await expect(run('app-password:create', '--login', 'maria', '--name', 'phone')).rejects.toThrow(/already has/);
    await expect(run('app-password:revoke', '--login', 'maria', '--name', 'nope')).rejects.toThrow(/no application password/);
    await expect(run('user:create', '--login', 'y', '--role', 'editor', '--password', 'short')).rejects.toThrow(/8-128/);
  });
});
