import request from 'supertest';
import { createApp, createFirstAdministrator } from '../src/app.setup.js';
import { loadConfig } from '../src/config/app-config.js';
import { UsersService } from '../src/users/users.service.js';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app.js';

const PRIVATE = 'no-cache, must-revalidate, max-age=0, no-store, private';
/** Authenticated 200 reads (GET/HEAD): conditional requests replace the v1 header there (docs/API.md, "Conditional requests"). */
const PRIVATE_READ = 'private, no-cache';
const raw = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('authentication (spec §4.2, §4.3)', () => {
  let t: TestApp;
  let users: UsersService;
  const admin = basic(ADMIN);

  beforeAll(async () => {
    t = await startTestApp();
    users = t.app.get(UsersService);
  }, 60_000);
  afterAll(() => t.close());

  const createCategory = (auth: string | undefined, name: string) => {
    const req = t.http().post(`${API}/categories`);
    if (auth !== undefined) req.set('Authorization', auth);
    return req.send({ name });
  };

  const expectAuthError = (res: { status: number; body: unknown; headers: Record<string, string> }, code: string) => {
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code, message: expect.any(String), data: { status: 401 } });
    expect((res.body as { message: string }).message).not.toBe('');
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
  };

  describe('bootstrap administrator', () => {
    it('authenticates ADMIN_LOGIN:ADMIN_PASSWORD as an administrator', async () => {
      const res = await t.http().post(`${API}/tags`).set('Authorization', admin).send({ name: 'Bootstrap tag' });
      expect(res.status).toBe(201);
      expect(res.headers['cache-control']).toBe(PRIVATE);
      expect(res.headers.allow).toBe('GET, POST');
    });

    it('registers the bootstrap password under the name "bootstrap"', async () => {
      const passwords = await users.listAppPasswords(ADMIN.login);
      expect(passwords.map((p) => p.name)).toEqual(['bootstrap']);
    });

    it('ignores ADMIN_LOGIN/ADMIN_PASSWORD when users already exist', async () => {
      const storage =
        t.config.database.kind === 'sqlite' ? { SQLITE_PATH: t.config.database.path } : { DATABASE_URL: t.config.database.url };
      const secondConfig = loadConfig({
        PUBLIC_URL,
        LOG_LEVEL: 'silent',
        ADMIN_LOGIN: 'second-admin',
        ADMIN_PASSWORD: 'second-password-1',
        ...storage,
      });
      const second = await createApp(secondConfig);
      try {
        expect(await createFirstAdministrator(second, secondConfig)).toBeNull();
        const res = await request(second.getHttpServer())
          .get(`${API}/categories`)
          .set('Authorization', basic({ login: 'second-admin', password: 'second-password-1' }));
        expectAuthError(res, 'invalid_username');
        const stillAdmin = await request(second.getHttpServer()).get(`${API}/categories`).set('Authorization', admin);
        expect(stillAdmin.status).toBe(200);
      } finally {
        await second.close();
      }
    }, 60_000);
  });

  describe('failed credentials', () => {
    it('refuses an unknown login with 401 invalid_username and no WWW-Authenticate', async () => {
      const res = await createCategory(basic({ login: 'nobody-here', password: 'whatever-password' }), 'Nobody');
      expectAuthError(res, 'invalid_username');
      expect(res.body.message).toBe('No user has this login name.');
    });

    it('refuses a wrong password with 401 incorrect_password and no WWW-Authenticate', async () => {
      const res = await createCategory(basic({ login: ADMIN.login, password: 'wrong-password-1' }), 'Wrong');
      expectAuthError(res, 'incorrect_password');
      expect(res.body.message).toBe('The application password is not valid for this user.');
    });

    it('refuses an empty password as incorrect_password', async () => {
      const res = await t
        .http()
        .get(`${API}/categories`)
        .set('Authorization', raw(`${ADMIN.login}:`));
      expectAuthError(res, 'incorrect_password');
    });

    it('refuses bad credentials on public reads, the namespace index, /doc and the API index', async () => {
      const bad = basic({ login: ADMIN.login, password: 'not-the-password' });
      const unknown = basic({ login: 'ghost', password: 'not-the-password' });
      for (const path of [`${API}/categories`, `${API}/tags?hide_empty=0`, API, `${API}/doc`, '/wp-json/']) {
        expectAuthError(await t.http().get(path).set('Authorization', bad), 'incorrect_password');
        expectAuthError(await t.http().get(path).set('Authorization', unknown), 'invalid_username');
      }
      const head = await t.http().head(`${API}/categories`).set('Authorization', bad);
      expect(head.status).toBe(401);
      expect(head.headers['www-authenticate']).toBeUndefined();
    });

    it('does not create anything when credentials fail', async () => {
      await createCategory(basic({ login: ADMIN.login, password: 'not-the-password' }), 'Never created');
      const list = await t.http().get(`${API}/categories?hide_empty=0&search=never`);
      expect(list.body.total).toBe(0);
    });
  });

  describe('accepted credentials', () => {
    it('matches the login case-insensitively', async () => {
      const user = await t.user('editor', 'MixedCase.User');
      for (const [index, login] of ['mixedcase.user', 'MIXEDCASE.USER', 'MixedCase.User', 'mIxEdCaSe.uSeR'].entries()) {
        const res = await createCategory(basic({ login, password: user.password }), `Case ${index}`);
        expect(res.status).toBe(201);
      }
      const adminUpper = await createCategory(basic({ login: ADMIN.login.toUpperCase(), password: ADMIN.password }), 'Upper admin');
      expect(adminUpper.status).toBe(201);
    });

    it('does not match the password case-insensitively', async () => {
      const res = await createCategory(basic({ login: ADMIN.login, password: ADMIN.password.toUpperCase() }), 'Upper password');
      expectAuthError(res, 'incorrect_password');
    });

    it('removes every whitespace character from the password (grouped display form)', async () => {
      const { user: created, password } = await users.createUser('grouped-user', 'author');
      const user = { login: created.login, password };
      expect(user.password).toMatch(/^[A-Za-z0-9]{24}$/);
      const grouped = user.password.match(/.{1,4}/g)?.join(' ') as string;
      expect(grouped).toContain(' ');
      const res = await createCategory(basic({ login: user.login, password: grouped }), 'Grouped password');
      expect(res.status).toBe(201);
      const mixed = `  ${user.password.slice(0, 6)}\t${user.password.slice(6, 12)}\n${user.password.slice(12)}  `;
      const withTabs = await createCategory(basic({ login: user.login, password: mixed }), 'Tabbed password');
      expect(withTabs.status).toBe(201);
    });

    it('accepts a user-chosen password and any of several application passwords', async () => {
      const created = await users.createUser('chosen-pw', 'editor', 'my-chosen-password');
      expect(created.password).toBe('my-chosen-password');
      const extra = await users.createAppPassword('chosen-pw', 'laptop');
      expect(extra.password).toMatch(/^[A-Za-z0-9]{24}$/);
      expect((await createCategory(basic({ login: 'chosen-pw', password: 'my-chosen-password' }), 'Chosen 1')).status).toBe(201);
      expect((await createCategory(basic({ login: 'chosen-pw', password: extra.password }), 'Chosen 2')).status).toBe(201);
    });

    it('splits login and password at the first colon and accepts e-mail-like logins', async () => {
      await users.createUser('ann@example.org', 'editor', 'pass:with:colons');
      const res = await createCategory(basic({ login: 'ann@example.org', password: 'pass:with:colons' }), 'Colon password');
      expect(res.status).toBe(201);
      expectAuthError(await createCategory(basic({ login: 'ann@example.org', password: 'pass' }), 'Colon prefix'), 'incorrect_password');
    });

    it('reads the Basic scheme name case-insensitively', async () => {
      const token = Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64');
      const res = await createCategory(`basic ${token}`, 'Lower-case scheme');
      expect(res.status).toBe(201);
    });

    it('marks authenticated answers private and leaves anonymous ones cacheable', async () => {
      const authed = await t.http().get(`${API}/categories`).set('Authorization', admin);
      expect(authed.status).toBe(200);
      expect(authed.headers['cache-control']).toBe(PRIVATE_READ);
      const authedError = await t.http().get(`${API}/categories/987654`).set('Authorization', admin);
      expect(authedError.status).toBe(400);
      expect(authedError.headers['cache-control']).toBe(PRIVATE);
      const anonymous = await t.http().get(`${API}/categories`);
      expect(anonymous.status).toBe(200);
      expect(anonymous.headers['cache-control'] ?? '').not.toContain('private');
      expect(anonymous.headers['cache-control'] ?? '').not.toContain('no-store');
    });
  });

  describe('anonymous requests', () => {
    const anonymousWrite = async (headers: Record<string, string>) => {
      const res = await t.http().post(`${API}/categories`).set(headers).send({ name: 'Anonymous attempt' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'rest_forbidden', message: expect.any(String), data: { status: 401 } });
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(res.headers.allow).toBe('GET');
      expect(res.headers['cache-control'] ?? '').not.toContain('private');
      return res;
    };

    it('treats a request without Authorization as anonymous', async () => {
      const res = await anonymousWrite({});
      expect(res.body.message).toBe('You are not allowed to do this.');
      const read = await t.http().get(`${API}/categories`);
      expect(read.status).toBe(200);
      expect(read.headers.allow).toBe('GET');
    });

    it('treats non-Basic schemes as anonymous', async () => {
      for (const header of [
        'Bearer abc.def.ghi',
        `Digest username="${ADMIN.login}", realm="x"`,
        'Negotiate YII=',
        'Token admin:admin-password-1',
      ]) {
        await anonymousWrite({ Authorization: header });
        const read = await t.http().get(`${API}/categories`).set('Authorization', header);
        expect(read.status).toBe(200);
      }
    });

    it('treats a Basic header that does not decode to login:password as anonymous', async () => {
      for (const header of ['Basic', 'Basic ', raw('no-colon-here'), 'Basic !!!not-base64!!!', `Basic ${ADMIN.login}:${ADMIN.password}`]) {
        await anonymousWrite({ Authorization: header });
        const read = await t.http().get(`${API}/categories`).set('Authorization', header);
        expect(read.status).toBe(200);
        expect(read.headers['cache-control'] ?? '').not.toContain('private');
      }
    });

    it('ignores cookies and X-WP-Nonce without Basic credentials', async () => {
      await anonymousWrite({
        Cookie: `wordpress_logged_in_abc=${ADMIN.login}%7C9999999999%7Ctoken%7Chash; wordpress_sec_abc=x`,
        'X-WP-Nonce': 'abcdef1234',
      });
      await anonymousWrite({ 'X-WP-Nonce': 'abcdef1234' });
      const read = await t.http().get(`${API}/categories`).set('X-WP-Nonce', 'abcdef1234').set('Cookie', 'wordpress_logged_in_abc=admin');
      expect(read.status).toBe(200);
      expect(read.headers['cache-control'] ?? '').not.toContain('private');
    });

    it('uses Basic credentials when they come with a nonce', async () => {
      const res = await t
        .http()
        .post(`${API}/categories`)
        .set('Authorization', admin)
        .set('X-WP-Nonce', 'nonsense')
        .send({ name: 'With nonce' });
      expect(res.status).toBe(201);
    });
  });

  describe('application password revocation', () => {
    it('stops accepting a revoked password immediately, keeping the other ones', async () => {
      const user = await t.user('editor', 'revoker');
      const second = await users.createAppPassword('revoker', 'phone');
      const first = basic({ login: 'revoker', password: user.password });
      const other = basic({ login: 'revoker', password: second.password });
      expect((await createCategory(first, 'Before revoke 1')).status).toBe(201);
      expect((await createCategory(first, 'Before revoke 2')).status).toBe(201);
      expect((await createCategory(other, 'Before revoke 3')).status).toBe(201);

      expect(await users.revokeAppPassword('revoker', 'default')).toBe(1);
      expectAuthError(await createCategory(first, 'After revoke'), 'incorrect_password');
      expectAuthError(await t.http().get(`${API}/categories`).set('Authorization', first), 'incorrect_password');
      expect((await createCategory(other, 'Still allowed')).status).toBe(201);

      expect(await users.revokeAppPassword('revoker', null)).toBe(1);
      expectAuthError(await createCategory(other, 'After revoke all'), 'incorrect_password');
      const grouped = second.password.match(/.{1,4}/g)?.join(' ') as string;
      expectAuthError(await createCategory(basic({ login: 'revoker', password: grouped }), 'Grouped after revoke'), 'incorrect_password');
    });

    it('refuses every password of a user without application passwords as incorrect_password', async () => {
      const user = await t.user('author', 'no-passwords');
      await users.revokeAppPassword('no-passwords', null);
      expectAuthError(await createCategory(basic(user), 'No passwords'), 'incorrect_password');
      expectAuthError(await createCategory(basic({ login: 'no-passwords', password: '' }), 'Empty'), 'incorrect_password');
    });

    it('accepts a password created after revocation at once', async () => {
      await t.user('subscriber', 'renewer');
      await users.revokeAppPassword('renewer', null);
      const fresh = await users.createAppPassword('renewer', 'fresh');
      const res = await t
        .http()
        .get(`${API}/categories`)
        .set('Authorization', basic({ login: 'renewer', password: fresh.password }));
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe(PRIVATE_READ);
    });
  });
});
