import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import type { Response } from 'supertest';
import { CliModule } from '../src/cli/cli.module.js';
import { buildProgram } from '../src/cli/commands.js';
import { LoginLocks } from '../src/limits/login-locks.js';
import { AuthService } from '../src/users/auth.service.js';
import { FeedTokensService } from '../src/users/feed-tokens.service.js';
import { UsersService } from '../src/users/users.service.js';
import { ADMIN, API, basic, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

const WINDOW_SECONDS = 60;

describe('failed-login locks', () => {
  let t: TestApp;
  /** How often the password check ran: a locked request must never reach it. */
  let passwordChecks = 0;

  beforeAll(async () => {
    t = await startTestApp({
      TRUST_PROXY: 'true',
      LOGIN_FAILURE_LIMIT: '3',
      LOGIN_FAILURE_ADDRESS_LIMIT: '8',
      LOGIN_FAILURE_ACCOUNT_LIMIT: '6',
      LOGIN_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
    });
    const auth = t.app.get(AuthService);
    const authenticateWith = auth.authenticateWith.bind(auth);
    auth.authenticateWith = (credentials, passwords) => {
      passwordChecks++;
      return authenticateWith(credentials, passwords);
    };
  });
  afterAll(() => t.close());

  /** A read of a list with credentials, as sent from `address`. */
  const read = (address: string, credentials?: { login: string; password: string }) => {
    const request = t.http().get(`${API}/tags`).set('X-Forwarded-For', address);
    return credentials ? request.set('Authorization', basic(credentials)) : request;
  };
  const wrong = (login: string, attempt = 0) => ({ login, password: `wrong-password-${attempt}` });

  async function fail(address: string, login: string, times: number): Promise<void> {
    for (let attempt = 0; attempt < times; attempt++) {
      const res = await read(address, wrong(login, attempt));
      expect(res.status).toBe(401);
    }
  }

  function expectLocked(res: Response): void {
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ code: 'rest_too_many_requests', message: expect.any(String), data: { status: 429 } });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  }

  describe('per address and login', () => {
    let alice: Credentials;
    beforeAll(async () => {
      alice = await t.user('editor', 'alice');
      await fail('203.0.113.7', alice.login, 3);
    });

    it('locks the pair: a right password gets the same 429 as a wrong one, and is never checked', async () => {
      const checksBefore = passwordChecks;
      const right = await read('203.0.113.7', alice);
      const wrongAgain = await read('203.0.113.7', wrong(alice.login, 9));
      const otherCase = await read('203.0.113.7', { login: 'ALICE', password: alice.password });
      expect(passwordChecks).toBe(checksBefore);
      for (const res of [right, wrongAgain, otherCase]) expectLocked(res);
      expect(right.body).toEqual(wrongAgain.body);
      const shape = (res: Response) => ({ ...res.headers, date: undefined, 'retry-after': undefined, 'x-request-id': undefined });
      expect(shape(right)).toEqual(shape(wrongAgain));
      expect(Math.abs(Number(right.headers['retry-after']) - Number(wrongAgain.headers['retry-after']))).toBeLessThanOrEqual(1);
    });

    it('leaves other logins from the same address alone', async () => {
      const res = await read('203.0.113.7', ADMIN);
      expect(res.status).toBe(200);
    });

    it('leaves the same login from another address alone', async () => {
      const res = await read('198.51.100.20', alice);
      expect(res.status).toBe(200);
    });

    it('serves anonymous reads from the locked address', async () => {
      const res = await read('203.0.113.7');
      expect(res.status).toBe(200);
    });

    it('forgets the failures of a pair after a right password', async () => {
      const carol = await t.user('author', 'carol');
      await fail('203.0.113.50', carol.login, 2);
      expect((await read('203.0.113.50', carol)).status).toBe(200);
      await fail('203.0.113.50', carol.login, 2);
      expect((await read('203.0.113.50', carol)).status).toBe(200);
    });
  });

  describe('per address, over every login', () => {
    it('locks the whole address past LOGIN_FAILURE_ADDRESS_LIMIT, for every login but not for anonymous reads', async () => {
      // one failure for each of eight logins: no pair and no login reaches its own limit
      for (let i = 0; i < 8; i++) await fail('192.0.2.66', `stuffed-${i}`, 1);
      const checksBefore = passwordChecks;
      expectLocked(await read('192.0.2.66', ADMIN));
      expectLocked(await read('192.0.2.66', wrong('someone-new')));
      expect(passwordChecks).toBe(checksBefore);
      expect((await read('192.0.2.66')).status).toBe(200);
      expect((await read('192.0.2.67', ADMIN)).status).toBe(200);
    });
  });

  describe('per login, over every address', () => {
    it('locks the login everywhere past LOGIN_FAILURE_ACCOUNT_LIMIT', async () => {
      const bob = await t.user('editor', 'bob');
      // two failures from each of three addresses: no pair reaches 3, the login reaches 6
      for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) await fail(address, bob.login, 2);
      expectLocked(await read('198.51.100.99', bob));
      expectLocked(await read('198.51.100.99', wrong(bob.login)));
      expect((await read('198.51.100.99', ADMIN)).status).toBe(200);
    });
  });

  describe('the command-line tool', () => {
    let cli: INestApplicationContext;
    const lines: string[] = [];
    // a context of its own on the same database, as `npm run cli` would start next to the server
    const run = (...args: string[]) =>
      buildProgram(
        {
          users: async () => cli.get(UsersService),
          loginLocks: async () => cli.get(LoginLocks),
          feedTokens: async () => cli.get(FeedTokensService),
        },
        { out: (line) => lines.push(line) },
      ).parseAsync(['node', 'cli', ...args]);

    beforeAll(async () => {
      cli = await NestFactory.createApplicationContext(CliModule.forRoot(t.config), { logger: false });
    });
    afterAll(() => cli.close());

    it('lists the locks in force and lifts a pair, a login and an address for the running server', async () => {
      const dave = await t.user('editor', 'dave');
      await fail('203.0.113.80', dave.login, 3);
      const erin = await t.user('editor', 'erin');
      for (const address of ['198.51.100.31', '198.51.100.32', '198.51.100.33']) await fail(address, erin.login, 2);
      for (let i = 0; i < 8; i++) await fail('192.0.2.99', `sprayed-${i}`, 1);
      expectLocked(await read('203.0.113.80', dave));
      expectLocked(await read('198.51.100.40', erin));
      expectLocked(await read('192.0.2.99', ADMIN));

      lines.length = 0;
      await run('login:locks');
      expect(lines).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^pair\t203\.0\.113\.80\tdave\t3 failures\t\d+s left$/),
          expect.stringMatching(/^address\t192\.0\.2\.99\t\*\t8 failures\t\d+s left$/),
          expect.stringMatching(/^login\t\*\terin\t6 failures\t\d+s left$/),
        ]),
      );

      await run('login:unlock', '--login', 'Dave', '--address', '203.0.113.80');
      expect(lines.at(-1)).toBe('Unlocked login Dave from address 203.0.113.80 (3 failed login(s) forgotten).');
      expect((await read('203.0.113.80', dave)).status).toBe(200);

      await run('login:unlock', '--login', 'erin');
      expect((await read('198.51.100.40', erin)).status).toBe(200);

      await run('login:unlock', '--address', '192.0.2.99');
      expect((await read('192.0.2.99', ADMIN)).status).toBe(200);

      lines.length = 0;
      await run('login:locks');
      expect(lines.join('\n')).not.toMatch(/dave|erin|192\.0\.2\.99/);
      await expect(run('login:unlock')).rejects.toThrow(/--login/);
    });
  });
});
