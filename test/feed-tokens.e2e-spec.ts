import { createHash } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import ICAL from 'ical.js';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { CliModule } from '../src/cli/cli.module.js';
import { buildProgram } from '../src/cli/commands.js';
import { readCatalogue } from '../src/i18n/translator.js';
import { LoginLocks } from '../src/limits/login-locks.js';
import { FeedTokensService } from '../src/users/feed-tokens.service.js';
import { UsersService } from '../src/users/users.service.js';
import { ADMIN_AUTH, day, eventBody, eventClient, expectError, type EventClient } from './support/events.js';
import { API, basic, PUBLIC_URL, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

const CALENDAR_TYPE = 'text/calendar; charset=utf-8';
const FEED_URL = new RegExp(`^${PUBLIC_URL.replaceAll('.', '\\.')}${API}/events\\.ics\\?token=(calfeed_[A-Za-z0-9_-]{43})$`);
const ADDRESS_LIMIT = 5;

/** The UIDs of the VEVENTs of an iCalendar answer, read with ical.js. */
function uids(res: Response): string[] {
  expect({ status: res.status, body: res.status === 200 ? 'calendar' : res.body }).toEqual({ status: 200, body: 'calendar' });
  expect(res.headers['content-type']).toBe(CALENDAR_TYPE);
  const calendar = new ICAL.Component(ICAL.parse(res.text));
  return calendar
    .getAllSubcomponents('vevent')
    .map((vevent) => new ICAL.Event(vevent).uid)
    .sort();
}

/** 401 `rest_invalid_feed_token` in the contract's error shape, in the edition's language. */
function expectInvalidToken(res: Response, lang = 'en'): void {
  expect(res.status).toBe(401);
  const errors = readCatalogue(lang)?.errors as Record<string, string>;
  expect(res.body).toEqual({ code: 'rest_invalid_feed_token', message: errors.rest_invalid_feed_token, data: { status: 401 } });
  expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
  expect(res.headers['www-authenticate']).toBeUndefined();
}

describe('feed tokens (?token= on the iCalendar routes)', () => {
  let t: TestApp;
  let ev: EventClient;
  let cli: INestApplicationContext;
  let author: Credentials;
  let subscriber: Credentials;
  const lines: string[] = [];
  const made: Record<string, Record<string, any>> = {};
  let nextAddress = 0;
  /** A client address of its own, so failed tokens of one test never lock another's requests. */
  const freshAddress = () => `198.51.100.${++nextAddress}`;

  /** Runs a command of `npm run cli` in a context of its own on the server's database; returns its lines. */
  async function run(...args: string[]): Promise<string[]> {
    const from = lines.length;
    await buildProgram(
      {
        users: async () => cli.get(UsersService),
        loginLocks: async () => cli.get(LoginLocks),
        feedTokens: async () => cli.get(FeedTokensService),
      },
      { out: (line) => lines.push(line) },
    ).parseAsync(['node', 'cli', ...args]);
    return lines.slice(from);
  }

  /** `feed-token:create`: the token of the subscription URL on the last line, and the id of the first. */
  async function createToken(login: string, label?: string): Promise<{ token: string; id: number; url: string; output: string[] }> {
    const output = await run('feed-token:create', '--login', login, ...(label === undefined ? [] : ['--label', label]));
    const url = output.at(-1) as string;
    const token = FEED_URL.exec(url)?.[1];
    expect({ url, matches: token !== undefined }).toEqual({ url, matches: true });
    const id = Number(/\(id (\d+)\)/.exec(output[0])?.[1]);
    expect(id).toBeGreaterThan(0);
    return { token: token as string, id, url, output };
  }

  /** GET of an API path (relative to the namespace) from a client address, optionally with credentials. */
  const get = (path: string, options: { address?: string; auth?: string; lang?: string } = {}) => {
    const req = t
      .http()
      .get(`${options.lang ? `/${options.lang}` : ''}${API}/${path}`)
      .buffer(true)
      .set('X-Forwarded-For', options.address ?? '192.0.2.1');
    return options.auth ? req.set('Authorization', options.auth) : req;
  };
  /** The subscription URL as printed, requested the way a calendar app would. */
  const fetchUrl = (url: string, address = '192.0.2.1') =>
    t.http().get(url.slice(PUBLIC_URL.length)).buffer(true).set('X-Forwarded-For', address);

  const start = (days: number) => ({ start_date: `${day('UTC', days)} 18:00:00`, end_date: `${day('UTC', days)} 20:00:00` });

  beforeAll(async () => {
    t = await startTestApp({
      TRUST_PROXY: 'true',
      LOGIN_FAILURE_LIMIT: '3',
      LOGIN_FAILURE_ADDRESS_LIMIT: String(ADDRESS_LIMIT),
      LOGIN_FAILURE_ACCOUNT_LIMIT: String(ADDRESS_LIMIT),
      LOGIN_FAILURE_WINDOW_SECONDS: '600',
    });
    cli = await NestFactory.createApplicationContext(CliModule.forRoot(t.config), { logger: false });
    ev = eventClient(t);
    author = await t.user('author', 'feed-author');
    subscriber = await t.user('subscriber', 'feed-subscriber');
    made.published = await ev.make(eventBody({ title: 'Open concert', ...start(3) }));
    made.adminDraft = await ev.make(eventBody({ title: 'Board planning', status: 'draft', ...start(4) }));
    made.authorDraft = await ev.make(eventBody({ title: 'Author draft', status: 'draft', ...start(5) }), basic(author));
    made.authorPrivate = await ev.make(eventBody({ title: 'Author private', status: 'private', ...start(6) }), basic(author));
  }, 60_000);
  afterAll(async () => {
    await cli?.close();
    await t?.close();
  });

  const uid = (name: string) => made[name].global_id as string;

  it('creates a token whose printed subscription URL reads the feed with the rights of its user', async () => {
    const { url, id, output } = await createToken(author.login, 'Phone');
    expect(output).toEqual([
      `Created feed token "Phone" for ${author.login} (id ${id}).`,
      `Subscription URL (shown only now; it reads the calendar as ${author.login} until revoked):`,
      url,
    ]);
    const asAuthor = await fetchUrl(url);
    expect(uids(asAuthor)).toEqual([uid('published'), uid('authorDraft'), uid('authorPrivate')].sort());
    // an authenticated read (issue 14 §1): private, revalidated on every use
    expect(asAuthor.headers['cache-control']).toBe('private, no-cache');
    // the author's own drafts and private events only: never another user's draft
    expect(uids(asAuthor)).not.toContain(uid('adminDraft'));

    const anonymous = await get('events.ics');
    expect(uids(anonymous)).toEqual([uid('published')]);

    const admin = await createToken('admin');
    expect(uids(await fetchUrl(admin.url))).toEqual([uid('published'), uid('adminDraft'), uid('authorDraft'), uid('authorPrivate')].sort());
    // a subscriber reads like an anonymous visitor (spec §4.1)
    const reader = await createToken(subscriber.login);
    expect(uids(await fetchUrl(reader.url))).toEqual([uid('published')]);
  });

  it('reads a single event with the token, with the same access rules as Basic credentials', async () => {
    const { token } = await createToken(author.login);
    const path = `events/${made.authorPrivate.id}.ics`;
    expect(uids(await get(`${path}?token=${token}`))).toEqual([uid('authorPrivate')]);
    expectError(await get(path), 403, 'event-not-accessible');
    // another user's draft stays closed to the author, with a token as with a password
    expectError(await get(`events/${made.adminDraft.id}.ics?token=${token}`), 403, 'event-not-accessible');
    expectError(await get(`events/${made.adminDraft.id}.ics`, { auth: basic(author) }), 403, 'event-not-accessible');
    // HEAD, query-style addressing and the other editions too
    const head = await t.http().head(`${API}/${path}?token=${token}`).set('X-Forwarded-For', '192.0.2.1');
    expect(head.status).toBe(200);
    const queryStyle = await t
      .http()
      .get(`/?rest_route=${encodeURIComponent(`/tribe/events/v1/${path}`)}&token=${token}`)
      .buffer(true);
    expect(uids(queryStyle)).toEqual([uid('authorPrivate')]);
    expect(uids(await get(`events.ics?token=${token}&search=author`, { lang: 'de' }))).toEqual(
      [uid('authorDraft'), uid('authorPrivate')].sort(),
    );
  });

  it('answers 401 rest_invalid_feed_token to an unknown, malformed or empty token, in the edition language', async () => {
    const unknown = `calfeed_${Buffer.alloc(32, 7).toString('base64url')}`;
    for (const value of [unknown, 'calfeed_short', 'not-a-token', '', encodeURIComponent(`${unknown} `)]) {
      expectInvalidToken(await get(`events.ics?token=${value}`, { address: freshAddress() }));
    }
    expectInvalidToken(await get(`events/${made.published.id}.ics?token=${unknown}`, { address: freshAddress() }));
    expectInvalidToken(await get(`events.ics?token=${unknown}`, { address: freshAddress(), lang: 'ja' }), 'ja');
    // a list of values: the last one counts (spec §7.2), so a valid token first does not help
    const { token } = await createToken(author.login);
    expectInvalidToken(await get(`events.ics?token=${token}&token=${unknown}`, { address: freshAddress() }));
    expect(uids(await get(`events.ics?token=${unknown}&token=${token}`))).toContain(uid('authorDraft'));
    expectInvalidToken(await get(`events.ics?token[a]=${token}`, { address: freshAddress() }));
    // the token is looked at after the route: an unknown route is still 404
    expectError(await get(`events.icz?token=${unknown}`, { address: freshAddress() }), 404, 'rest_no_route');
  });

  it('ignores a token on every other route, exactly as an unknown parameter (spec §7.1)', async () => {
    const { token } = await createToken(author.login);
    for (const path of [
      'events',
      `events/${made.authorDraft.id}`,
      `events/${made.published.id}`,
      'venues',
      'categories?hide_empty=0',
      '',
    ]) {
      const separator = path.includes('?') ? '&' : '?';
      const plain = await get(path);
      for (const value of [token, 'garbage']) {
        const withToken = await get(`${path}${separator}token=${value}`);
        expect({ path, status: withToken.status, body: withToken.body }).toEqual({ path, status: plain.status, body: plain.body });
      }
    }
    const draft = await get(`events/${made.authorDraft.id}?token=${token}`);
    expectError(draft, 403, 'event-not-accessible');
    // a token never authorizes a write
    const write = await t
      .http()
      .post(`${API}/events?token=${token}`)
      .send(eventBody({ title: 'Sneaky' }));
    expectError(write, 401, 'rest_forbidden');
  });

  it('lets Basic credentials win over a token sent with them', async () => {
    const { token } = await createToken(author.login);
    const both = await get(`events.ics?token=${token}`, { auth: ADMIN_AUTH });
    expect(uids(both)).toContain(uid('adminDraft'));
    // the token is not even looked at: a revoked or wrong one does not spoil valid credentials
    const wrong = await get('events.ics?token=calfeed_wrong', { auth: basic(author) });
    expect(uids(wrong)).toContain(uid('authorDraft'));
    // failing credentials still fail first
    const bad = await get(`events.ics?token=${token}`, {
      auth: basic({ login: author.login, password: 'wrong-password' }),
      address: freshAddress(),
    });
    expectError(bad, 401, 'incorrect_password');
  });

  it('never stores an answer read with a token in the shared cache, nor serves it a cached one', async () => {
    const { token } = await createToken(author.login);
    // a path of its own (an unknown parameter), so the first anonymous read builds the answer
    const path = 'events.ics?probe=cache';
    const anonymous = [await get(path), await get(path)];
    expect(anonymous.map((res) => res.headers['x-cache'])).toEqual(['MISS', 'HIT']);
    const withToken = [await get(`${path}&token=${token}`), await get(`${path}&token=${token}`)];
    for (const res of withToken) {
      expect(res.headers['x-cache']).toBeUndefined();
      expect(uids(res)).toContain(uid('authorDraft'));
    }
    // the anonymous answer is still the cached anonymous one, without the author's drafts
    const after = await get(path);
    expect(after.headers['x-cache']).toBe('HIT');
    expect(uids(after)).toEqual([uid('published')]);
    const single = await get(`events/${made.authorDraft.id}.ics?token=${token}`);
    expect(single.headers['x-cache']).toBeUndefined();
    expectError(await get(`events/${made.authorDraft.id}.ics`), 403, 'event-not-accessible');
  });

  it('lists tokens with id, login, label, created and last used, never a secret', async () => {
    const { token, id } = await createToken(subscriber.login, 'Team wall calendar');
    const before = await run('feed-token:list', '--login', subscriber.login);
    const row = before.find((line) => line.startsWith(`${id}\t`));
    expect(row?.split('\t')).toEqual([
      String(id),
      subscriber.login,
      'Team wall calendar',
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      '-',
    ]);
    for (const line of before) expect(line.split('\t')[1]).toBe(subscriber.login);

    expect(uids(await get(`events.ics?token=${token}`))).toEqual([uid('published')]);
    let used = '-';
    for (let attempt = 0; attempt < 20 && used === '-'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const line = (await run('feed-token:list')).find((candidate) => candidate.startsWith(`${id}\t`)) as string;
      used = line.split('\t')[4];
    }
    expect(used).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const all = await run('feed-token:list');
    expect(all.length).toBeGreaterThanOrEqual(before.length);
    const hash = createHash('sha256').update(token).digest('hex');
    for (const line of all) {
      expect(line.split('\t')).toHaveLength(5);
      expect(line).not.toContain('calfeed_');
      expect(line).not.toContain(hash);
    }
    // the table holds the hash of the secret and never the secret
    const dataSource = t.app.get(DataSource);
    const rows = await dataSource.query<Array<Record<string, unknown>>>('SELECT * FROM feed_tokens');
    expect(rows.some((stored) => stored.token_hash === hash)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(token.slice('calfeed_'.length));
  });

  it('revokes one token by id, or every token of a login, with immediate effect', async () => {
    const first = await createToken(author.login, 'first');
    const second = await createToken(author.login, 'second');
    expect(uids(await fetchUrl(first.url))).toContain(uid('authorDraft'));
    expect(await run('feed-token:revoke', '--id', String(first.id))).toEqual([`Revoked the feed token ${first.id}.`]);
    expectInvalidToken(await fetchUrl(first.url, freshAddress()));
    expectInvalidToken(await get(`events/${made.authorDraft.id}.ics?token=${first.token}`, { address: freshAddress() }));
    expect(uids(await fetchUrl(second.url))).toContain(uid('authorDraft'));
    expect((await run('feed-token:list', '--login', author.login)).some((line) => line.startsWith(`${first.id}\t`))).toBe(false);

    await expect(run('feed-token:revoke', '--id', String(first.id))).rejects.toThrow(`No feed token has the id ${first.id}.`);
    await expect(run('feed-token:revoke', '--id', String(second.id), '--login', subscriber.login)).rejects.toThrow(
      `${subscriber.login} has no feed token with the id ${second.id}.`,
    );
    await expect(run('feed-token:revoke')).rejects.toThrow('Give --id <id>, --login <login> or both.');
    await expect(run('feed-token:revoke', '--id', 'abc')).rejects.toThrow('Invalid token id "abc".');
    expect(uids(await fetchUrl(second.url))).toContain(uid('authorDraft'));

    const remaining = (await run('feed-token:list', '--login', author.login)).length;
    expect(remaining).toBeGreaterThan(1);
    expect(await run('feed-token:revoke', '--login', author.login)).toEqual([`Revoked ${remaining} feed token(s) of ${author.login}.`]);
    expectInvalidToken(await fetchUrl(second.url, freshAddress()));
    expect(await run('feed-token:list', '--login', author.login)).toEqual(['No feed token.']);
  });

  it('refuses bad command-line input with a message', async () => {
    await expect(run('feed-token:create', '--login', 'nobody-here')).rejects.toThrow('No user has the login "nobody-here".');
    await expect(run('feed-token:create', '--login', author.login, '--label', 'bad\u0007label')).rejects.toThrow(
      'The label must be 1-100 characters without control characters.',
    );
    await expect(run('feed-token:list', '--login', 'nobody-here')).rejects.toThrow('No user has the login "nobody-here".');
  });

  it("follows the user: a new role applies at once, and a deleted user's tokens stop", async () => {
    const changing = await t.user('author', 'feed-changing');
    const draft = await ev.make(eventBody({ title: 'Changing draft', status: 'draft', ...start(7) }), basic(changing));
    const { url } = await createToken(changing.login);
    expect(uids(await fetchUrl(url))).toContain(draft.global_id);
    await run('user:set-role', '--login', changing.login, '--role', 'subscriber');
    expect(uids(await fetchUrl(url))).not.toContain(draft.global_id);

    const leaving = await t.user('editor', 'feed-leaving');
    const gone = await createToken(leaving.login);
    expect(uids(await fetchUrl(gone.url))).toContain(uid('adminDraft'));
    // users are deleted in the database only (the tool has no command for it): the tokens go with them
    const dataSource = t.app.get(DataSource);
    await dataSource.query(`DELETE FROM users WHERE id = ${Number(leaving.id)}`);
    expectInvalidToken(await fetchUrl(gone.url, freshAddress()));
    expect(await dataSource.query(`SELECT id FROM feed_tokens WHERE id = ${gone.id}`)).toEqual([]);
  });

  it('counts failed tokens toward the address lock of the failed-login limits', async () => {
    const { token } = await createToken(subscriber.login);
    const address = '203.0.113.9';
    const wrong = `calfeed_${Buffer.alloc(32, 9).toString('base64url')}`;
    for (let i = 0; i < ADDRESS_LIMIT; i++) expectInvalidToken(await get(`events.ics?token=${wrong}`, { address }));
    // the whole address is locked: a right token and Basic logins get 429, anonymous reads still work
    for (const res of [await get(`events.ics?token=${token}`, { address }), await get('events.ics', { address, auth: ADMIN_AUTH })]) {
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ code: 'rest_too_many_requests', message: expect.any(String), data: { status: 429 } });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(uids(await get('events.ics', { address }))).toEqual([uid('published')]);
    expect(uids(await get(`events.ics?token=${token}`, { address: '203.0.113.10' }))).toEqual([uid('published')]);
    // the tool shows the address lock, and no lock of a login named after tokens
    const locks = await run('login:locks');
    expect(locks.filter((line) => line.includes(address))).toEqual([
      expect.stringMatching(new RegExp(`^address\\t${address.replaceAll('.', '\\.')}\\t\\*\\t${ADDRESS_LIMIT} failures\\t\\d+s left$`)),
    ]);
    expect(locks.join('\n')).not.toContain('feed-token');
    await run('login:unlock', '--address', address);
    expect(uids(await get(`events.ics?token=${token}`, { address }))).toEqual([uid('published')]);
  });

  it('documents the token parameter on the two iCalendar operations only', async () => {
    const document = (await t.http().get(`${API}/doc`)).body as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; required?: boolean }> }>>;
    };
    const withToken = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => (operation.parameters ?? []).some((parameter) => parameter.name === 'token'))
        .map(([method]) => `${method} ${path}`),
    );
    expect(withToken.sort()).toEqual(['get /events.ics', 'get /events/{id}.ics']);
    const parameter = document.paths['/events.ics'].get.parameters?.find((candidate) => candidate.name === 'token');
    expect(parameter).toMatchObject({ in: 'query', required: false });
    const index = (await t.http().get(`/de${API}`)).body as { routes: Record<string, { endpoints: Array<{ args: Record<string, any> }> }> };
    const arg = index.routes['/tribe/events/v1/events.ics'].endpoints[0].args.token;
    expect(arg).toMatchObject({ type: 'string', required: false });
    expect(arg.description).toContain('Feed-Token');
  });
});
