import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';
import { addSource, calendar, runSource, startFeedServer, vevent, type FeedServer } from './support/feed-server.js';

const admin = { Authorization: basic(ADMIN) };

describe('calendar sources: sync', () => {
  let t: TestApp;
  let feeds: FeedServer;

  beforeAll(async () => {
    t = await startTestApp();
    feeds = await startFeedServer();
  });
  afterAll(async () => {
    await t.close();
    await feeds.close();
  });

  const events = async () =>
    (await t.http().get(`${API}/events?per_page=50&status=publish,draft&start_date=2020-01-01&end_date=2030-12-31`).set(admin)).body
      .events as Array<Record<string, any>>;

  it('imports a single event, a series with an exception and a cancelled occurrence', async () => {
    feeds.serve(
      '/club.ics',
      calendar(
        vevent(
          'UID:single-1',
          'SUMMARY:Open day',
          'DTSTART;TZID=Europe/Berlin:20270305T100000',
          'DTEND;TZID=Europe/Berlin:20270305T160000',
          'LOCATION:Town Hall',
          'DESCRIPTION:Doors open at ten.\\nBring a friend.',
          'CATEGORIES:Community,Open',
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
        vevent(
          'UID:weekly-1',
          'RECURRENCE-ID;TZID=Europe/Berlin:20270316T190000',
          'STATUS:CANCELLED',
          'SUMMARY:Choir practice',
          'DTSTART;TZID=Europe/Berlin:20270316T190000',
          'DTEND;TZID=Europe/Berlin:20270316T210000',
        ),
      ),
    );
    const id = await addSource(t, { url: feeds.url('/club.ics'), update_authority: 'overwrite' });
    const run = await runSource(t, id);
    expect(run).toMatchObject({ status: 'completed', http_status: 200, error: null });
    expect(run.problems).toEqual([]);
    const all = await events();
    const titles = all.map((event) => `${event.start_date} ${event.title}`).sort();
    expect(titles).toEqual([
      '2027-03-02 19:00:00 Choir practice',
      '2027-03-05 10:00:00 Open day',
      '2027-03-09 20:00:00 Choir practice (hall B)',
      '2027-03-23 19:00:00 Choir practice',
      '2027-03-30 19:00:00 Choir practice',
    ]);
    const open = all.find((event) => event.title === 'Open day');
    expect(open).toMatchObject({ timezone: 'Europe/Berlin', description: '<p>Doors open at ten.<br />Bring a friend.</p>' });
    expect(open?.venue.venue).toBe('Town Hall');
    expect(open?.categories.map((category: { name: string }) => category.name).sort()).toEqual(['Community', 'Open']);
  });

  const changesSince = async (cursor: string) =>
    (await t.http().get(`${API}/changes?since=${cursor}&per_page=500`).set(admin)).body.changes as Array<{ id: number; action: string }>;
  const cursorNow = async () => (await t.http().get(`${API}/changes?since=now`).set(admin)).body.next_cursor as string;
  const eventsOf = async (sourceTitle: string) => (await events()).filter((event) => String(event.title).startsWith(sourceTitle));

  const league = (changes: { moved?: boolean; cancelled?: boolean; removed?: boolean; exception?: boolean; rule?: string }) =>
    calendar(
      vevent(
        'UID:match-1',
        'SUMMARY:League match 1',
        `DTSTART:${changes.moved ? '20270410T170000Z' : '20270410T150000Z'}`,
        'DURATION:PT2H',
      ),
      vevent(
        'UID:match-2',
        'SUMMARY:League match 2',
        'DTSTART:20270417T150000Z',
        'DURATION:PT2H',
        ...(changes.cancelled ? ['STATUS:CANCELLED'] : []),
      ),
      ...(changes.removed ? [] : [vevent('UID:match-3', 'SUMMARY:League match 3', 'DTSTART:20270424T150000Z', 'DURATION:PT2H')]),
      vevent(
        'UID:training',
        'SUMMARY:League training',
        'DTSTART;TZID=America/New_York:20270405T180000',
        'DTEND;TZID=America/New_York:20270405T193000',
        `RRULE:${changes.rule ?? 'FREQ=WEEKLY;COUNT=4'}`,
      ),
      ...(changes.exception
        ? [
            vevent(
              'UID:training',
              'RECURRENCE-ID;TZID=America/New_York:20270412T180000',
              'SUMMARY:League training (outdoors)',
              'DTSTART;TZID=America/New_York:20270412T170000',
              'DTEND;TZID=America/New_York:20270412T183000',
            ),
          ]
        : []),
    );

  it('follows a feed changed between runs, writes only what changed, and costs one 304 when nothing did', async () => {
    feeds.serve('/league.ics', league({}));
    const id = await addSource(t, { url: feeds.url('/league.ics'), update_authority: 'overwrite' });
    expect((await runSource(t, id)).counts).toMatchObject({ created: 4, refused: 0 });
    expect((await eventsOf('League')).length).toBe(7);

    // nothing changed: one conditional request, answered 304, nothing written
    const before = await cursorNow();
    const requests = feeds.requests.length;
    const quiet = await runSource(t, id);
    expect(quiet).toMatchObject({ status: 'not_modified', http_status: 304 });
    expect(feeds.requests.length).toBe(requests + 1);
    expect(feeds.requests.at(-1)?.headers['if-none-match']).toMatch(/^"/);
    expect(await changesSince(before)).toEqual([]);

    // moved, cancelled, removed, a new exception, a changed rule
    const eventsBefore = await eventsOf('League');
    feeds.serve('/league.ics', league({ moved: true, cancelled: true, removed: true, exception: true, rule: 'FREQ=WEEKLY;COUNT=3' }));
    const cursor = await cursorNow();
    const changed = await runSource(t, id);
    expect(changed).toMatchObject({ status: 'completed', problems: [] });
    expect(changed.counts).toMatchObject({ created: 0, updated: 3, trashed: 2, refused: 0 });
    const after = await eventsOf('League');
    expect(after.map((event) => `${event.utc_start_date} ${event.title}`).sort()).toEqual([
      '2027-04-05 22:00:00 League training',
      '2027-04-10 17:00:00 League match 1',
      '2027-04-12 21:00:00 League training (outdoors)',
      '2027-04-19 22:00:00 League training',
    ]);
    // the change feed names exactly the events that changed: the moved match, the cancelled and the removed one, the exception, the series' main event and the occurrence its rule dropped
    const byTitle = new Map(eventsBefore.map((event) => [event.id as number, `${event.start_date} ${event.title}`]));
    const named = [...new Set((await changesSince(cursor)).map((change) => byTitle.get(change.id) ?? change.id))].sort();
    expect(named).toEqual([
      '2027-04-05 18:00:00 League training',
      '2027-04-10 15:00:00 League match 1',
      '2027-04-12 18:00:00 League training',
      '2027-04-17 15:00:00 League match 2',
      '2027-04-24 15:00:00 League match 3',
      '2027-04-26 18:00:00 League training',
    ]);
    // the unchanged occurrence kept its ETag
    const kept = after.find((event) => event.start_date === '2027-04-19 18:00:00');
    expect(kept?.id).toBe(eventsBefore.find((event) => event.start_date === '2027-04-19 18:00:00')?.id);
  });

  it.each([
    ['overwrite', 'Quiz night (moved)', '2027-05-07 20:00:00'],
    ['keep-local-edits', 'Quiz night (edited here)', '2027-05-07 20:00:00'],
    ['create-only', 'Quiz night (edited here)', '2027-05-06 19:00:00'],
  ])('under %s, an edit made here meets a change of the feed', async (authority, title, start) => {
    const path = `/quiz-${authority}.ics`;
    const feed = (moved: boolean) =>
      calendar(
        vevent(
          `UID:quiz-${authority}`,
          `SUMMARY:${moved ? 'Quiz night (moved)' : 'Quiz night'}`,
          `DTSTART;TZID=Europe/London:${moved ? '20270507T200000' : '20270506T190000'}`,
          'DURATION:PT2H',
        ),
      );
    feeds.serve(path, feed(false));
    const id = await addSource(t, { url: feeds.url(path), update_authority: authority });
    await runSource(t, id);
    const [event] = (await events()).filter(
      (one) => one.title === 'Quiz night' && one.timezone === 'Europe/London' && !one.rest_url.includes('x'),
    );
    const edited = await t.http().post(`${API}/events/${event.id}`).set(admin).send({ title: 'Quiz night (edited here)' });
    expect(edited.status).toBe(200);
    feeds.serve(path, feed(true));
    const run = await runSource(t, id);
    expect(run.status).toBe('completed');
    const after = (await t.http().get(`${API}/events/${event.id}`).set(admin)).body;
    expect({ title: after.title, start: after.start_date }).toEqual({ title, start });
    expect(run.counts[authority === 'overwrite' ? 'updated' : authority === 'keep-local-edits' ? 'updated' : 'kept']).toBe(1);
    // again, with nothing new in the feed: nothing is written
    const etag = (await t.http().get(`${API}/events/${event.id}`).set(admin)).headers.etag;
    await t.http().patch(`${API}/sources/${id}`).set(admin).send({ paused: true });
    await runSource(t, id);
    expect((await t.http().get(`${API}/events/${event.id}`).set(admin)).headers.etag).toBe(etag);
  });

  it('starts a series whose EXDATE removes its own DTSTART at its first occurrence left', async () => {
    feeds.serve(
      '/first-deleted.ics',
      calendar(
        vevent(
          'UID:first-deleted',
          'SUMMARY:Reading circle',
          'DTSTART;TZID=Europe/Madrid:20270601T180000',
          'DTEND;TZID=Europe/Madrid:20270601T193000',
          'RRULE:FREQ=WEEKLY;COUNT=4',
          'EXDATE;TZID=Europe/Madrid:20270601T180000',
        ),
      ),
    );
    const id = await addSource(t, { url: feeds.url('/first-deleted.ics'), update_authority: 'overwrite' });
    const run = await runSource(t, id);
    expect(run.counts).toMatchObject({ created: 1, refused: 0 });
    expect(run.problems.map((problem: { reason: string }) => problem.reason)).toEqual([
      'its EXDATE excludes its own DTSTART: the series starts at its first occurrence left, 2027-06-08 18:00:00',
    ]);
    const circle = (await events()).filter((event) => event.title === 'Reading circle');
    expect(circle.map((event) => `${event.start_date} ${event.end_date}`).sort()).toEqual([
      '2027-06-08 18:00:00 2027-06-08 19:30:00',
      '2027-06-15 18:00:00 2027-06-15 19:30:00',
      '2027-06-22 18:00:00 2027-06-22 19:30:00',
    ]);
  });

  it("writes several events at once on MySQL/MariaDB yet creates each new venue, organizer and category once, and reports in the feed's order", async () => {
    const components = Array.from({ length: 24 }, (_, i) =>
      vevent(
        `UID:shared-${i}`,
        `SUMMARY:Shared names ${i}`,
        `DTSTART:202709${String(1 + i).padStart(2, '0')}T180000Z`,
        `DTEND:202709${String(1 + i).padStart(2, '0')}T200000Z`,
        // every fifth one repeats every minute: refused by the API's rules
        ...(i % 5 === 4 ? ['RRULE:FREQ=MINUTELY;COUNT=3'] : []),
        `LOCATION:Shared hall ${i % 3}`,
        `ORGANIZER;CN=Shared organizer ${i % 2}:mailto:shared${i % 2}@example.org`,
        `CATEGORIES:Shared ${i % 4},Shared all`,
      ),
    );
    feeds.serve('/shared-names.ics', calendar(...components));
    const id = await addSource(t, { url: feeds.url('/shared-names.ics'), update_authority: 'overwrite' });
    const run = await runSource(t, id);
    expect(run.counts).toMatchObject({ created: 20, refused: 4 });
    expect(run.problems.map((problem: { uid: string }) => problem.uid)).toEqual(['shared-4', 'shared-9', 'shared-14', 'shared-19']);

    const named = async (path: string, prefix: string, key: string) =>
      (
        (
          await t
            .http()
            .get(`${API}/${path}?per_page=50&search=${encodeURIComponent(prefix)}`)
            .set(admin)
        ).body[path] as Array<Record<string, any>>
      )
        .map((item) => item[key] as string)
        .filter((name) => name.startsWith(prefix))
        .sort();
    expect(await named('venues', 'Shared hall', 'venue')).toEqual(['Shared hall 0', 'Shared hall 1', 'Shared hall 2']);
    expect(await named('organizers', 'Shared organizer', 'organizer')).toEqual(['Shared organizer 0', 'Shared organizer 1']);
    const categories = (await t.http().get(`${API}/categories?per_page=50&hide_empty=0&search=Shared`).set(admin)).body
      .categories as Array<{ name: string; count: number }>;
    expect(categories.map(({ name, count }) => [name, count]).sort()).toEqual([
      ['Shared 0', 5],
      ['Shared 1', 5],
      ['Shared 2', 5],
      ['Shared 3', 5],
      ['Shared all', 20],
    ]);
  });
});
