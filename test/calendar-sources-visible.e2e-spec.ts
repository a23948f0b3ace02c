import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { nowUtcWall } from '../src/common/dates/wall-time.js';
import { DEFAULT_EDITIONS } from '../src/config/http-config.js';
import { CalendarSourceRunEntity } from '../src/sources/calendar-source-run.entity.js';
import { CalendarSourceEntity } from '../src/sources/calendar-source.entity.js';
import { ABANDONED_RUN_ERROR } from '../src/sources/source-run-history.js';
import { SourceScheduler } from '../src/sources/source-scheduler.js';
import { parseScrape } from './support/prometheus-text.js';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app.js';
import { addSource, calendar, runSource, startFeedServer, vevent, type FeedServer } from './support/feed-server.js';

const admin = { Authorization: basic(ADMIN) };
const TOKEN = 'sources-metrics-token-0b9e5c1d7a';
const RUNS_KEPT = 3;

/** Imported events named by source and UID, per-source metrics, runs a stopped process left behind, pruned run history. */
describe('calendar sources: what administrators and operators see', () => {
  let t: TestApp;
  let feeds: FeedServer;
  let db: DataSource;

  beforeAll(async () => {
    feeds = await startFeedServer();
    t = await startTestApp({
      OUTBOUND_ALLOW_PRIVATE: new URL(feeds.url('/')).host,
      METRICS_TOKEN: TOKEN,
      SOURCE_RUNS_KEPT: String(RUNS_KEPT),
    });
    db = t.app.get<DataSource>(getDataSourceToken());
  });
  afterAll(async () => {
    await t.close();
    await feeds.close();
  });

  const scrape = async () => {
    const res = await t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    return parseScrape(res.text);
  };

  it('lists the events a source imported with their UID and RECURRENCE-ID, paged, for administrators only', async () => {
    feeds.serve(
      '/club.ics',
      calendar(
        vevent(
          'UID:single-1',
          'SUMMARY:Open day',
          'DTSTART;TZID=Europe/Berlin:20270305T100000',
          'DTEND;TZID=Europe/Berlin:20270305T160000',
        ),
        vevent(
          'UID:weekly-1',
          'SUMMARY:Choir practice',
          'DTSTART;TZID=Europe/Berlin:20270302T190000',
          'DTEND;TZID=Europe/Berlin:20270302T210000',
          'RRULE:FREQ=WEEKLY;COUNT=5',
        ),
        vevent(
          'UID:weekly-1',
          'RECURRENCE-ID;TZID=Europe/Berlin:20270309T190000',
          'SUMMARY:Choir practice (hall B)',
          'DTSTART;TZID=Europe/Berlin:20270309T200000',
          'DTEND;TZID=Europe/Berlin:20270309T220000',
        ),
      ),
    );
    const id = await addSource(t, { url: feeds.url('/club.ics') });
    expect((await runSource(t, id)).status).toBe('completed');

    const source = (await t.http().get(`${API}/sources/${id}`).set(admin)).body;
    expect(source.events_url).toBe(`${PUBLIC_URL}${API}/sources/${id}/events`);
    const res = await t.http().get(`${API}/sources/${id}/events`).set(admin);
    expect(res.status).toBe(200);
    expect(res.headers['x-wp-total']).toBe('3');
    expect(res.headers['x-wp-totalpages']).toBe('1');
    const items = res.body.events as Array<Record<string, unknown>>;
    expect(items.map((item) => Object.keys(item))).toEqual(
      items.map(() => ['uid', 'recurrence_id', 'event_id', 'title', 'status', 'start_date', 'rest_url']),
    );
    const ids = items.map((item) => item.event_id as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(items.map(({ uid, recurrence_id, title, status, start_date }) => ({ uid, recurrence_id, title, status, start_date }))).toEqual(
      expect.arrayContaining([
        { uid: 'single-1', recurrence_id: null, title: 'Open day', status: 'publish', start_date: '2027-03-05 10:00:00' },
        { uid: 'weekly-1', recurrence_id: null, title: 'Choir practice', status: 'publish', start_date: '2027-03-02 19:00:00' },
        {
          uid: 'weekly-1',
          recurrence_id: '2027-03-09 18:00:00',
          title: 'Choir practice (hall B)',
          status: 'publish',
          start_date: '2027-03-09 20:00:00',
        },
      ]),
    );
    expect(res.body).toMatchObject({ rest_url: `${PUBLIC_URL}${API}/sources/${id}/events/?page=1&per_page=6`, total: 3, total_pages: 1 });
    for (const item of items) {
      expect(item.rest_url).toBe(`${PUBLIC_URL}${API}/events/${item.event_id as number}`);
      // the v1 event answers stay as they were: nothing about sources in them
      const event = await t
        .http()
        .get(`${API}/events/${item.event_id as number}`)
        .set(admin);
      expect(event.status).toBe(200);
      expect(Object.keys(event.body).filter((key) => /uid|source/i.test(key))).toEqual([]);
      expect(event.body.title).toBe(item.title);
    }

    const paged = await t.http().get(`${API}/sources/${id}/events?per_page=2&page=2`).set(admin);
    expect(paged.headers['x-wp-total']).toBe('3');
    expect(paged.headers['x-wp-totalpages']).toBe('2');
    expect(paged.body.previous_rest_url).toBe(`${PUBLIC_URL}${API}/sources/${id}/events/?per_page=2`);
    expect(paged.headers.link).toContain(`<${paged.body.previous_rest_url as string}>; rel="prev"`);
    expect(paged.body.events).toEqual([items[2]]);
    expect((await t.http().get(`${API}/sources/${id}/events?page=0`).set(admin)).body.code).toBe('rest_invalid_param');

    const unknown = await t.http().get(`${API}/sources/424242/events`).set(admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 'rest_source_not_found', message: 'No calendar source has ID 424242.', data: { status: 404 } });
    expect((await t.http().get(`${API}/sources/${id}/events`)).status).toBe(401);
    const editor = await t.user('editor');
    const refused = await t.http().get(`${API}/sources/${id}/events`).set('Authorization', basic(editor));
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'rest_forbidden' });
  });

  it('is in the namespace index and /doc of every edition, in its language', async () => {
    const route = `/tribe/events/v1/sources/(?P<id>\\d+)/events`;
    const english = (await t.http().get(`${API}/doc`)).body.paths['/sources/{id}/events'].get;
    expect(english.summary).toBe('List the events of a calendar source');
    for (const lang of DEFAULT_EDITIONS.split(',')) {
      const prefix = lang === 'en' ? '' : `/${lang}`;
      const entry = (await t.http().get(`${prefix}${API}`)).body.routes[route];
      expect({ lang, methods: entry?.methods, args: Object.keys(entry?.endpoints[0].args ?? {}).sort() }).toEqual({
        lang,
        methods: ['GET'],
        args: ['id', 'page', 'per_page'],
      });
      const operation = (await t.http().get(`${prefix}${API}/doc`)).body.paths['/sources/{id}/events'].get;
      expect(operation.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual(['id', 'page', 'per_page']);
      if (lang !== 'en') {
        expect({ lang, same: operation.summary === english.summary || operation.description === english.description }).toEqual({
          lang,
          same: false,
        });
      }
    }
    const german = (await t.http().get(`/de${API}`)).body.routes[route];
    expect(german.endpoints[0].args.id.description).toBe('ID der Kalenderquelle.');
    const doc = (await t.http().get(`/de${API}/doc`)).body;
    expect(doc.paths['/sources/{id}/events'].get.summary).toBe('Die Veranstaltungen einer Kalenderquelle auflisten');
  });

  it('counts runs, event changes and failures per source in /metrics', async () => {
    feeds.serve('/counted.ics', calendar(vevent('UID:counted-1', 'SUMMARY:Counted', 'DTSTART:20271101T100000Z', 'DURATION:PT1H')));
    const id = await addSource(t, { url: feeds.url('/counted.ics') });
    const source = String(id);
    await runSource(t, id);
    feeds.serve(
      '/counted.ics',
      calendar(
        vevent('UID:counted-1', 'SUMMARY:Counted again', 'DTSTART:20271101T100000Z', 'DURATION:PT1H'),
        vevent('UID:counted-2', 'SUMMARY:Counted too', 'DTSTART:20271102T100000Z', 'DURATION:PT1H'),
        vevent('UID:broken', 'SUMMARY:No start'),
      ),
    );
    await runSource(t, id);
    await runSource(t, id); // 304: not modified
    feeds.serve('/counted.ics', calendar(vevent('UID:counted-2', 'SUMMARY:Counted too', 'DTSTART:20271102T100000Z', 'DURATION:PT1H')));
    await runSource(t, id);
    feeds.serve('/counted.ics', null);
    await runSource(t, id); // 404: failed

    const metrics = await scrape();
    const value = (name: string, labels: Record<string, string>) => metrics.value(name, { source_id: source, ...labels });
    expect(metrics.families.get('calendar_source_runs_total')?.type).toBe('COUNTER');
    expect({
      completed: value('calendar_source_runs_total', { outcome: 'completed' }),
      not_modified: value('calendar_source_runs_total', { outcome: 'not_modified' }),
      failed: value('calendar_source_runs_total', { outcome: 'failed' }),
      created: value('calendar_source_events_total', { change: 'created' }),
      updated: value('calendar_source_events_total', { change: 'updated' }),
      trashed: value('calendar_source_events_total', { change: 'trashed' }),
      failedRuns: value('calendar_source_failures_total', { kind: 'run' }),
      refused: value('calendar_source_failures_total', { kind: 'component' }),
    }).toEqual({ completed: 3, not_modified: 1, failed: 1, created: 2, updated: 1, trashed: 1, failedRuns: 1, refused: 1 });
  });

  /** A run row as a process that stopped leaves it: `running`, its source's lease held until `leaseUntil`. */
  const leaveRunning = async (sourceId: number, leaseUntil: Date) => {
    const runs = db.getRepository(CalendarSourceRunEntity);
    const run = await runs.save(
      runs.create({
        sourceId,
        startedBy: 'schedule',
        status: 'running',
        httpStatus: null,
        counts: { created: 0, updated: 0, unchanged: 0, kept: 0, trashed: 0, refused: 0 },
        problems: [],
        error: null,
        startedUtc: nowUtcWall(new Date(leaseUntil.getTime() - 6 * 60_000)),
        finishedUtc: null,
      }),
    );
    await db
      .getRepository(CalendarSourceEntity)
      .update({ id: sourceId }, { leaseToken: 'a-process-that-died', leaseUntilUtc: nowUtcWall(leaseUntil) });
    return run.id;
  };
  const runsOf = async (id: number) =>
    (await t.http().get(`${API}/sources/${id}/runs?per_page=50`).set(admin)).body.runs as Array<Record<string, any>>;

  it('closes as failed a run left running by a process whose lease ran out, at "run now" and at the look of the schedule', async () => {
    feeds.serve('/abandoned.ics', calendar(vevent('UID:abandoned-1', 'SUMMARY:Still here', 'DTSTART:20271201T100000Z')));
    const id = await addSource(t, { url: feeds.url('/abandoned.ics') });

    // the lease still holds: nobody may take the source, and the run stays running
    const held = await leaveRunning(id, new Date(Date.now() + 60_000));
    expect((await t.http().post(`${API}/sources/${id}/run`).set(admin)).status).toBe(409);
    await t.app.get(SourceScheduler).wake();
    expect((await runsOf(id)).find((run) => run.id === held)?.status).toBe('running');

    // the lease ran out: "run now" takes the source, closes the old run, and runs
    await db.getRepository(CalendarSourceEntity).update({ id }, { leaseUntilUtc: nowUtcWall(new Date(Date.now() - 1000)) });
    const run = await runSource(t, id);
    expect(run.status).toBe('completed');
    const old = (await runsOf(id)).find((one) => one.id === held);
    expect(old).toMatchObject({ status: 'failed', error: ABANDONED_RUN_ERROR, counts: { created: 0 } });
    expect(old?.finished_utc).toEqual(expect.any(String));

    // a paused source, which the schedule never runs: its look closes the run all the same, and leaves the source free and not due
    const before = (await t.http().get(`${API}/sources/${id}`).set(admin)).body.next_run_utc as string;
    const left = await leaveRunning(id, new Date(Date.now() - 1000));
    const failedBefore = (await scrape()).value('calendar_source_failures_total', { source_id: String(id), kind: 'run' }) ?? 0;
    await t.app.get(SourceScheduler).wake();
    expect((await runsOf(id)).find((one) => one.id === left)).toMatchObject({ status: 'failed', error: ABANDONED_RUN_ERROR });
    const after = await db.getRepository(CalendarSourceEntity).findOneByOrFail({ id });
    expect({ token: after.leaseToken, until: after.leaseUntilUtc, next: after.nextRunUtc }).toEqual({
      token: null,
      until: null,
      next: before,
    });
    expect((await runsOf(id)).filter((one) => one.status === 'running')).toEqual([]);
    expect((await scrape()).value('calendar_source_failures_total', { source_id: String(id), kind: 'run' })).toBe(failedBefore + 1);
  });

  it(`keeps the newest SOURCE_RUNS_KEPT runs of each source (${RUNS_KEPT} here)`, async () => {
    feeds.serve('/pruned.ics', calendar(vevent('UID:pruned-1', 'SUMMARY:Pruned', 'DTSTART:20271215T100000Z')));
    const id = await addSource(t, { url: feeds.url('/pruned.ics') });
    const other = await addSource(t, { url: feeds.url('/pruned.ics') });
    await runSource(t, other);
    const started: number[] = [];
    for (let index = 0; index < RUNS_KEPT + 2; index++) started.push((await runSource(t, id)).id as number);
    const runs = await t.http().get(`${API}/sources/${id}/runs`).set(admin);
    expect(runs.headers['x-wp-total']).toBe(String(RUNS_KEPT));
    expect(runs.body.runs.map((run: { id: number }) => run.id)).toEqual(started.slice(-RUNS_KEPT).reverse());
    expect(await db.getRepository(CalendarSourceRunEntity).countBy({ sourceId: id })).toBe(RUNS_KEPT);
    // another source's runs are its own
    expect((await runsOf(other)).length).toBe(1);
  });
});
