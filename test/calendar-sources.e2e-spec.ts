import { buildProgram } from '../src/cli/commands.js';
import { LoginLocks } from '../src/limits/login-locks.js';
import { SourceScheduler } from '../src/sources/source-scheduler.js';
import { SourcesService } from '../src/sources/sources.service.js';
import { FeedTokensService } from '../src/users/feed-tokens.service.js';
import { UsersService } from '../src/users/users.service.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';
import { calendar, runSource, startFeedServer, vevent, type FeedServer } from './support/feed-server.js';

const admin = { Authorization: basic(ADMIN) };

describe('calendar sources: the routes', () => {
  let t: TestApp;
  let feeds: FeedServer;
  let other: FeedServer;

  beforeAll(async () => {
    feeds = await startFeedServer();
    other = await startFeedServer();
    // only the first feed server's port is allowed: loopback elsewhere stays refused
    t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE: new URL(feeds.url('/')).host });
  });
  afterAll(async () => {
    await t.close();
    await feeds.close();
    await other.close();
  });

  it('creates, lists, reads, updates and deletes a source, in the contract shape', async () => {
    const category = (await t.http().post(`${API}/categories`).set(admin).send({ name: 'Partners' })).body.id as number;
    const created = await t
      .http()
      .post(`${API}/sources`)
      .set(admin)
      .send({ url: feeds.url('/a.ics').replace('http://', 'http://'), refresh_minutes: 30, default_categories: [category], paused: true });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`http://calendar.test${API}/sources/${created.body.id}`);
    expect(created.body).toMatchObject({
      url: feeds.url('/a.ics'),
      refresh_minutes: 30,
      default_categories: [category],
      default_tags: [],
      default_organizer: null,
      default_venue: null,
      default_status: 'publish',
      update_authority: 'keep-local-edits',
      trash_missing: true,
      paused: true,
      last_run: null,
      runs_url: `http://calendar.test${API}/sources/${created.body.id}/runs`,
    });
    const id = created.body.id as number;
    const list = await t.http().get(`${API}/sources`).set(admin);
    expect(list.status).toBe(200);
    expect(list.headers['x-wp-total']).toBe('1');
    expect(list.body.sources.map((source: { id: number }) => source.id)).toEqual([id]);
    const updated = await t
      .http()
      .patch(`${API}/sources/${id}`)
      .set(admin)
      .send({ update_authority: 'overwrite', default_status: 'draft', default_categories: [] });
    expect(updated.body).toMatchObject({ update_authority: 'overwrite', default_status: 'draft', default_categories: [] });
    expect((await t.http().get(`${API}/sources/${id}`).set(admin)).body.update_authority).toBe('overwrite');
    const removed = await t.http().delete(`${API}/sources/${id}`).set(admin);
    expect(removed.body.id).toBe(id);
    const gone = await t.http().get(`${API}/sources/${id}`).set(admin);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 'rest_source_not_found', message: `No calendar source has ID ${id}.`, data: { status: 404 } });
  });

  it('reads webcal:// as https://', async () => {
    const host = new URL(feeds.url('/')).host;
    const res = await t
      .http()
      .post(`${API}/sources`)
      .set(admin)
      .send({ url: `webcal://${host}/club.ics`, paused: true });
    expect(res.status).toBe(201);
    expect(res.body.url).toBe(`https://${host}/club.ics`);
    await t.http().delete(`${API}/sources/${res.body.id}`).set(admin);
  });

  it('names every invalid field in one 400, and answers 401, 403 and 404', async () => {
    const bad = await t
      .http()
      .post(`${API}/sources`)
      .set(admin)
      .send({
        url: 'ftp://example.org/x.ics',
        refresh_minutes: 1,
        default_categories: [999999],
        default_venue: 999999,
        default_status: 'future',
        update_authority: 'sometimes',
        paused: 'perhaps',
      });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    expect(Object.keys(bad.body.data.params)).toEqual([
      'url',
      'refresh_minutes',
      'default_categories',
      'default_venue',
      'default_status',
      'update_authority',
      'paused',
    ]);
    const missing = await t.http().post(`${API}/sources`).set(admin).send({});
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('rest_missing_callback_param');
    expect((await t.http().get(`${API}/sources`)).status).toBe(401);
    const editor = await t.user('editor');
    for (const [method, path] of [
      ['get', '/sources'],
      ['post', '/sources'],
      ['get', '/sources/1'],
      ['post', '/sources/1/run'],
      ['get', '/sources/1/runs'],
      ['delete', '/sources/1'],
    ] as const) {
      const res = await t
        .http()
        [method](`${API}${path}`)
        .set('Authorization', basic(editor))
        .send(method === 'post' && path === '/sources' ? { url: feeds.url('/x.ics') } : {});
      expect({ path, method, status: res.status, code: res.body.code }).toEqual({ path, method, status: 403, code: 'rest_forbidden' });
    }
    for (const path of ['/sources/424242', '/sources/424242/runs'])
      expect((await t.http().get(`${API}${path}`).set(admin)).status).toBe(404);
    expect((await t.http().post(`${API}/sources/424242/run`).set(admin)).status).toBe(404);
  });

  it('refuses loopback and private addresses the operator did not allow, also behind a redirect', async () => {
    const refused = await t
      .http()
      .post(`${API}/sources`)
      .set(admin)
      .send({ url: other.url('/feed.ics') });
    expect(refused.status).toBe(400);
    expect(refused.body.data.params.url).toMatch(/OUTBOUND_ALLOW_PRIVATE/);
    for (const url of ['http://10.1.2.3/feed.ics', 'http://[::1]/feed.ics', 'http://169.254.169.254/latest']) {
      const res = await t.http().post(`${API}/sources`).set(admin).send({ url });
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
    }
    other.serve('/feed.ics', calendar(vevent('UID:hidden', 'SUMMARY:Hidden', 'DTSTART:20270101T100000Z')));
    feeds.redirect('/moved.ics', other.url('/feed.ics'));
    const created = await t
      .http()
      .post(`${API}/sources`)
      .set(admin)
      .send({ url: feeds.url('/moved.ics'), paused: true });
    expect(created.status).toBe(201);
    const run = await runSource(t, created.body.id);
    expect(run).toMatchObject({ status: 'failed', http_status: null, counts: { created: 0 } });
    expect(run.error).toMatch(/not allowed/);
    expect(other.requests).toEqual([]);
  });

  it('reports a feed that answers an error, and a file that is not iCalendar, on the run', async () => {
    const created = await t
      .http()
      .post(`${API}/sources`)
      .set(admin)
      .send({ url: feeds.url('/missing.ics'), paused: true });
    const missing = await runSource(t, created.body.id);
    expect(missing).toMatchObject({ status: 'failed', http_status: 404, error: 'the feed answered HTTP 404' });
    feeds.serve('/missing.ics', '<html>not a calendar</html>');
    const html = await runSource(t, created.body.id);
    expect(html).toMatchObject({ status: 'failed', http_status: 200 });
    expect(html.error).toMatch(/not an iCalendar file/);
    const source = (await t.http().get(`${API}/sources/${created.body.id}`).set(admin)).body;
    expect(source.last_run.id).toBe(html.id);
  });

  it('adds, lists, runs and deletes sources from the command line', async () => {
    const lines: string[] = [];
    const cli = (...args: string[]) =>
      buildProgram(
        {
          users: async () => t.app.get(UsersService),
          loginLocks: async () => t.app.get(LoginLocks),
          feedTokens: async () => t.app.get(FeedTokensService),
          sources: async () => t.app.get(SourcesService),
        },
        { out: (line) => lines.push(line) },
      ).parseAsync(['node', 'cli', ...args]);
    feeds.serve('/cli.ics', calendar(vevent('UID:cli-1', 'SUMMARY:From the shell', 'DTSTART:20271001T100000Z', 'DURATION:PT1H')));
    await cli('source:add', '--url', feeds.url('/cli.ics'), '--authority', 'overwrite', '--refresh', '15', '--paused');
    const id = Number(/^Added source (\d+)\tpaused\toverwrite\tevery 15 min\t/.exec(lines[0])?.[1]);
    expect(id).toBeGreaterThan(0);
    lines.length = 0;
    await cli('source:list');
    expect(lines.find((line) => line.startsWith(`${id}\t`))).toBe(
      `${id}\tpaused\toverwrite\tevery 15 min\t${feeds.url('/cli.ics')}\tnever run`,
    );
    // a run asked for on the command line is made by the server at its next look at the schedule
    await t.http().patch(`${API}/sources/${id}`).set(admin).send({ paused: false, refresh_minutes: 600 });
    await t.app.get(SourceScheduler).wake();
    lines.length = 0;
    await cli('source:run', '--id', String(id));
    expect(lines[0]).toMatch(new RegExp(`^Source ${id} is due now`));
    await t.app.get(SourceScheduler).wake();
    lines.length = 0;
    await cli('source:runs', '--id', String(id));
    expect(lines).toEqual([
      expect.stringMatching(/\tschedule\tnot_modified: 0 created/),
      expect.stringMatching(/\tschedule\tcompleted: 1 created, 0 updated, 0 unchanged, 0 kept, 0 trashed, 0 refused$/),
    ]);
    await cli('source:delete', '--id', String(id));
    expect(lines.at(-1)).toBe(`Deleted source ${id} (${feeds.url('/cli.ics')}).`);
    expect((await t.http().get(`${API}/sources/${id}`).set(admin)).status).toBe(404);
  });
});
