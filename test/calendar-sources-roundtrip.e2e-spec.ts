import type { AddressInfo } from 'node:net';
import ICAL from 'ical.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';
import { runSource } from './support/feed-server.js';

const admin = { Authorization: basic(ADMIN) };
const WINDOW = 'start_date=2026-01-01&end_date=2029-12-31';

/** What a calendar client shows for a whole file, read by ical.js through the file's own VTIMEZONEs: each start and end (UTC) with its title. */
function shown(text: string): string[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  ICAL.TimezoneService.reset();
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
  const lines: string[] = [];
  for (const master of events.filter((event) => !event.isRecurrenceException())) {
    for (const exception of events.filter((event) => event.isRecurrenceException() && event.uid === master.uid))
      master.relateException(exception);
    const dates = (start: ICAL.Time, end: ICAL.Time, title: string) =>
      start.isDate
        ? `${start.toString()}..${end.toString()} ${title}`
        : `${start.toJSDate().toISOString()}..${end.toJSDate().toISOString()} ${title}`;
    if (!master.isRecurring()) {
      lines.push(dates(master.startDate, master.endDate, master.summary));
      continue;
    }
    const iterator = master.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      const details = master.getOccurrenceDetails(next);
      lines.push(dates(details.startDate, details.endDate, details.item.summary));
    }
  }
  return lines.sort();
}

describe('calendar sources: a calendar of this service subscribed by another instance', () => {
  let a: TestApp;
  let b: TestApp;
  let feedUrl: string;

  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({}, { database: 'subscriber' });
    await a.app.listen(0, '127.0.0.1');
    feedUrl = `http://127.0.0.1:${(a.app.getHttpServer().address() as AddressInfo).port}${API}/events.ics?${WINDOW}`;
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('arrives with the same dates, zones, series and exceptions', async () => {
    const create = async (body: Record<string, unknown>) => {
      const res = await a.http().post(`${API}/events`).set(admin).send(body);
      expect(res.status).toBe(201);
      return res.body as Record<string, any>;
    };
    await create({
      title: 'Harbour talk',
      start_date: '2027-06-03 18:30:00',
      end_date: '2027-06-03 20:00:00',
      timezone: 'America/Chicago',
      venue: { venue: 'Old Pier Pavilion' },
    });
    await create({
      title: 'Summer fair',
      all_day: true,
      start_date: '2027-06-12',
      end_date: '2027-06-13',
      timezone: 'Europe/Paris',
      categories: ['Fairs'],
    });
    await create({ title: 'Night swim', start_date: '2027-06-20 23:30:00', end_date: '2027-06-21 01:00:00', timezone: 'UTC' });
    const series = await create({
      title: 'Rowing club',
      start_date: '2027-03-23 19:30:00',
      end_date: '2027-03-23 21:00:00',
      timezone: 'Europe/Paris',
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6'],
    });
    const occurrences = (await a.http().get(`${API}/series/${series.id}/occurrences?per_page=10`).set(admin)).body.events as Array<
      Record<string, any>
    >;
    // across the change to summer time (28 March): an exception moved and renamed, and one occurrence deleted
    const moved = await a
      .http()
      .post(`${API}/events/${occurrences[2].id}`)
      .set(admin)
      .send({ title: 'Rowing club (regatta)', start_date: '2027-04-06 08:00:00', end_date: '2027-04-06 12:00:00' });
    expect(moved.status).toBe(200);
    expect((await a.http().delete(`${API}/events/${occurrences[4].id}`).set(admin)).status).toBe(200);

    const source = await b.http().post(`${API}/sources`).set(admin).send({ url: feedUrl, paused: true, update_authority: 'overwrite' });
    expect(source.status).toBe(201);
    const run = await runSource(b, source.body.id);
    expect(run).toMatchObject({ status: 'completed', problems: [] });

    // the same dates and zones, event by event
    const list = async (t: TestApp) =>
      ((await t.http().get(`${API}/events?per_page=50&${WINDOW}`).set(admin)).body.events as Array<Record<string, any>>)
        // an all-day event's days carry no zone in iCalendar (RFC 5545 DATE values): its days are compared, not its instants
        .map((event) =>
          (event.all_day
            ? [event.title, event.all_day, event.start_date, event.end_date]
            : [event.title, event.utc_start_date, event.utc_end_date, event.timezone, event.all_day, event.start_date, event.end_date]
          ).join(' | '),
        )
        .sort();
    expect(await list(b)).toEqual(await list(a));
    // one series with its exception, in both
    const seriesOf = async (t: TestApp) => {
      const events = (await t.http().get(`${API}/events?per_page=50&${WINDOW}&collapse=series`).set(admin)).body.events as Array<
        Record<string, any>
      >;
      const main = events.find((event) => event.recurrence !== null);
      const read = (await t.http().get(`${API}/series/${main?.recurrence.series_id}`).set(admin)).body;
      return { occurrences: read.occurrences_total, exceptions: read.exceptions_total, rrule: read.rules[0], timezone: read.timezone };
    };
    expect(await seriesOf(b)).toEqual(await seriesOf(a));
    // and what a calendar client shows from either feed, read by an independent parser
    const feed = async (t: TestApp) => (await t.http().get(`${API}/events.ics?${WINDOW}`)).text;
    expect(shown(await feed(b))).toEqual(shown(await feed(a)));
    expect(shown(await feed(b))).toContain('2027-04-06T06:00:00.000Z..2027-04-06T10:00:00.000Z Rowing club (regatta)');

    // subscribed again: nothing changed, nothing written
    const again = await runSource(b, source.body.id);
    expect(again.counts).toMatchObject({ created: 0, updated: 0, trashed: 0 });
  });
});
