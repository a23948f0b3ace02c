import ICAL from 'ical.js';
import { EventCalendarService } from '../src/events/event-calendar.service.js';
import { ADMIN_AUTH } from './support/events.js';
import { API, startTestApp, type TestApp } from './support/test-app.js';

interface EventBody {
  id: number;
  slug: string;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  categories: Array<{ name: string }>;
  venue: { id?: number } | unknown[];
  organizer: Array<{ id: number }>;
}

/** The VEVENTs of an answer, read with ical.js through the answer's own VTIMEZONEs. */
function veventsOf(text: string): ICAL.Event[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  ICAL.TimezoneService.reset();
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  return calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
}

/** What a calendar client shows for a file holding one series: each start (UTC) with its title. */
function expand(text: string): string[] {
  const [master, ...exceptions] = veventsOf(text);
  expect(master.isRecurring()).toBe(true);
  for (const exception of exceptions) {
    expect(exception.uid).toBe(master.uid);
    master.relateException(exception);
  }
  const shown: string[] = [];
  const iterator = master.iterator();
  for (let next = iterator.next(); next; next = iterator.next()) {
    const details = master.getOccurrenceDetails(next);
    shown.push(`${details.startDate.toJSDate().toISOString()} ${details.item.summary}`);
  }
  return shown;
}

