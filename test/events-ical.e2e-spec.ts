import { jest } from '@jest/globals';
import ICAL from 'ical.js';
import { EventListService } from '../src/events/event-list.service.js';
import type { Response } from 'supertest';
import { ADMIN_AUTH, eventBody, eventClient, expectError, type EventClient } from './support/events.js';
import { API, basic, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

const CALENDAR_TYPE = 'text/calendar; charset=utf-8';
// X-ALT-DESC is TEXT (escaped like DESCRIPTION); ical.js reads unknown X- properties raw unless told
(ICAL.design.defaultSet.property as Record<string, { defaultType: string }>)['x-alt-desc'] = { defaultType: 'text' };

/** Parses an answer with ical.js and registers its VTIMEZONEs, so times are read with the answer's own rules. */
function parse(res: Response): { calendar: ICAL.Component; events: ICAL.Event[] } {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe(CALENDAR_TYPE);
  const calendar = new ICAL.Component(ICAL.parse(res.text));
  ICAL.TimezoneService.reset();
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  return { calendar, events: calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent)) };
}

const unix = (utcWall: string) => Date.parse(`${utcWall.replace(' ', 'T')}Z`) / 1000;
const wall = (time: ICAL.Time) => time.toString().replace('T', ' ');
const icsGet = (t: TestApp, path: string, auth?: string) => {
  const req = t.http().get(`${API}/${path}`).buffer(true);
  return auth ? req.set('Authorization', auth) : req;
};

