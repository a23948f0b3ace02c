import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { jest } from '@jest/globals';
import { AuthService } from '../src/users/auth.service.js';
import { BasicAuthMiddleware } from '../src/users/basic-auth.middleware.js';
import { UsersService } from '../src/users/users.service.js';
import { API, basic, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

/**
 * Credentials a process accepted are accepted again on the credentials version alone while it holds
 * (users/credentials-version.ts); whatever can turn them away, done by another process on the same
 * database, moves it, so the next request is checked in full and answered as before.
 */
describe('credentials remembered by a process', () => {
  let t: TestApp;
  let other: TestApp;
  /** Full checks of credentials by the first process: the passwords read. */
  let fullChecks = 0;

  beforeAll(async () => {
    const limits = { TRUST_PROXY: 'true', LOGIN_FAILURE_LIMIT: '3', LOGIN_FAILURE_WINDOW_SECONDS: '60' };
    t = await startTestApp(limits);
    other = await startTestApp(limits, { sharing: t });
    const auth = t.app.get(AuthService);
    const passwordsOf = auth.passwordsOf.bind(auth);
    auth.passwordsOf = (login) => {
      fullChecks++;
      return passwordsOf(login);
    };
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  let counter = 0;
  /** A new tag, made through `app` with `credentials` from `address`. */
  const createTag = (app: TestApp, credentials: { login: string; password: string }, address = '203.0.113.1') =>
    app
      .http()
      .post(`${API}/tags`)
      .set('X-Forwarded-For', address)
      .set('Authorization', basic(credentials))
      .send({ name: `Remembered ${++counter}` });

  /** `credentials` accepted once through the first process, so that it remembers them. */
  async function remembered(credentials: Credentials, address?: string): Promise<void> {
    expect((await createTag(t, credentials, address)).status).toBe(201);
  }

  it('checks credentials it accepted with the credentials version alone, and other credentials in full', async () => {
    const editor = await t.user('editor');
    fullChecks = 0;
    await remembered(editor);
    expect(fullChecks).toBe(1);
    for (let i = 0; i < 3; i++) expect((await createTag(t, editor)).status).toBe(201);
    expect(fullChecks).toBe(1);
    // a wrong password of the same login, and the right one from another address, are not the remembered credentials
    const wrong = await createTag(t, { login: editor.login, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('incorrect_password');
    expect(fullChecks).toBe(2);
    expect((await createTag(t, editor, '203.0.113.2')).status).toBe(201);
    expect(fullChecks).toBe(3);
  });

  it('refuses a password revoked by another process on the next request', async () => {
    const editor = await t.user('editor');
    await remembered(editor);
    expect(await other.app.get(UsersService).revokeAppPassword(editor.login, 'default')).toBe(1);
    const res = await createTag(t, editor);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'incorrect_password', message: expect.any(String), data: { status: 401 } });
  });

  it('applies a role changed by another process on the next request', async () => {
    const editor = await t.user('editor');
    await remembered(editor);
    await other.app.get(UsersService).setRole(editor.login, 'subscriber');
    const res = await createTag(t, editor);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('rest_forbidden');
  });

  it('locks remembered credentials once another process counted enough failures', async () => {
    const editor = await t.user('editor');
    const address = '203.0.113.9';
    await remembered(editor, address);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await createTag(other, { login: editor.login, password: `wrong-${attempt}` }, address)).status).toBe(401);
    }
    const locked = await createTag(t, editor, address);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('rest_too_many_requests');
    // the same credentials from an address that is not locked are still accepted
    expect((await createTag(t, editor, '203.0.113.10')).status).toBe(201);
  });

  it('checks in full again when the version moved, and still accepts credentials nothing turned away', async () => {
    const editor = await t.user('editor');
    await remembered(editor);
    fullChecks = 0;
    await t.app.get<DataSource>(getDataSourceToken()).query('UPDATE credentials_version SET version = version + 1 WHERE id = 1');
    expect((await createTag(t, editor)).status).toBe(201);
    expect(fullChecks).toBe(1);
    expect((await createTag(t, editor)).status).toBe(201);
    expect(fullChecks).toBe(1);
  });

  it('shares one read of the version among the checks of one event-loop turn, and sees a change committed before them', async () => {
    const editor = await t.user('editor');
    const address = '203.0.113.20';
    await remembered(editor, address);
    const middleware = t.app.get(BasicAuthMiddleware);
    const manager = t.app.get<DataSource>(getDataSourceToken()).manager;
    const queries = jest.spyOn(manager, 'query');
    const versionReads = () => queries.mock.calls.filter(([sql]) => /FROM credentials_version/.test(String(sql))).length;
    const checks = () => Promise.all(Array.from({ length: 5 }, () => middleware.check(address, editor)));
    try {
      fullChecks = 0;
      const accepted = await checks();
      expect(accepted.map((outcome) => outcome.user?.login)).toEqual(Array(5).fill(editor.login));
      expect([versionReads(), fullChecks]).toEqual([1, 0]);
      // revoked through the other process: every check of the next turn sees it and checks in full
      expect(await other.app.get(UsersService).revokeAppPassword(editor.login, 'default')).toBe(1);
      queries.mockClear();
      const refused = await checks();
      expect(refused.map((outcome) => [outcome.user, outcome.refused?.status])).toEqual(Array(5).fill([undefined, 401]));
      expect(fullChecks).toBe(5);
    } finally {
      queries.mockRestore();
    }
  });

  it('checks every request in full while the version row is missing', async () => {
    const editor = await t.user('editor');
    const dataSource = t.app.get<DataSource>(getDataSourceToken());
    const [{ version }] = await dataSource.query<Array<{ version: string }>>('SELECT version FROM credentials_version WHERE id = 1');
    await dataSource.query('DELETE FROM credentials_version WHERE id = 1');
    try {
      fullChecks = 0;
      for (let i = 0; i < 3; i++) expect((await createTag(t, editor)).status).toBe(201);
      expect(fullChecks).toBe(3);
    } finally {
      await dataSource.query('INSERT INTO credentials_version (id, version) VALUES (1, ?)', [version]);
    }
  });
});