describe('recurring events: series created with `recurrence`', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>) =>
    t
      .http()
      .post(`${API}/events`)
      .set('Authorization', ADMIN_AUTH)
      .send({ title: 'Harbour Lantern Walk', ...body });

  /** Every event of a series, main event first, in start order. */
  async function seriesEvents(mainId: number): Promise<EventBody[]> {
    const main = await t.http().get(`${API}/events/${mainId}`).set('Authorization', ADMIN_AUTH);
    const others = await t
      .http()
      .get(`${API}/events?post_parent=${mainId}&per_page=50&start_date=2000-01-01&end_date=2099-12-31&status=publish,draft`)
      .set('Authorization', ADMIN_AUTH);
    expect(others.status).toBe(200);
    return [main.body as EventBody, ...(others.body.events as EventBody[])];
  }

  it('creates the main event and its occurrences as events, wall-clock stable across DST', async () => {
    const res = await create({
      timezone: 'America/New_York',
      start_date: '2030-03-02 19:30:00',
      end_date: '2030-03-02 21:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      venue: { venue: 'Old Pier Pavilion' },
      organizer: [{ organizer: 'Tidewater Arts Guild' }],
      categories: ['Outdoor'],
    });
    expect(res.status).toBe(201);
    const events = await seriesEvents(res.body.id);
    expect(events.map((event) => event.start_date)).toEqual([
      '2030-03-02 19:30:00',
      '2030-03-09 19:30:00',
      '2030-03-16 19:30:00',
      '2030-03-23 19:30:00',
    ]);
    expect(events.map((event) => event.end_date.slice(11))).toEqual(['21:00:00', '21:00:00', '21:00:00', '21:00:00']);
    // 2030-03-10 is the start of daylight-saving time in New York
    expect(events.map((event) => event.utc_start_date.slice(11))).toEqual(['00:30:00', '00:30:00', '23:30:00', '23:30:00']);
    expect(events.slice(1).map((event) => event.slug)).toEqual([
      'harbour-lantern-walk-2030-03-09',
      'harbour-lantern-walk-2030-03-16',
      'harbour-lantern-walk-2030-03-23',
    ]);
    expect(new Set(events.map((event) => event.id)).size).toBe(4);
    for (const event of events.slice(1)) {
      expect((event.venue as { id: number }).id).toBe((events[0].venue as { id: number }).id);
      expect(event.organizer.map((organizer) => organizer.id)).toEqual(events[0].organizer.map((organizer) => organizer.id));
      expect(event.categories.map((category) => category.name)).toEqual(['Outdoor']);
    }
    expect(res.body.recurrence).toEqual({
      series_id: res.body.id,
      rules: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      is_main: true,
      original_start: '2030-03-02 19:30:00',
    });
    const occurrence = await t.http().get(`${API}/events/${events[2].id}`);
    expect(occurrence.body.recurrence).toEqual({
      series_id: res.body.id,
      rules: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      is_main: false,
      original_start: '2030-03-16 19:30:00',
    });
    const category = await t.http().get(`${API}/categories?hide_empty=0&search=Outdoor`);
    expect(category.body.categories[0].count).toBe(4);
  });

  it('follows spec 6.4 for starts in a gap and in a repeated hour', async () => {
    const gap = await create({
      title: 'Night Ferry',
      timezone: 'Europe/Berlin',
      start_date: '2030-03-30 02:30:00',
      end_date: '2030-03-30 02:50:00',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=2'],
    });
    expect((await seriesEvents(gap.body.id)).map((event) => event.start_date)).toEqual(['2030-03-30 02:30:00', '2030-03-31 03:30:00']);
    const repeat = await create({
      title: 'Night Watch',
      timezone: 'America/New_York',
      start_date: '2030-11-02 01:30:00',
      end_date: '2030-11-02 01:45:00',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=2'],
    });
    // the first 01:30 of 2030-11-03 is still in daylight-saving time (UTC-4)
    expect((await seriesEvents(repeat.body.id)).map((event) => event.utc_start_date)).toEqual([
      '2030-11-02 05:30:00',
      '2030-11-03 05:30:00',
    ]);
  });

  it('adds RDATEs and leaves out EXDATEs', async () => {
    const res = await create({
      title: 'Choir Practice',
      timezone: 'UTC',
      start_date: '2030-01-07 18:00:00',
      end_date: '2030-01-07 19:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20300128T235959Z', 'EXDATE:20300114T180000', 'RDATE:20300131T180000'],
    });
    expect(res.status).toBe(201);
    expect((await seriesEvents(res.body.id)).map((event) => event.start_date.slice(0, 10))).toEqual([
      '2030-01-07',
      '2030-01-21',
      '2030-01-28',
      '2030-01-31',
    ]);
  });

  it('generates at most 1,000 occurrences of a longer rule', async () => {
    const res = await create({
      title: 'Hourly Chime',
      timezone: 'UTC',
      start_date: '2030-01-01 00:00:00',
      end_date: '2030-01-01 00:05:00',
      recurrence: ['RRULE:FREQ=HOURLY'],
    });
    expect(res.status).toBe(201);
    const list = await t.http().get(`${API}/events?post_parent=${res.body.id}&start_date=2000-01-01&end_date=2099-12-31&per_page=1`);
    expect(list.body.total).toBe(999);
  });

  it.each([
    ['a line that is not a rule', ['RRULE:FREQ=DAILY;BOGUS=1'], 'Not a valid RRULE, RDATE or EXDATE line: RRULE:FREQ=DAILY;BOGUS=1'],
    ['a DTSTART line', ['DTSTART:20300101T090000', 'RRULE:FREQ=DAILY'], 'Leave out DTSTART'],
    ['COUNT with UNTIL', ['RRULE:FREQ=DAILY;COUNT=2;UNTIL=20300301T000000Z'], 'COUNT or UNTIL'],
    ['FREQ=MINUTELY', ['RRULE:FREQ=MINUTELY'], 'FREQ=SECONDLY and FREQ=MINUTELY'],
    ['a rule with no occurrence', ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'], 'no occurrence'],
    ['an object', { rule: 'FREQ=DAILY' }, 'list of RFC 5545 lines'],
  ])('refuses %s with 400 naming recurrence', async (_name, recurrence, message) => {
    const res = await create({ start_date: '2030-03-01 10:00:00', end_date: '2030-03-01 11:00:00', recurrence });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(Object.keys(res.body.data.params)).toEqual(['recurrence']);
    expect(res.body.data.params.recurrence).toContain(message);
  });

  it('creates a single event for an empty recurrence', async () => {
    const res = await create({ title: 'Once', start_date: '2030-03-01 10:00:00', end_date: '2030-03-01 11:00:00', recurrence: [] });
    expect(res.status).toBe(201);
    expect(res.body.recurrence).toBeNull();
    const children = await t.http().get(`${API}/events?post_parent=${res.body.id}&start_date=2000-01-01&end_date=2099-12-31`);
    expect(children.body.total).toBe(0);
  });

  it('logs every occurrence as a created event in the change feed', async () => {
    const since = (await t.http().get(`${API}/changes?since=now`).set('Authorization', ADMIN_AUTH)).body.next_cursor as string;
    const res = await create({
      title: 'Logged Walk',
      start_date: '2030-05-01 10:00:00',
      end_date: '2030-05-01 11:00:00',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    const after = await t
      .http()
      .get(`${API}/changes?since=${encodeURIComponent(since)}`)
      .set('Authorization', ADMIN_AUTH);
    expect(after.status).toBe(200);
    const created = (after.body.changes as Array<{ type: string; id: number; action: string }>).filter(
      (change) => change.type === 'event' && change.action === 'created',
    );
    expect(created.map((change) => change.id)).toEqual(expect.arrayContaining([res.body.id]));
    expect(created).toHaveLength(3);
  });

  describe('GET /series/<id> and /series/<id>/occurrences', () => {
    let mainId: number;
    let occurrenceId: number;

    beforeAll(async () => {
      const res = await create({
        title: 'Reading Circle',
        timezone: 'Europe/Berlin',
        start_date: '2030-06-03 18:00:00',
        end_date: '2030-06-03 19:30:00',
        recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=1MO;COUNT=5'],
      });
      mainId = res.body.id;
      occurrenceId = (await seriesEvents(mainId))[1].id;
    });

    it('reads the series: rule, zone, main event, totals, next occurrence', async () => {
      const res = await t.http().get(`${API}/series/${mainId}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: mainId,
        rules: ['RRULE:FREQ=MONTHLY;BYDAY=1MO;COUNT=5'],
        timezone: 'Europe/Berlin',
        occurrences_total: 5,
        exceptions_total: 0,
      });
      expect(Object.keys(res.body)).toEqual([
        'id',
        'rules',
        'timezone',
        'main_event',
        'occurrences_total',
        'exceptions_total',
        'next_occurrence',
      ]);
      expect(res.body.main_event.id).toBe(mainId);
      expect(res.body.next_occurrence.id).toBe(mainId);
      expect(res.body.next_occurrence.start_date).toBe('2030-06-03 18:00:00');
    });

    it('lists the occurrences in start order, paged like GET /events', async () => {
      const res = await t.http().get(`${API}/series/${mainId}/occurrences?per_page=2&page=2`);
      expect(res.status).toBe(200);
      expect(res.headers['x-tec-total']).toBe('5');
      expect(res.body.total).toBe(5);
      expect(res.body.total_pages).toBe(3);
      expect(res.body.events.map((event: EventBody) => event.start_date)).toEqual(['2030-08-05 18:00:00', '2030-09-02 18:00:00']);
      expect(res.body.rest_url).toBe(`http://calendar.test${API}/series/${mainId}/occurrences/?page=2&per_page=2`);
      expect(res.body.next_rest_url).toContain('page=3');
    });

    it('answers 404 rest-series-not-found for an event that is not a main event, and for unknown ids', async () => {
      for (const id of [occurrenceId, 987654]) {
        for (const path of [`/series/${id}`, `/series/${id}/occurrences`]) {
          const res = await t.http().get(`${API}${path}`);
          expect(res.status).toBe(404);
          expect(res.body.code).toBe('rest-series-not-found');
        }
      }
      const german = await t.http().get(`/de${API}/series/987654`);
      expect(german.body.message).toBe('Es gibt keine Serie, deren Hauptveranstaltung die ID 987654 hat.');
    });

    it('is listed in the namespace index and documented in /doc', async () => {
      const index = await t.http().get(API);
      expect(Object.keys(index.body.routes)).toEqual(
        expect.arrayContaining(['/tribe/events/v1/series/(?P<id>\\d+)', '/tribe/events/v1/series/(?P<id>\\d+)/occurrences']),
      );
      const doc = await t.http().get(`${API}/doc`);
      expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/series/{id}', '/series/{id}/occurrences']));
    });
  });

  describe('updates of a series (scope all) and its trash', () => {
    const update = (id: number, body: Record<string, unknown>) =>
      t.http().post(`${API}/events/${id}`).set('Authorization', ADMIN_AUTH).send(body);
    const weekly = async (title: string, count = 4) =>
      (
        await create({
          title,
          timezone: 'UTC',
          start_date: '2031-01-06 10:00:00',
          end_date: '2031-01-06 11:00:00',
          recurrence: [`RRULE:FREQ=WEEKLY;COUNT=${count}`],
          categories: ['Weekly'],
        })
      ).body.id as number;
    const trashed = async (id: number) =>
      (await t.http().get(`${API}/events?include=${id}&status=trash`).set('Authorization', ADMIN_AUTH)).body.events as Array<{
        recurrence: unknown;
      }>;
    const all = async (mainId: number) =>
      (await t.http().get(`${API}/series/${mainId}/occurrences?per_page=50`).set('Authorization', ADMIN_AUTH)).body.events as Array<
        EventBody & { title: string; status: string; recurrence: { original_start: string } | null }
      >;

    it('passes field changes of the main event on to the occurrences, not to exceptions', async () => {
      const mainId = await weekly('Pottery Class');
      const [, second, third] = await all(mainId);
      const edited = await update(third.id, {
        title: 'Pottery Class (moved)',
        start_date: '2031-01-21 12:00:00',
        end_date: '2031-01-21 13:00:00',
      });
      expect(edited.status).toBe(200);
      expect(edited.body.recurrence.original_start).toBe('2031-01-20 10:00:00');
      const res = await update(mainId, { title: 'Ceramics Class', cost: '10' });
      expect(res.status).toBe(200);
      const events = await all(mainId);
      expect(events.map((event) => [event.id, event.title, event.start_date])).toEqual([
        [mainId, 'Ceramics Class', '2031-01-06 10:00:00'],
        [second.id, 'Ceramics Class', '2031-01-13 10:00:00'],
        [third.id, 'Pottery Class (moved)', '2031-01-21 12:00:00'],
        [expect.any(Number), 'Ceramics Class', '2031-01-27 10:00:00'],
      ]);
      expect((await t.http().get(`${API}/series/${mainId}`)).body.exceptions_total).toBe(1);
    });

    it('keeps the ids of starts the new rule still gives, trashes vanished ones, adds new ones', async () => {
      const mainId = await weekly('Life Drawing');
      const before = await all(mainId);
      const res = await update(mainId, { recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3'] });
      expect(res.status).toBe(200);
      expect(res.body.recurrence.rules).toEqual(['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3']);
      const after = await all(mainId);
      expect(after.map((event) => event.start_date.slice(0, 10))).toEqual(['2031-01-06', '2031-01-20', '2031-02-03']);
      expect(after[1].id).toBe(before[2].id);
      expect(before.map((event) => event.id)).not.toContain(after[2].id);
      expect(await trashed(before[1].id)).toHaveLength(1);
      const category = await t.http().get(`${API}/categories?hide_empty=0&search=Weekly`);
      expect(category.body.categories[0].count).toBeGreaterThan(0);
    });

    it('moves the whole series with the main event, keeping ids', async () => {
      const mainId = await weekly('Morning Swim');
      const before = await all(mainId);
      const res = await update(mainId, { start_date: '2031-01-06 08:30:00', end_date: '2031-01-06 09:15:00' });
      expect(res.status).toBe(200);
      const after = await all(mainId);
      expect(after.map((event) => event.id)).toEqual(before.map((event) => event.id));
      expect(after.map((event) => `${event.start_date}-${event.end_date.slice(11)}`)).toEqual([
        '2031-01-06 08:30:00-09:15:00',
        '2031-01-13 08:30:00-09:15:00',
        '2031-01-20 08:30:00-09:15:00',
        '2031-01-27 08:30:00-09:15:00',
      ]);
    });

    it('ends the series with an empty recurrence: future occurrences trashed, the main event single', async () => {
      const mainId = await weekly('Book Club');
      const before = await all(mainId);
      const res = await update(mainId, { recurrence: [] });
      expect(res.status).toBe(200);
      expect(res.body.recurrence).toBeNull();
      expect((await t.http().get(`${API}/series/${mainId}`)).status).toBe(404);
      for (const event of before.slice(1)) {
        expect((await trashed(event.id)).map((found) => found.recurrence)).toEqual([null]);
      }
    });

    it('makes a single event recurring, and refuses a rule on an occurrence', async () => {
      const single = await create({ title: 'Yoga', timezone: 'UTC', start_date: '2031-03-03 07:00:00', end_date: '2031-03-03 08:00:00' });
      const res = await update(single.body.id, { recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] });
      expect(res.status).toBe(200);
      expect(res.body.recurrence).toMatchObject({ series_id: single.body.id, is_main: true });
      const events = await all(single.body.id);
      expect(events).toHaveLength(3);
      const refused = await update(events[1].id, { recurrence: ['RRULE:FREQ=DAILY;COUNT=5'] });
      expect(refused.status).toBe(400);
      expect(refused.body.data.params.recurrence).toBe(`Only the main event of the series (ID ${single.body.id}) takes a recurrence.`);
    });

    it('trashes the whole series with its main event', async () => {
      const mainId = await weekly('Chess Night');
      const before = await all(mainId);
      const res = await t.http().delete(`${API}/events/${mainId}`).set('Authorization', ADMIN_AUTH);
      expect(res.status).toBe(200);
      for (const event of before) expect(await trashed(event.id)).toHaveLength(1);
      const category = await t.http().get(`${API}/categories?hide_empty=0&search=Weekly`);
      const counts = await t.http().get(`${API}/events?categories=weekly&start_date=2000-01-01&end_date=2099-01-01&per_page=1`);
      expect(category.body.categories[0].count).toBe(counts.body.total);
    });
  });

  it('writes a series into .ics as one VEVENT with its rule, exceptions with RECURRENCE-ID, deleted starts as EXDATE', async () => {
    const res = await create({
      title: 'Harbour Tour',
      timezone: 'America/New_York',
      start_date: '2031-03-01 10:00:00',
      end_date: '2031-03-01 11:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE:20310315T100000'],
    });
    const mainId = res.body.id as number;
    const events = await seriesEvents(mainId);
    expect(events.map((event) => event.start_date.slice(0, 10))).toEqual(['2031-03-01', '2031-03-08', '2031-03-22', '2031-03-29']);
    const moved = await t
      .http()
      .post(`${API}/events/${events[1].id}`)
      .set('Authorization', ADMIN_AUTH)
      .send({ title: 'Harbour Tour (late)', start_date: '2031-03-08 15:00:00', end_date: '2031-03-08 16:00:00' });
    expect(moved.status).toBe(200);
    expect((await t.http().delete(`${API}/events/${events[3].id}`).set('Authorization', ADMIN_AUTH)).status).toBe(200);

    const ics = await t.http().get(`${API}/events.ics?search=harbour+tour&start_date=2031-03-01&end_date=2031-04-30`);
    expect(ics.status).toBe(200);
    const [, exception] = veventsOf(ics.text);
    expect(veventsOf(ics.text)).toHaveLength(2);
    expect(exception.isRecurrenceException()).toBe(true);
    // what a calendar client shows, read back with an independent implementation
    expect(expand(ics.text)).toEqual([
      '2031-03-01T15:00:00.000Z Harbour Tour',
      '2031-03-08T20:00:00.000Z Harbour Tour (late)',
      '2031-03-22T14:00:00.000Z Harbour Tour',
    ]);
  });

  describe('GET /events/<id>.ics of a series', () => {
    const ics = (path: string) => t.http().get(`${API}/${path}`).buffer(true);
    const isoOf = (utcWall: string) => `${utcWall.replace(' ', 'T')}.000Z`;

    let mainId: number;
    let events: EventBody[];

    beforeAll(async () => {
      const res = await create({
        title: 'Pottery Wheel Class',
        timezone: 'Europe/Berlin',
        // across the start of daylight saving time (2034-03-26)
        start_date: '2034-03-07 18:00:00',
        end_date: '2034-03-07 20:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'],
      });
      expect(res.status).toBe(201);
      mainId = res.body.id;
      events = await seriesEvents(mainId);
      const edited = await t
        .http()
        .post(`${API}/events/${events[1].id}`)
        .set('Authorization', ADMIN_AUTH)
        .send({ title: 'Pottery Wheel Class: glazing night', start_date: '2034-03-14 19:00:00', end_date: '2034-03-14 21:30:00' });
      expect(edited.status).toBe(200);
      expect((await t.http().delete(`${API}/events/${events[3].id}`).set('Authorization', ADMIN_AUTH)).status).toBe(200);
    });

    it("writes the main event as its whole series, expanding to the series' occurrences", async () => {
      const occurrences = await t.http().get(`${API}/series/${mainId}/occurrences?per_page=50`);
      expect(occurrences.status).toBe(200);
      const listed = occurrences.body.events as Array<{ title: string; utc_start_date: string }>;
      expect(listed).toHaveLength(5);
      const res = await ics(`events/${mainId}.ics`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(expand(res.text)).toEqual(listed.map((event) => `${isoOf(event.utc_start_date)} ${event.title}`));
      expect(expand(res.text)).toEqual([
        '2034-03-07T17:00:00.000Z Pottery Wheel Class',
        '2034-03-14T18:00:00.000Z Pottery Wheel Class: glazing night',
        '2034-03-21T17:00:00.000Z Pottery Wheel Class',
        '2034-04-04T16:00:00.000Z Pottery Wheel Class',
        '2034-04-11T16:00:00.000Z Pottery Wheel Class',
      ]);
      const [master, exception] = veventsOf(res.text);
      expect(master.component.getFirstPropertyValue('rrule')?.toString()).toBe('FREQ=WEEKLY;COUNT=6');
      expect(master.component.getFirstProperty('exdate')?.getParameter('tzid')).toBe('Europe/Berlin');
      expect(master.component.getFirstPropertyValue('exdate')?.toString()).toBe('2034-03-28T18:00:00');
      // the edited occurrence stands at its original start
      expect(exception.recurrenceId.toString()).toBe('2034-03-14T18:00:00');
      expect(exception.summary).toBe('Pottery Wheel Class: glazing night');
      // the series as the feed writes it, byte for byte
      expect(res.text).toBe((await ics('events.ics?search=pottery+wheel&start_date=2034-03-01&end_date=2034-04-30')).text);
    });

    it('writes any other occurrence as that occurrence alone, an event of its own', async () => {
      for (const [occurrence, title] of [
        [events[2], 'Pottery Wheel Class'],
        [events[1], 'Pottery Wheel Class: glazing night'],
      ] as const) {
        const json = (await t.http().get(`${API}/events/${occurrence.id}`)).body;
        const res = await ics(`events/${occurrence.id}.ics`);
        expect(res.status).toBe(200);
        expect(res.text).not.toMatch(/^(RRULE|RDATE|EXDATE|RECURRENCE-ID)[;:]/m);
        const vevents = veventsOf(res.text);
        expect(vevents).toHaveLength(1);
        expect(vevents[0].uid).toBe(json.global_id);
        expect(vevents[0].summary).toBe(title);
        expect(vevents[0].startDate.toJSDate().toISOString()).toBe(isoOf(json.utc_start_date));
        expect(vevents[0].endDate.toJSDate().toISOString()).toBe(isoOf(json.utc_end_date));
      }
      // a trashed occurrence is read as GET /events/<id> reads it
      expect((await ics(`events/${events[3].id}.ics`)).status).toBe(403);
    });

    it('writes a password-protected series whole once the password opens its main event', async () => {
      const res = await create({
        title: 'Kiln Keepers',
        timezone: 'UTC',
        start_date: '2034-05-02 08:00:00',
        end_date: '2034-05-02 09:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
        post_password: 'clay',
      });
      expect(res.status).toBe(201);
      expect((await ics(`events/${res.body.id}.ics`)).status).toBe(403);
      const opened = await ics(`events/${res.body.id}.ics?password=clay`);
      expect(expand(opened.text)).toEqual([
        '2034-05-02T08:00:00.000Z Kiln Keepers',
        '2034-05-09T08:00:00.000Z Kiln Keepers',
        '2034-05-16T08:00:00.000Z Kiln Keepers',
      ]);
      expect((await ics('events.ics?start_date=2034-05-01&end_date=2034-05-31&password=clay')).text).toBe(opened.text);
    });
  });

  it('writes the same feed bytes whatever the slices its events are read in', async () => {
    // every series and event of this file so far: series in several zones, exceptions, single events
    const feed = () =>
      t.http().get(`${API}/events.ics?start_date=2030-01-01&end_date=2032-12-31`).set('Authorization', ADMIN_AUTH).buffer(true);
    const calendars = t.app.get(EventCalendarService);
    const whole = await feed();
    expect(whole.status).toBe(200);
    expect(whole.headers['x-cache']).not.toBe('HIT');
    const vevents = whole.text.match(/^BEGIN:VEVENT\r$/gm) ?? [];
    expect(vevents.length).toBeGreaterThan(10);
    expect((whole.text.match(/^RRULE:/gm) ?? []).length).toBeGreaterThan(3);
    expect(whole.text).toContain('RECURRENCE-ID');
    expect((whole.text.match(/^BEGIN:VTIMEZONE\r$/gm) ?? []).length).toBeGreaterThan(1);
    try {
      for (const size of [1, 2, 3, 7]) {
        calendars.sliceSize = size;
        const sliced = await feed();
        expect(sliced.headers['x-cache']).not.toBe('HIT');
        expect(sliced.text).toBe(whole.text);
      }
    } finally {
      calendars.sliceSize = 500;
    }
  });

  it('lists one item per series with collapse=series, total counted that way', async () => {
    const titled = (title: string) =>
      create({
        title,
        timezone: 'UTC',
        start_date: '2032-05-03 09:00:00',
        end_date: '2032-05-03 10:00:00',
        recurrence: ['RRULE:FREQ=DAILY;COUNT=6'],
      });
    const first = (await titled('Kite Festival')).body.id as number;
    const second = (await titled('Kite Workshop')).body.id as number;
    await create({ title: 'Kite Repair', timezone: 'UTC', start_date: '2032-05-04 09:00:00', end_date: '2032-05-04 10:00:00' });
    const query = 'search=kite&start_date=2032-05-05&end_date=2032-05-31';
    const plain = await t.http().get(`${API}/events?${query}`);
    expect(plain.body.total).toBe(8);
    const collapsed = await t.http().get(`${API}/events?${query}&collapse=series`);
    expect(collapsed.status).toBe(200);
    expect(collapsed.body.total).toBe(2);
    expect(
      collapsed.body.events.map((event: EventBody & { recurrence: { series_id: number } }) => [
        event.recurrence.series_id,
        event.start_date,
      ]),
    ).toEqual([
      [first, '2032-05-05 09:00:00'],
      [second, '2032-05-05 09:00:00'],
    ]);
    expect(collapsed.body.rest_url).toContain('collapse=series');
    const bad = await t.http().get(`${API}/events?collapse=yes`);
    expect([bad.status, Object.keys(bad.body.data.params)]).toEqual([400, ['collapse']]);
  });

  it('pages collapse=series like the plain list with every series reduced to its first match, in every order', async () => {
    const made = async (title: string, start: string, recurrence?: string[]) =>
      (await create({ title, timezone: 'UTC', start_date: `${start}:00`, end_date: `${start.slice(0, 11)}23:00:00`, recurrence })).body
        .id as number;
    await made('Lantern walk weekly', '2033-03-01 18:00', ['RRULE:FREQ=WEEKLY;COUNT=5']);
    await made('Lantern single one', '2033-03-02 10:00');
    await made('Lantern every other day', '2033-03-02 10:00', ['RRULE:FREQ=DAILY;INTERVAL=2;COUNT=8']);
    await made('Lantern single two', '2033-03-09 08:00');
    await made('Lantern monthly', '2033-02-15 12:00', ['RRULE:FREQ=MONTHLY;COUNT=4']);
    await made('Lantern single three', '2033-03-20 09:00');
    const query = 'search=lantern&start_date=2033-03-01&end_date=2033-06-30';
    const all = await t.http().get(`${API}/events?${query}&per_page=50`);
    type Listed = { id: number; title: string; start_date: string; recurrence: { series_id: number } | null };
    const plain = all.body.events as Listed[];
    expect(plain.length).toBeGreaterThan(15);
    const firstOf = new Map<number, Listed>();
    for (const event of plain) {
      const series = event.recurrence?.series_id;
      const known = series === undefined ? undefined : firstOf.get(series);
      if (series !== undefined && (!known || event.start_date < known.start_date)) firstOf.set(series, event);
    }
    const kept = plain.filter((event) => !event.recurrence || firstOf.get(event.recurrence.series_id) === event);
    expect(kept.length).toBe(3 + 3);
    const key = {
      event_date: (e: Listed) => e.start_date,
      title: (e: Listed) => e.title,
      id: (e: Listed) => String(e.id).padStart(12, '0'),
    };
    for (const orderby of ['event_date', 'title', 'id'] as const) {
      for (const order of ['asc', 'desc']) {
        const expected = [...kept]
          .sort((a, b) => (key[orderby](a) < key[orderby](b) ? -1 : key[orderby](a) > key[orderby](b) ? 1 : a.id - b.id))
          .map((event) => event.id);
        if (order === 'desc') expected.reverse();
        const pages: number[] = [];
        for (let page = 1; page <= 3; page++) {
          const answer = await t
            .http()
            .get(`${API}/events?${query}&collapse=series&per_page=2&page=${page}&orderby=${orderby}&order=${order}`);
          expect([answer.status, answer.body.total, answer.body.total_pages]).toEqual([200, 6, 3]);
          pages.push(...(answer.body.events as Listed[]).map((event) => event.id));
        }
        expect({ orderby, order, pages }).toEqual({ orderby, order, pages: expected });
      }
    }
    const beyond = await t.http().get(`${API}/events?${query}&collapse=series&per_page=2&page=4`);
    expect(beyond.status).toBe(404);
  });
});