/** Every field of a VEVENT against the JSON object of the same event. */
function expectSameEvent(vevent: ICAL.Event, json: Record<string, any>): void {
  const c = vevent.component;
  expect(vevent.uid).toBe(json.global_id);
  expect(vevent.summary).toBe(json.title);
  expect(c.getFirstPropertyValue('url')).toBe(json.url);
  expect((c.getFirstPropertyValue('dtstamp') as ICAL.Time).toUnixTime()).toBe(unix(json.modified_utc));
  expect((c.getFirstPropertyValue('last-modified') as ICAL.Time).toUnixTime()).toBe(unix(json.modified_utc));
  expect(vevent.sequence).toBe(unix(json.modified_utc));
  expect(c.getFirstPropertyValue('status')).toBe(json.status === 'publish' ? 'CONFIRMED' : 'TENTATIVE');
  if (json.all_day) {
    expect(vevent.startDate.isDate).toBe(true);
    expect(vevent.startDate.toString()).toBe(json.start_date.slice(0, 10));
    const dayAfterEnd = new Date(Date.parse(`${json.end_date.slice(0, 10)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(vevent.endDate.toString()).toBe(dayAfterEnd);
  } else {
    expect(c.getFirstProperty('dtstart')?.getParameter('tzid')).toBe(json.timezone);
    expect(c.getFirstProperty('dtend')?.getParameter('tzid')).toBe(json.timezone);
    expect(wall(vevent.startDate)).toBe(json.start_date);
    expect(wall(vevent.endDate)).toBe(json.end_date);
    // the instants, read through the answer's VTIMEZONE
    expect(vevent.startDate.toUnixTime()).toBe(unix(json.utc_start_date));
    expect(vevent.endDate.toUnixTime()).toBe(unix(json.utc_end_date));
  }
  const categories = c.getAllProperties('categories').flatMap((property) => property.getValues());
  expect(categories).toEqual(json.categories.map((category: { name: string }) => category.name));
  if (Array.isArray(json.venue)) {
    expect(vevent.location).toBeNull();
  } else {
    const v = json.venue;
    expect(vevent.location).toBe([v.venue, v.address, v.city, v.stateprovince ?? v.province, v.zip, v.country].filter(Boolean).join(', '));
    if (v.geo_lat !== undefined) expect(c.getFirstPropertyValue('geo')).toEqual([v.geo_lat, v.geo_lng]);
  }
  const organizer = c.getFirstProperty('organizer');
  const withEmail = json.organizer.find((candidate: { email?: string }) => candidate.email);
  if (!withEmail) expect(organizer).toBeNull();
  else {
    expect(organizer?.getParameter('cn')).toBe(withEmail.organizer);
    expect(organizer?.getFirstValue()).toBe(`mailto:${withEmail.email}`);
  }
  if (json.description) {
    expect(c.getFirstProperty('x-alt-desc')?.getParameter('fmttype')).toBe('text/html');
    expect(c.getFirstPropertyValue('x-alt-desc')).toBe(json.description);
  }
}

function expectFolded(text: string): void {
  expect(text.endsWith('\r\n')).toBe(true);
  for (const line of text.slice(0, -2).split('\r\n')) {
    expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(line).not.toMatch(/\uFFFD/);
  }
}

describe('events as iCalendar (GET /events.ics, GET /events/<id>.ics)', () => {
  let t: TestApp;
  let ev: EventClient;
  let author: Credentials;
  const made: Record<string, Record<string, any>> = {};

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
    author = await t.user('author');
    made.chicago = await ev.make(
      eventBody({
        title: 'Night shift; jazz, blues & more',
        description:
          '<p>Bring <strong>friends</strong>; tickets, drinks\\snacks.</p><p>Ünïcödé 音楽祭 — ' + 'ありがとう'.repeat(20) + '</p>',
        timezone: 'America/Chicago',
        // across the start of daylight saving time (2027-03-14 02:00 → 03:00)
        start_date: '2027-03-13 22:00:00',
        end_date: '2027-03-14 05:00:00',
        venue: { venue: 'Blue Room', address: '1 Lake St', city: 'Chicago', country: 'United States', geo_lat: 41.88, geo_lng: -87.63 },
        organizer: [{ organizer: 'Windy Crew', email: 'crew@example.com' }, { organizer: 'Second Org' }],
        categories: ['Music', 'Late, night'],
      }),
    );
    made.berlin = await ev.make(
      eventBody({
        title: 'Zeitumstellung',
        timezone: 'Europe/Berlin',
        // across the end of daylight saving time (2027-10-31 03:00 → 02:00)
        start_date: '2027-10-30 23:00:00',
        end_date: '2027-10-31 04:00:00',
      }),
    );
    made.sydney = await ev.make(
      eventBody({
        title: 'Harbour night',
        timezone: 'Australia/Sydney',
        // across the end of daylight saving time (2027-04-04 03:00 → 02:00)
        start_date: '2027-04-03 20:00:00',
        end_date: '2027-04-04 05:00:00',
      }),
    );
    made.allDay = await ev.make(
      eventBody({
        title: 'Festival days',
        all_day: true,
        timezone: 'Europe/Berlin',
        start_date: '2027-05-01 00:00:00',
        end_date: '2027-05-03 00:00:00',
      }),
    );
    made.draft = await ev.make(eventBody({ title: 'Draft plans', status: 'draft' }), basic(author));
    made.locked = await ev.make(eventBody({ title: 'Locked room', post_password: 'Open Sesame' }));
  });
  afterAll(() => t.close());

  it('answers the whole filtered list as one VCALENDAR, every field as in the JSON of the same events', async () => {
    const ids = [made.chicago.id, made.berlin.id, made.sydney.id, made.allDay.id].join(',');
    const json = await ev.list(`?include=${ids}&per_page=2`, ADMIN_AUTH);
    const res = await icsGet(t, `events.ics?include=${ids}&per_page=2`, ADMIN_AUTH);
    const { calendar, events } = parse(res);
    expect(res.headers['x-tec-total']).toBe('4');
    expect(res.headers['x-ics-truncated']).toBeUndefined();
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Events');
    expect(calendar.getFirstPropertyValue('name')).toBe('Events');
    // no paging: all four, in list order
    const all = (await ev.list(`?include=${ids}&per_page=50`, ADMIN_AUTH)).body.events;
    expect(json.body.events).toHaveLength(2);
    expect(events.map((event) => event.uid)).toEqual(all.map((event: { global_id: string }) => event.global_id));
    events.forEach((event, index) => expectSameEvent(event, all[index]));
    const zones = calendar.getAllSubcomponents('vtimezone').map((zone) => zone.getFirstPropertyValue('tzid'));
    expect([...zones].sort()).toEqual(['America/Chicago', 'Australia/Sydney', 'Europe/Berlin']);
    expectFolded(res.text);
  });

  it('reads times across DST changes in each zone with the VTIMEZONE rules it writes', async () => {
    const { events } = parse(await icsGet(t, `events.ics?include=${made.chicago.id},${made.berlin.id},${made.sydney.id}`));
    const byUid = new Map(events.map((event) => [event.uid, event]));
    const chicago = byUid.get(made.chicago.global_id) as ICAL.Event;
    // 22:00 CST (UTC-6) to 05:00 CDT (UTC-5): 6 hours, not 7
    expect(chicago.endDate.toUnixTime() - chicago.startDate.toUnixTime()).toBe(6 * 3600);
    expect(made.chicago.utc_start_date).toBe('2027-03-14 04:00:00');
    const berlin = byUid.get(made.berlin.global_id) as ICAL.Event;
    // 23:00 CEST (UTC+2) to 04:00 CET (UTC+1): 6 hours
    expect(berlin.endDate.toUnixTime() - berlin.startDate.toUnixTime()).toBe(6 * 3600);
    const sydney = byUid.get(made.sydney.global_id) as ICAL.Event;
    // 20:00 AEDT (UTC+11) to 05:00 AEST (UTC+10): 10 hours
    expect(sydney.endDate.toUnixTime() - sydney.startDate.toUnixTime()).toBe(10 * 3600);
    for (const [event, json] of [
      [chicago, made.chicago],
      [berlin, made.berlin],
      [sydney, made.sydney],
    ] as const)
      expectSameEvent(event, json);
  });

  it('writes text escaped and folded at 75 octets without splitting a UTF-8 character', async () => {
    const res = await icsGet(t, `events/${made.chicago.id}.ics`);
    expectFolded(res.text);
    expect(res.text).toContain('SUMMARY:Night shift\\; jazz\\, blues & more');
    const [event] = parse(res).events;
    expect(event.description).toBe(`Bring friends; tickets, drinks\\snacks.\nÜnïcödé 音楽祭 — ${'ありがとう'.repeat(20)}`);
    expect(event.component.getFirstProperty('categories')?.getValues()).toEqual(['Late, night', 'Music']);
  });

  it('writes an all-day event as VALUE=DATE with an exclusive end', async () => {
    const res = await icsGet(t, `events/${made.allDay.id}.ics`);
    expect(res.text).toContain('DTSTART;VALUE=DATE:20270501\r\n');
    expect(res.text).toContain('DTEND;VALUE=DATE:20270504\r\n');
    expectSameEvent(parse(res).events[0], made.allDay);
  });

  it('answers one event with the JSON read access rules, errors as JSON', async () => {
    const json = (await ev.get(made.chicago.id)).body;
    expectSameEvent(parse(await icsGet(t, `events/${made.chicago.id}.ics`)).events[0], json);
    expectError(await icsGet(t, `events/${made.draft.id}.ics`), 403, 'event-not-accessible');
    const draft = parse(await icsGet(t, `events/${made.draft.id}.ics`, basic(author))).events[0];
    expect(draft.component.getFirstPropertyValue('status')).toBe('TENTATIVE');
    expectError(await icsGet(t, `events/${made.locked.id}.ics`), 403, 'event-password-protected');
    expectError(await icsGet(t, `events/${made.locked.id}.ics?password=wrong`), 403, 'event-password-protected');
    const unlocked = parse(await icsGet(t, `events/${made.locked.id}.ics?password=Open%20Sesame`)).events[0];
    expect(unlocked.summary).toBe('Locked room');
    expectError(await icsGet(t, 'events/987654.ics'), 404, 'rest-event-not-found');
    expectError(await icsGet(t, 'events/abc.ics'), 404, 'rest_no_route');
    // the JSON read is untouched
    expect((await ev.get(made.chicago.id)).headers['content-type']).toMatch(/^application\/json/);
  });

  it('gives the same bytes for two reads of the same data', async () => {
    const ids = `${made.chicago.id},${made.sydney.id},${made.allDay.id}`;
    const first = await icsGet(t, `events.ics?include=${ids}`);
    const second = await icsGet(t, `events.ics?include=${ids}`);
    expect(second.text).toBe(first.text);
    // the anonymous answer comes from the response cache the second time, still as iCalendar
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.headers['content-type']).toBe(CALENDAR_TYPE);
    expect((await icsGet(t, `events/${made.berlin.id}.ics`)).text).toBe((await icsGet(t, `events/${made.berlin.id}.ics`)).text);
  });

  it('applies the filters of GET /events and hides drafts from anonymous readers', async () => {
    const query = '?start_date=2027-03-01&end_date=2027-04-30';
    const json = (await ev.list(query)).body.events as Array<{ global_id: string }>;
    const { events } = parse(await icsGet(t, `events.ics${query}`));
    expect(events.map((event) => event.uid)).toEqual(json.map((event) => event.global_id));
    expect(events.map((event) => event.uid)).toEqual(
      expect.arrayContaining([made.chicago.global_id, made.sydney.global_id, made.locked.global_id]),
    );
    expect(events.map((event) => event.uid)).not.toContain(made.draft.global_id);
    expectError(await icsGet(t, 'events.ics?start_date=not-a-date'), 400, 'rest_invalid_param');
  });

  it('lists both routes in the namespace index and the OpenAPI document', async () => {
    const index = await t.http().get(`${API}`);
    expect(Object.keys(index.body.routes)).toEqual(
      expect.arrayContaining(['/tribe/events/v1/events.ics', '/tribe/events/v1/events/(?P<id>\\d+)\\.ics']),
    );
    const doc = await t.http().get(`${API}/doc`);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/events.ics', '/events/{id}.ics']));
    expect(doc.body.paths['/events/{id}.ics'].get.responses['200'].content).toHaveProperty('text/calendar');
    // the feed's 503 when too many are being written (ICS_WAITING_MAX), in the edition's language
    expect(doc.body.paths['/events.ics'].get.responses['503'].description).toMatch(/Retry-After/);
    const german = await t.http().get(`/de${API}/doc`);
    expect(german.body.paths['/events.ics'].get.responses['503'].description).toBe(
      'Gerade werden zu viele Kalender-Feeds geschrieben; nach den in Retry-After angegebenen Sekunden erneut versuchen.',
    );
  });

  it('leaves out an event the reader may no longer read by the time its slice is written', async () => {
    // as if the draft had been published when the ids were read and made a draft again before its slice
    const lists = t.app.get(EventListService);
    const read = lists.ids.bind(lists);
    const ids = jest.spyOn(lists, 'ids').mockImplementation(async (...args) => {
      const found = await read(...args);
      return { ...found, ids: [...found.ids, made.draft.id as number] };
    });
    try {
      const anonymous = parse(await icsGet(t, `events.ics?include=${made.berlin.id}`));
      expect(anonymous.events.map((event) => event.uid)).toEqual([made.berlin.global_id]);
      // its author may read it: written
      const own = parse(await icsGet(t, `events.ics?include=${made.berlin.id}`, basic(author)));
      expect(own.events.map((event) => event.uid)).toEqual([made.berlin.global_id, made.draft.global_id]);
    } finally {
      ids.mockRestore();
    }
  });

  it('names the calendar per edition', async () => {
    const res = await t.http().get(`/de${API}/events.ics?include=${made.berlin.id}`).buffer(true);
    const { calendar } = parse(res);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Veranstaltungen');
    expect(calendar.getFirstPropertyValue('name')).toBe('Veranstaltungen');
  });
});

/**
 * An app started with `env` for the enclosing `describe`, holding three one-hour events, 10 to 12
 * June 2027, titled `Day 10` to `Day 12`; the returned function gives the app once started.
 */
function appWithJuneDays(env: Record<string, string>): () => TestApp {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(env);
    const ev = eventClient(t);
    for (const day of ['10', '11', '12'])
      await ev.make(eventBody({ title: `Day ${day}`, start_date: `2027-06-${day} 10:00:00`, end_date: `2027-06-${day} 11:00:00` }));
  });
  afterAll(() => t.close());
  return () => t;
}

describe('events.ics with ICS_MAX_EVENTS', () => {
  const app = appWithJuneDays({ ICS_MAX_EVENTS: '2' });

  it('cuts the result in list order and says so', async () => {
    const t = app();
    const res = await icsGet(t, 'events.ics?start_date=2027-06-01&end_date=2027-06-30');
    expect(res.headers['x-ics-truncated']).toBe('true');
    expect(res.headers['x-tec-total']).toBe('3');
    expect(parse(res).events.map((event) => event.summary)).toEqual(['Day 10', 'Day 11']);
    const whole = await icsGet(t, 'events.ics?start_date=2027-06-11&end_date=2027-06-30');
    expect(whole.headers['x-ics-truncated']).toBeUndefined();
    expect(parse(whole).events).toHaveLength(2);
  });
});

describe('events.ics while another feed is written (ICS_WAITING_MAX=0)', () => {
  const app = appWithJuneDays({ ICS_WAITING_MAX: '0' });

  it('writes one feed at a time and answers the others 503 with Retry-After, then serves again', async () => {
    const t = app();
    // different end dates: every request is a feed of its own, none shares another's answer
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => icsGet(t, `events.ics?start_date=2027-06-01&end_date=2027-06-${20 + i}`)),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    for (const busy of answers.filter((res) => res.status === 503)) {
      expectError(busy, 503, 'rest_calendar_busy');
      expect(busy.headers['retry-after']).toBe('5');
      expect(busy.headers['content-type']).toMatch(/^application\/json/);
    }
    for (const written of answers.filter((res) => res.status === 200)) expect(parse(written).events).toHaveLength(3);
    const later = await icsGet(t, 'events.ics?start_date=2027-06-01&end_date=2027-06-30');
    expect(later.status).toBe(200);
    expect(parse(later).events.map((event) => event.summary)).toEqual(['Day 10', 'Day 11', 'Day 12']);
  });
});
