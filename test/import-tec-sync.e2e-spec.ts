import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { fakeServer, faultyProxy, importTec, listen, summaryRow, type FakeServer } from './support/import-sources.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/**
 * Keeping a site in sync with `import:tec`: re-runs, the trash of what vanished, the conflict
 * policies, `--since`, resuming an interrupted run, `--watch`, retries on 429/500/timeouts and the
 * one-line errors for sources that are not the reference API. The source is another instance of
 * this service, read over HTTP (through a proxy that injects faults where a test needs them).
 */

const SOURCE_ADMIN = { login: 'admin', password: 'admin-password-1' };
const CREDENTIALS = ['--user', SOURCE_ADMIN.login, '--password', SOURCE_ADMIN.password];
/** Fast retries for the tests (the defaults wait half a second and more). */
const FAST = ['--retries', '2', '--retry-base', '20'];

type Json = Record<string, any>;

describe('import:tec keeps a target in sync', () => {
  let source: TestApp;
  let origin: string;
  const ids: Record<string, number> = {};
  const admin = basic(SOURCE_ADMIN);

  const write = async (method: 'post' | 'delete', path: string, body: Json = {}) => {
    const res = await source.http()[method](`${API}${path}`).set('Authorization', admin).send(body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  };
  const readBoth = async (target: TestApp, path: string) => {
    const [a, b] = await Promise.all([
      source.http().get(`${API}${path}`).set('Authorization', admin),
      target.http().get(`${API}${path}`).set('Authorization', basic(ADMIN)),
    ]);
    const strip = (body: Json) =>
      JSON.parse(
        JSON.stringify(body)
          .replaceAll('http://source.test', '')
          .replaceAll('source.test?', '')
          .replaceAll('http://calendar.test', '')
          .replaceAll('calendar.test?', ''),
      );
    return { source: strip(a.body), target: strip(b.body), statuses: [a.status, b.status] };
  };

  beforeAll(async () => {
    source = await startTestApp({ PUBLIC_URL: 'http://source.test' }, { database: 'source' });
    origin = await listen(source);
    ids.music = (await write('post', '/categories', { name: 'Music' })).id;
    ids.jazz = (await write('post', '/categories', { name: 'Jazz', parent: ids.music })).id;
    ids.bebop = (await write('post', '/categories', { name: 'Bebop', parent: ids.jazz })).id;
    ids.family = (await write('post', '/tags', { name: 'family' })).id;
    ids.doomed = (await write('post', '/tags', { name: 'soon gone' })).id;
    ids.hall = (await write('post', '/venues', { venue: 'Town Hall', city: 'Springfield' })).id;
    ids.guild = (await write('post', '/organizers', { organizer: 'Arts Guild' })).id;
    for (let n = 1; n <= 55; n++) {
      const event = await write('post', '/events', {
        title: `Concert ${n}`,
        start_date: `2027-06-${String((n % 28) + 1).padStart(2, '0')} 19:00`,
        end_date: `2027-06-${String((n % 28) + 1).padStart(2, '0')} 21:00`,
        venue: n % 2 === 0 ? ids.hall : undefined,
        organizer: n % 3 === 0 ? [ids.guild] : undefined,
        categories: n % 4 === 0 ? [ids.bebop] : [ids.jazz],
        tags: n % 5 === 0 ? [ids.family, ids.doomed] : [ids.family],
      });
      ids[`concert${n}`] = event.id;
    }
    ids.hidden = (
      await write('post', '/events', {
        title: 'Hidden rehearsal',
        hide_from_listings: true,
        start_date: '2027-07-01 10:00',
        end_date: '2027-07-01 11:00',
      })
    ).id;
  }, 120_000);
  afterAll(() => source.close());

  describe('re-runs', () => {
    let target: TestApp;
    beforeAll(async () => {
      target = await startTestApp();
    });
    afterAll(() => target.close());

    it('imports once, then finds nothing to do', async () => {
      const first = await importTec(target, ['--from', origin, ...CREDENTIALS]);
      expect({ code: first.code, error: first.error }).toEqual({ code: 0, error: null });
      expect(summaryRow(first.lines, 'events')).toEqual([56, 0, 0, 0, 0, 0, 0]);
      const second = await importTec(target, ['--from', origin, ...CREDENTIALS]);
      expect({ code: second.code, error: second.error }).toEqual({ code: 0, error: null });
      for (const [name, count] of [
        ['categories', 3],
        ['tags', 2],
        ['venues', 1],
        ['organizers', 1],
        ['events', 56],
      ] as const) {
        expect({ name, counts: summaryRow(second.lines, name) }).toEqual({ name, counts: [0, 0, count, 0, 0, 0, 0] });
      }
    });

    it('updates what changed, adds what is new, and removes what vanished at the source', async () => {
      await write('post', `/events/${ids.concert1}`, { title: 'Concert 1 (moved indoors)', venue: ids.hall });
      await write('post', `/events/${ids.concert2}`, { status: 'draft' });
      await write('delete', `/events/${ids.concert3}`);
      await write('post', `/events/${ids.hidden}`, { description: 'Changed while hidden.' });
      ids.added = (
        await write('post', '/events', {
          title: 'Added later',
          start_date: '2027-08-01 10:00',
          end_date: '2027-08-01 11:00',
          tags: ['brand new tag'],
        })
      ).id;
      await write('delete', `/tags/${ids.doomed}`);
      await write('delete', `/categories/${ids.jazz}`); // Bebop moves up to Music
      const run = await importTec(target, ['--from', origin, ...CREDENTIALS]);
      expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
      // created, updated, unchanged, kept, trashed, deleted, skipped: terms deleted at the source are deleted here
      expect(summaryRow(run.lines, 'tags')).toEqual([1, 0, 1, 0, 0, 1, 0]);
      expect(summaryRow(run.lines, 'categories')).toEqual([0, 1, 1, 0, 0, 1, 0]);
      // the event trashed at the source counts as trashed, not updated
      expect(summaryRow(run.lines, 'events')).toEqual([1, expect.any(Number), expect.any(Number), 0, 1, 0, 0]);
      for (const path of [
        `/events/${ids.concert1}`,
        `/events/${ids.concert2}`,
        `/events/${ids.concert5}`,
        `/events/${ids.hidden}`,
        `/events/${ids.added}`,
        `/categories/${ids.bebop}`,
        '/categories?hide_empty=0',
        '/tags?hide_empty=0',
        '/events?per_page=50&status=trash',
      ]) {
        const both = await readBoth(target, path);
        expect({ path, body: both.target, status: both.statuses[1] }).toEqual({ path, body: both.source, status: both.statuses[0] });
      }
      expect((await target.http().get(`${API}/tags/${ids.doomed}`)).status).toBe(400);
      expect((await target.http().get(`${API}/events/${ids.concert3}`)).body.code).toBe('event-no-longer-available');
    });
  });

  describe('conflict policies for records edited here since the last import', () => {
    let target: TestApp;
    const edit = (id: number, body: Json) => target.http().post(`${API}/events/${id}`).set('Authorization', basic(ADMIN)).send(body);
    const title = async (id: number) => (await target.http().get(`${API}/events/${id}`)).body.title as string;

    beforeAll(async () => {
      target = await startTestApp();
      expect((await importTec(target, ['--from', origin, ...CREDENTIALS])).code).toBe(0);
      await edit(ids.concert10, { title: 'Edited here' });
      await write('post', `/events/${ids.concert10}`, { title: 'Edited at the source' });
    }, 60_000);
    afterAll(() => target.close());

    it('skip (the default): leaves the local edit, lists the record and exits 1', async () => {
      const run = await importTec(target, ['--from', origin, ...CREDENTIALS]);
      expect(run.code).toBe(1);
      expect(run.error).toBe('1 record(s) could be read but were not imported (see "Skipped" above)');
      expect(run.lines).toContain(
        `  event ${ids.concert10}: edited here since the last import and changed at the source (--on-conflict skip)`,
      );
      expect(await title(ids.concert10)).toBe('Edited here');
    });

    it('keep-local: keeps the local edit and exits 0', async () => {
      const run = await importTec(target, ['--from', origin, ...CREDENTIALS, '--on-conflict', 'keep-local']);
      expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
      expect(summaryRow(run.lines, 'events')?.[3]).toBe(1);
      expect(await title(ids.concert10)).toBe('Edited here');
    });

    it('overwrite: the source wins, also over an edit the source did not answer', async () => {
      await edit(ids.concert11, { title: 'Only edited here' });
      const run = await importTec(target, ['--from', origin, ...CREDENTIALS, '--on-conflict', 'overwrite']);
      expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
      expect(await title(ids.concert10)).toBe('Edited at the source');
      expect(await title(ids.concert11)).toBe('Concert 11');
      // in step again: nothing left to decide
      const again = await importTec(target, ['--from', origin, ...CREDENTIALS]);
      expect(summaryRow(again.lines, 'events')).toEqual([0, 0, 57, 0, 0, 0, 0]);
    });

    it('skip and keep-local leave an edit alone when the source did not change the record', async () => {
      await edit(ids.concert12, { title: 'Local only' });
      const run = await importTec(target, ['--from', origin, ...CREDENTIALS]);
      expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
      expect(await title(ids.concert12)).toBe('Local only');
    });
  });

  it('--since imports only what the source modified since (with what it links to)', async () => {
    const target = await startTestApp();
    try {
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const since = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await write('post', `/events/${ids.concert20}`, { title: 'Concert 20 (changed)' });
      const run = await importTec(target, ['--from', origin, ...CREDENTIALS, '--since', since]);
      expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
      expect(summaryRow(run.lines, 'events')?.[0]).toBe(1);
      expect(run.lines[run.lines.findIndex((line) => /^ +created/.test(line))]).toMatch(/older/);
      expect((await target.http().get(`${API}/events/${ids.concert20}`)).body.title).toBe('Concert 20 (changed)');
      expect((await target.http().get(`${API}/events/${ids.concert21}`)).status).toBe(404);
      // the venue it links to came along, although older
      expect((await target.http().get(`${API}/venues/${ids.hall}`)).status).toBe(200);
    } finally {
      await target.close();
    }
  });

  describe('an anonymous sync', () => {
    it('trashes here what the public no longer sees', async () => {
      const target = await startTestApp();
      try {
        const event = await write('post', '/events', {
          title: 'Public for now',
          start_date: '2027-09-01 10:00',
          end_date: '2027-09-01 11:00',
        });
        expect((await importTec(target, ['--from', origin])).code).toBe(0);
        expect((await target.http().get(`${API}/events/${event.id}`)).status).toBe(200);
        await write('post', `/events/${event.id}`, { status: 'draft' });
        const run = await importTec(target, ['--from', origin]);
        expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
        expect(summaryRow(run.lines, 'events')?.[4]).toBe(1);
        expect((await target.http().get(`${API}/events/${event.id}`)).body.code).toBe('event-no-longer-available');
        // a draft at the source was never imported anonymously: nothing to trash for it
        expect((await target.http().get(`${API}/events/${ids.concert2}`)).status).toBe(404);
      } finally {
        await target.close();
      }
    });
  });

  describe('an anonymous sync after an import with credentials', () => {
    it('overwrites and trashes nothing it cannot see', async () => {
      const target = await startTestApp();
      try {
        const secretive = await write('post', '/organizers', {
          organizer: 'Secret Society',
          email: 'door@secret.example',
          post_password: 'knock-knock',
        });
        const event = await write('post', '/events', {
          title: 'Members evening',
          start_date: '2027-09-02 19:00',
          end_date: '2027-09-02 21:00',
        });
        expect((await importTec(target, ['--from', origin, ...CREDENTIALS])).code).toBe(0);
        await write('post', `/events/${event.id}`, { status: 'private' });
        const run = await importTec(target, ['--from', origin]);
        expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
        const here = (path: string) => target.http().get(`${API}${path}`).set('Authorization', basic(ADMIN));
        // private at the source now: this run cannot tell that from gone, and leaves it as it is
        expect((await here(`/events/${event.id}`)).body.status).toBe('publish');
        expect(summaryRow(run.lines, 'events')?.[4]).toBe(0);
        // a visitor sees the protected organizer without its e-mail: the e-mail here stays
        expect((await here(`/organizers/${secretive.id}`)).body.email).toBe('door@secret.example');
      } finally {
        await target.close();
      }
    }, 60_000);
  });

  describe('resuming', () => {
    let target: TestApp;
    let proxy: FakeServer;
    let failPage2 = true;
    const dataSource = () => target.app.get<DataSource>(getDataSourceToken());
    const isEventsPage = (url: string, page: number) =>
      /\/events\?/.test(url) && new URLSearchParams(url.split('?')[1]).get('page') === String(page) && /status=publish/.test(url);

    beforeAll(async () => {
      target = await startTestApp();
      proxy = await faultyProxy(origin, (req) =>
        failPage2 && req.headers.authorization && isEventsPage(req.url ?? '', 2) ? { status: 500 } : null,
      );
    });
    afterAll(async () => {
      await target.close();
      await proxy.close();
    });

    it('stops at the page the source fails on, exit 1 with the reason', async () => {
      const run = await importTec(target, ['--from', proxy.url, ...CREDENTIALS, ...FAST]);
      expect(run.code).toBe(1);
      expect(run.error).toMatch(
        /^GET http:\/\/127\.0\.0\.1:\d+\/wp-json\/tribe\/events\/v1\/events\?per_page=50&page=2.* answered 500 injected: Injected fault\. \(gave up after 3 attempts\)$/,
      );
      const [state] = await dataSource().query('SELECT status, phase, pages_done FROM import_runs ORDER BY id DESC LIMIT 1');
      expect({ ...state, pages_done: Number(state.pages_done) }).toEqual({ status: 'failed', phase: 'events', pages_done: 1 });
    });

    it('resumes at the next page: page 1 is not read again', async () => {
      failPage2 = false;
      const before = proxy.requests.length;
      const run = await importTec(target, ['--from', proxy.url, ...CREDENTIALS, ...FAST]);
      expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
      expect(run.lines[0]).toMatch(/^Run \d+ of .* resumed at events\.$|resumed/);
      const later = proxy.requests.slice(before).map((request) => request.url);
      expect(later.filter((url) => isEventsPage(url, 1))).toEqual([]);
      expect(later.filter((url) => isEventsPage(url, 2))).toHaveLength(1);
      // the phases before are done: their lists are not read with the credentials again (the visitor's scan is)
      expect(proxy.requests.slice(before).filter((request) => request.auth && /\/venues\?per_page=50/.test(request.url))).toEqual([]);
      const [{ n }] = await dataSource().query("SELECT COUNT(*) AS n FROM events WHERE status <> 'trash'");
      const sourceCount = (
        await source.http().get(`${API}/events?per_page=1&status=any&start_date=1900-01-01&end_date=2199-12-31`).set('Authorization', admin)
      ).body.total;
      // every listed event, and the hidden one
      expect(Number(n)).toBe(sourceCount + 1);
    });

    it('resumes a run whose process died (no sign of life), and refuses to run beside a live one', async () => {
      await dataSource().query(
        "UPDATE import_runs SET status = 'running', phase = 'events', pages_done = 1, heartbeat_utc = '2020-01-01 00:00:00' WHERE id = (SELECT id FROM (SELECT MAX(id) AS id FROM import_runs) AS latest)",
      );
      const resumed = await importTec(target, ['--from', proxy.url, ...CREDENTIALS, ...FAST]);
      expect(resumed.code).toBe(0);
      expect(resumed.lines.join('\n')).toMatch(/resumed at events/);
      const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
      await dataSource().query(
        `UPDATE import_runs SET status = 'running', heartbeat_utc = '${now}' WHERE id = (SELECT id FROM (SELECT MAX(id) AS id FROM import_runs) AS latest)`,
      );
      const refused = await importTec(target, ['--from', proxy.url, ...CREDENTIALS]);
      expect(refused.code).toBe(1);
      expect(refused.error).toMatch(
        /^an import of http:\/\/127\.0\.0\.1:\d+\/wp-json\/tribe\/events\/v1 is already running \(run \d+, started /,
      );
      await dataSource().query("UPDATE import_runs SET status = 'completed', phase = 'done'");
    });

    it('a stop request finishes the page, exits 1 without --watch, and the next run goes on from there', async () => {
      const fresh = await startTestApp();
      try {
        let stop = false;
        const watched = proxy.requests.length;
        const interrupted = await importTec(fresh, ['--from', proxy.url, ...CREDENTIALS], () => {
          stop ||= proxy.requests.slice(watched).some((request) => isEventsPage(request.url, 1) && request.auth);
          return stop;
        });
        expect(interrupted.code).toBe(1);
        expect(interrupted.error).toBe('interrupted before the end: run the same command again to resume');
        const [state] = await fresh.app.get<DataSource>(getDataSourceToken()).query('SELECT status, phase, pages_done FROM import_runs');
        expect({ ...state, pages_done: Number(state.pages_done) }).toEqual({ status: 'interrupted', phase: 'events', pages_done: 1 });
        const resumed = await importTec(fresh, ['--from', proxy.url, ...CREDENTIALS]);
        expect({ code: resumed.code, error: resumed.error }).toEqual({ code: 0, error: null });
      } finally {
        await fresh.close();
      }
    });

    it('--watch syncs again until stopped; a stop finishes the page and exits 0', async () => {
      const start = proxy.requests.length;
      const syncs = () => proxy.requests.slice(start).filter((request) => /\/wp-json\/$/.test(request.url)).length;
      const run = await importTec(target, ['--from', proxy.url, ...CREDENTIALS, '--watch', '0.01'], () => syncs() >= 2);
      expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
      expect(run.lines.filter((line) => /^Import \(run \d+\) of /.test(line))).toHaveLength(2);
      expect(run.lines).toContain('Next sync in 0.01 minute(s).');
      expect(run.lines.at(-1)).toBe('Stopped.');
    }, 30_000);
  });

  describe('retries', () => {
    it('waits out 429 (Retry-After), 500 and a request that never answers, and imports everything', async () => {
      const target = await startTestApp();
      const seen = new Map<string, number>();
      const proxy = await faultyProxy(origin, (req) => {
        const url = req.url ?? '';
        const key = url.replace(/\?.*/, '');
        const count = (seen.get(key) ?? 0) + 1;
        seen.set(key, count);
        if (key.endsWith('/v1/events') && count === 1)
          return { status: 429, headers: { 'retry-after': '1', 'content-type': 'application/json' } };
        if (key.endsWith('/v1/events') && count === 2) return { status: 500 };
        if (key.endsWith('/v1/venues') && count === 1) return 'hang';
        if (key.endsWith('/v1/tags') && count === 1)
          return { status: 503, headers: { 'retry-after': 'Thu, 01 Jan 1970 00:00:00 GMT', 'content-type': 'application/json' } };
        return null;
      });
      try {
        const started = Date.now();
        const run = await importTec(target, ['--from', proxy.url, ...CREDENTIALS, '--timeout', '1', '--retry-base', '20']);
        expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
        expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
        const statuses = (path: string) =>
          proxy.requests.filter((request) => request.url.replace(/\?.*/, '').endsWith(path)).map((request) => request.status);
        expect(statuses('/v1/events').slice(0, 3)).toEqual([429, 500, 200]);
        expect(statuses('/v1/venues').slice(0, 2)).toEqual([0, 200]);
        expect(statuses('/v1/tags').slice(0, 2)).toEqual([503, 200]);
        expect(summaryRow(run.lines, 'events')?.[0]).toBeGreaterThan(50);
      } finally {
        await target.close();
        await proxy.close();
      }
    }, 60_000);

    it('gives up with one line when the source keeps failing', async () => {
      const target = await startTestApp();
      const proxy = await faultyProxy(origin, (req) => (/\/v1\/organizers\?/.test(req.url ?? '') ? { status: 502 } : null));
      try {
        const run = await importTec(target, ['--from', proxy.url, ...CREDENTIALS, '--retries', '1', '--retry-base', '10']);
        expect(run.code).toBe(1);
        expect(run.error).toMatch(/\/organizers\?.* answered 502 injected: Injected fault\. \(gave up after 2 attempts\)$/);
        // printed once, on standard error, not repeated in the summary
        expect(run.lines.some((line) => line.includes(run.error as string))).toBe(false);
      } finally {
        await target.close();
        await proxy.close();
      }
    });
  });

  describe('sources that are not the reference API', () => {
    let target: TestApp;
    beforeAll(async () => {
      target = await startTestApp();
    });
    afterAll(() => target.close());

    const expectRefusal = async (server: FakeServer, pattern: RegExp, extra: string[] = []) => {
      try {
        const run = await importTec(target, ['--from', server.url, ...FAST, ...extra]);
        expect(run.code).toBe(1);
        expect(run.error).toMatch(pattern);
        expect(run.error).not.toContain('\n');
      } finally {
        await server.close();
      }
    };

    it('an HTML site', async () => {
      await expectRefusal(
        await fakeServer(() => ({
          status: 200,
          headers: { 'content-type': 'text/html' },
          body: '<!doctype html><html><body>Welcome</body></html>',
        })),
        /^http:\/\/127\.0\.0\.1:\d+\/wp-json\/ answered an HTML page instead of JSON: the index of a WordPress REST API is not there \(is --from right\?\)$/,
      );
    });

    it('WordPress without The Events Calendar', async () => {
      await expectRefusal(
        await fakeServer(() => ({ status: 200, body: JSON.stringify({ name: 'Blog', namespaces: ['oembed/1.0', 'wp/v2'], routes: {} }) })),
        /^http:\/\/127\.0\.0\.1:\d+\/wp-json\/ has no tribe\/events\/v1 namespace: The Events Calendar is not active there \(namespaces: oembed\/1\.0, wp\/v2\)$/,
      );
    });

    it('wrong credentials (401) and a site that refuses them (403)', async () => {
      const wrong = await importTec(target, ['--from', origin, '--user', 'admin', '--password', 'not-the-password']);
      expect(wrong.code).toBe(1);
      expect(wrong.error).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/wp-json\/ refused the request \(401 incorrect_password: .*\): check --user and --password \(an application password\)$/,
      );
      await expectRefusal(
        await fakeServer(() => ({
          status: 403,
          body: JSON.stringify({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } }),
        })),
        /refused the request \(403 rest_forbidden: Sorry, you are not allowed to do that\.\): check --user and --password/,
        ['--user', 'someone', '--password', 'something'],
      );
    });

    it('a source that cannot be reached', async () => {
      // a port below the system's range for ephemeral ports, where nothing listens: a port freed by a
      // server of this test could be taken at once by another test's server (both databases' runs share the machine)
      const url = 'http://127.0.0.1:2';
      const run = await importTec(target, ['--from', url, '--retries', '1', '--retry-base', '10']);
      expect(run.code).toBe(1);
      expect(run.error).toMatch(
        /^cannot reach http:\/\/127\.0\.0\.1:\d+\/wp-json\/: the server could not be reached \(gave up after 2 attempts\)$/,
      );
    });

    it('bad options', async () => {
      expect((await importTec(target, ['--from', 'ftp://example.org'])).error).toBe('--from must be an http(s) URL, not ftp:');
      expect((await importTec(target, ['--from', origin, '--on-conflict', 'merge'])).error).toBe(
        '--on-conflict must be overwrite, keep-local or skip, not "merge"',
      );
      expect((await importTec(target, ['--from', origin, '--since', 'someday'])).error).toMatch(/^--since: "someday" is not a date/);
      expect((await importTec(target, ['--from', origin, '--author', 'nobody'])).error).toMatch(
        /^--author: no user has the login "nobody" here/,
      );
    });
  });
});
