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
});
