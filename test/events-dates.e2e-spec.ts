import { DateTime } from 'luxon';
import { details, eventBody, eventClient, expectError, type EventClient } from './support/events.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** 2027-03-21T00:30:00Z = 2027-03-20 19:30:00 in Chicago (CDT, -05:00). */
const INSTANT = Date.UTC(2027, 2, 21, 0, 30) / 1000;

describe('events: date inputs and time zones (§6)', () => {
  let t: TestApp;
  let ev: EventClient;

  beforeAll(async () => {
    t = await startTestApp();
    ev = eventClient(t);
  });
  afterAll(() => t.close());

  const startOf = async (start: string, timezone?: string) => {
    const res = await ev.create({
      title: 'Dated',
      start_date: start,
      end_date: '2027-12-31 23:00:00',
      ...(timezone === undefined ? {} : { timezone }),
    });
    if (res.status !== 201) throw new Error(`${start}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, any>;
  };

  it.each([
    String(INSTANT),
    `@${INSTANT}`,
    '2027-03-20T19:30:00-05:00',
    '2027-03-21T00:30:00Z',
    '2027-03-21 00:30Z',
    '2027-03-21T00:30:00.000Z',
    '2027-03-21T00:30:00.999Z',
    '2027-03-20T19:30:00-0500',
    '2027-03-21T01:30:00+01:00',
    '  2027-03-21t00:30:00z  ',
  ])('converts the instant %j to the wall time of the event zone', async (input) => {
    const body = await startOf(input, 'America/Chicago');
    expect(body).toMatchObject({
      start_date: '2027-03-20 19:30:00',
      start_date_details: details('2027-03-20 19:30:00'),
      utc_start_date: '2027-03-21 00:30:00',
      utc_start_date_details: details('2027-03-21 00:30:00'),
      timezone: 'America/Chicago',
      timezone_abbr: 'CDT',
    });
  });

  it('converts an instant to another zone than the one of its offset', async () => {
    const berlin = await startOf('2027-03-20T19:30:00-05:00', 'Europe/Berlin');
    expect(berlin).toMatchObject({ start_date: '2027-03-21 01:30:00', utc_start_date: '2027-03-21 00:30:00', timezone_abbr: 'CET' });
    const utc = await startOf(String(INSTANT));
    expect(utc).toMatchObject({ start_date: '2027-03-21 00:30:00', utc_start_date: '2027-03-21 00:30:00', timezone: 'UTC' });
  });

  it('treats every all-digit value as a Unix timestamp', async () => {
    const body = await startOf('20270320', 'UTC');
    expect(body.start_date).toBe('1970-08-23 14:38:40');
  });

  it.each([
    ['2027-03-20 19:30:00', '2027-03-20 19:30:00'],
    ['2027-03-20 19:30', '2027-03-20 19:30:00'],
    ['2027-03-20T19:30', '2027-03-20 19:30:00'],
    ['2027-03-20T19:30:15', '2027-03-20 19:30:15'],
    ['2027-03-20T19:30:15.250', '2027-03-20 19:30:15'],
    ['2027-03-20', '2027-03-20 00:00:00'],
    ['2027/03/20', '2027-03-20 00:00:00'],
    ['03/20/2027', '2027-03-20 00:00:00'],
    ['20.03.2027', '2027-03-20 00:00:00'],
    ['20 March 2027', '2027-03-20 00:00:00'],
    ['20 MARCH 2027', '2027-03-20 00:00:00'],
    ['20 Mar 2027', '2027-03-20 00:00:00'],
    ['March 20 2027', '2027-03-20 00:00:00'],
    ['Mar 20, 2027', '2027-03-20 00:00:00'],
    ['2027-03-20 4pm', '2027-03-20 16:00:00'],
    ['20 March 2027 19:30', '2027-03-20 19:30:00'],
    ['03/20/2027 9:30pm', '2027-03-20 21:30:00'],
    ['2027-03-20 12am', '2027-03-20 00:00:00'],
    ['2027-03-20 12pm', '2027-03-20 12:00:00'],
  ])('reads the wall-clock value %j in the event zone', async (input, wall) => {
    const body = await startOf(input, 'America/Chicago');
    expect(body.start_date).toBe(wall);
    const utc = DateTime.fromFormat(wall, 'yyyy-MM-dd HH:mm:ss', { zone: 'America/Chicago' }).toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
    expect(body.utc_start_date).toBe(utc);
  });

  it('reads relative expressions against now in the event zone', async () => {
    const zone = 'Asia/Kolkata';
    const today = DateTime.now().setZone(zone).startOf('day');
    const fmt = (value: DateTime) => value.toFormat('yyyy-MM-dd HH:mm:ss');
    expect((await startOf('tomorrow 9am', zone)).start_date).toBe(fmt(today.plus({ days: 1, hours: 9 })));
    expect((await startOf('today', zone)).start_date).toBe(fmt(today));
    expect((await startOf('yesterday noon', zone)).start_date).toBe(fmt(today.minus({ days: 1 }).set({ hour: 12 })));
    expect((await startOf('tomorrow +2 hours', zone)).start_date).toBe(fmt(today.plus({ days: 1, hours: 2 })));
    expect((await startOf('+2 days 14:30', zone)).start_date).toBe(fmt(today.plus({ days: 2 }).set({ hour: 14, minute: 30 })));
    const nextMonday = today.plus({ days: (8 - today.weekday) % 7 || 7 });
    expect((await startOf('next monday 4pm', zone)).start_date).toBe(fmt(nextMonday.set({ hour: 16 })));
    const now = await startOf('now', zone);
    expect(Math.abs(DateTime.fromFormat(now.start_date, 'yyyy-MM-dd HH:mm:ss', { zone }).toMillis() - Date.now())).toBeLessThan(10_000);
  });

  it.each([
    '2027-02-30',
    '2027-13-01',
    '2027-03-20 25:00:00',
    '0999-03-20',
    '10000-01-01',
    '   ',
    'before my birthday',
    '2027-03-20 19:30 +5 bananas',
  ])('refuses the start %j with rest_invalid_param (start_date)', async (input) => {
    expectError(await ev.create(eventBody({ start_date: input })), 400, 'rest_invalid_param', ['start_date']);
  });

  it.each([
    ['UTC+05:30', 'UTC+5.5', 'UTC+5.5', '2027-01-10 04:30:00'],
    ['utc+5.5', 'UTC+5.5', 'UTC+5.5', '2027-01-10 04:30:00'],
    ['UTC+5:45', 'UTC+5.75', 'UTC+5.75', '2027-01-10 04:15:00'],
    ['UTC+2', 'UTC+2', 'UTC+2', '2027-01-10 08:00:00'],
    ['UTC-5', 'UTC-5', 'UTC-5', '2027-01-10 15:00:00'],
    ['UTC+0', 'UTC+0', 'UTC+0', '2027-01-10 10:00:00'],
    ['UTC+14', 'UTC+14', 'UTC+14', '2027-01-09 20:00:00'],
    ['UTC-12', 'UTC-12', 'UTC-12', '2027-01-10 22:00:00'],
    ['utc', 'UTC', 'UTC', '2027-01-10 10:00:00'],
    ['america/new_york', 'America/New_York', 'EST', '2027-01-10 15:00:00'],
    ['Europe/Berlin', 'Europe/Berlin', 'CET', '2027-01-10 09:00:00'],
    ['Europe/London', 'Europe/London', 'GMT', '2027-01-10 10:00:00'],
    ['Asia/Kolkata', 'Asia/Kolkata', 'IST', '2027-01-10 04:30:00'],
    ['Australia/Sydney', 'Australia/Sydney', 'AEDT', '2027-01-09 23:00:00'],
    ['Asia/Dubai', 'Asia/Dubai', '+04', '2027-01-10 06:00:00'],
    ['', 'UTC', 'UTC', '2027-01-10 10:00:00'],
  ])('normalises the zone %j to %j (abbreviation %j in January)', async (input, stored, abbr, utc) => {
    const body = await ev.make(eventBody({ timezone: input, start_date: '2027-01-10 10:00:00', end_date: '2027-01-10 11:00:00' }));
    expect(body).toMatchObject({ timezone: stored, timezone_abbr: abbr, start_date: '2027-01-10 10:00:00', utc_start_date: utc });
  });

  it.each([
    ['America/New_York', 'EDT'],
    ['Europe/Berlin', 'CEST'],
    ['Europe/London', 'BST'],
    ['Australia/Sydney', 'AEST'],
    ['Asia/Dubai', '+04'],
  ])('gives the summer abbreviation of %j', async (zone, abbr) => {
    const body = await ev.make(eventBody({ timezone: zone, start_date: '2027-07-10 10:00:00', end_date: '2027-07-10 11:00:00' }));
    expect(body.timezone_abbr).toBe(abbr);
  });

  it.each(['Mars/Olympus', 'UTC+15', 'UTC-13', 'UTC+5.3', 'CET-ish'])('refuses the zone %j', async (zone) => {
    expectError(await ev.create(eventBody({ timezone: zone })), 400, 'rest_invalid_param', ['timezone']);
  });

  it('sets an end before the start to the start', async () => {
    const body = await ev.make(
      eventBody({ timezone: 'America/Chicago', start_date: '2027-03-20 19:30:00', end_date: '2027-03-20 18:00:00' }),
    );
    expect(body).toMatchObject({
      start_date: '2027-03-20 19:30:00',
      end_date: '2027-03-20 19:30:00',
      utc_start_date: '2027-03-21 00:30:00',
      utc_end_date: '2027-03-21 00:30:00',
    });
    expect(body.end_date_details).toEqual(details('2027-03-20 19:30:00'));
  });

  it('widens all-day events to whole local days and recomputes the UTC values, also across several days', async () => {
    const one = await ev.make(
      eventBody({ all_day: true, timezone: 'America/Chicago', start_date: '2027-03-20 19:30:00', end_date: '2027-03-20 21:00:00' }),
    );
    expect(one).toMatchObject({
      all_day: true,
      start_date: '2027-03-20 00:00:00',
      end_date: '2027-03-20 23:59:59',
      utc_start_date: '2027-03-20 05:00:00',
      utc_end_date: '2027-03-21 04:59:59',
    });
    const several = await ev.make(
      eventBody({ all_day: 'true', timezone: 'America/Chicago', start_date: '2027-03-20 19:30:00', end_date: '2027-03-25 10:00' }),
    );
    expect(several).toMatchObject({
      start_date: '2027-03-20 00:00:00',
      end_date: '2027-03-25 23:59:59',
      utc_end_date: '2027-03-26 04:59:59',
    });
    const zone = 'America/Chicago';
    const today = DateTime.now().setZone(zone).startOf('day');
    const relative = await ev.make(eventBody({ all_day: true, timezone: zone, start_date: 'tomorrow 9am', end_date: '+5 days 11am' }));
    expect(relative.start_date).toBe(`${today.plus({ days: 1 }).toFormat('yyyy-MM-dd')} 00:00:00`);
    expect(relative.end_date).toBe(`${today.plus({ days: 5 }).toFormat('yyyy-MM-dd')} 23:59:59`);
  });

  it('moves a wall time inside a DST gap forward by the gap', async () => {
    const body = await ev.make(
      eventBody({ timezone: 'America/Chicago', start_date: '2027-03-14 02:30:00', end_date: '2027-03-14 04:00:00' }),
    );
    expect(body).toMatchObject({
      start_date: '2027-03-14 03:30:00',
      utc_start_date: '2027-03-14 08:30:00',
      end_date: '2027-03-14 04:00:00',
      timezone_abbr: 'CDT',
    });
    expect(body.start_date_details).toEqual(details('2027-03-14 03:30:00'));
  });

  it('reads a repeated wall time as its first occurrence, and keeps instants in the second one', async () => {
    const wall = await ev.make(
      eventBody({ timezone: 'America/Chicago', start_date: '2027-11-07 01:30:00', end_date: '2027-11-07 03:00:00' }),
    );
    expect(wall).toMatchObject({
      start_date: '2027-11-07 01:30:00',
      utc_start_date: '2027-11-07 06:30:00',
      timezone_abbr: 'CDT',
      utc_end_date: '2027-11-07 09:00:00',
    });
    const instant = await ev.make(
      eventBody({ timezone: 'America/Chicago', start_date: '2027-11-07T07:30:00Z', end_date: '2027-11-07T09:00:00Z' }),
    );
    expect(instant).toMatchObject({
      start_date: '2027-11-07 01:30:00',
      utc_start_date: '2027-11-07 07:30:00',
      timezone_abbr: 'CST',
      end_date: '2027-11-07 03:00:00',
    });
    const single = await ev.get(instant.id);
    expect(single.body.json_ld.startDate).toBe('2027-11-07T01:30:00-06:00');
  });

  it('lists an event that ends, in wall time, before it starts (inside a repeated hour) by its end', async () => {
    // 01:50 CDT (06:50Z) to 01:10 CST (07:10Z): the end's wall time is earlier than the start's.
    const body = await ev.make(
      eventBody({
        title: 'Across the repeated hour',
        timezone: 'America/Chicago',
        start_date: '2027-11-07T06:50:00Z',
        end_date: '2027-11-07T07:10:00Z',
      }),
    );
    expect(body).toMatchObject({ start_date: '2027-11-07 01:50:00', end_date: '2027-11-07 01:10:00' });
    for (const filter of ['end_date=2027-11-07 01:20:00', 'ends_before=2027-11-07 01:20:00']) {
      const res = await ev.list(`?start_date=2027-11-07 00:00:00&${filter}&strict_dates=true&per_page=50`);
      expect(res.status).toBe(200);
      expect(res.body.events.map((event: { id: number }) => event.id)).toContain(body.id);
      expect(res.body.total).toBe(res.body.events.length);
    }
  });

  it('shows the zone offset at each moment in json_ld', async () => {
    const body = await ev.make(
      eventBody({ timezone: 'America/Chicago', start_date: '2027-03-13 20:00:00', end_date: '2027-03-14 09:00:00' }),
    );
    const read = await ev.get(body.id);
    expect(read.body.json_ld.startDate).toBe('2027-03-13T20:00:00-06:00');
    expect(read.body.json_ld.endDate).toBe('2027-03-14T09:00:00-05:00');
    const fixed = await ev.make(eventBody({ timezone: 'UTC+5.5', start_date: '2027-03-13 20:00:00', end_date: '2027-03-13 21:00:00' }));
    expect((await ev.get(fixed.id)).body.json_ld.startDate).toBe('2027-03-13T20:00:00+05:30');
  });

  describe('on update (§6.5)', () => {
    const chicagoEvening = () =>
      ev.make(eventBody({ timezone: 'America/Chicago', start_date: '2027-03-20 19:30:00', end_date: '2027-03-20 21:00:00' }));

    it('keeps the wall times and recomputes utc_* when only the zone changes', async () => {
      const event = await chicagoEvening();
      const res = await ev.update(event.id, { timezone: 'Europe/Berlin' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        timezone: 'Europe/Berlin',
        timezone_abbr: 'CET',
        start_date: '2027-03-20 19:30:00',
        end_date: '2027-03-20 21:00:00',
        utc_start_date: '2027-03-20 18:30:00',
        utc_end_date: '2027-03-20 20:00:00',
      });
      const site = await ev.update(event.id, { timezone: '' });
      expect(site.body).toMatchObject({ timezone: 'UTC', start_date: '2027-03-20 19:30:00', utc_start_date: '2027-03-20 19:30:00' });
    });

    it('reads dates sent with a new zone in that zone, and dates sent alone in the stored zone', async () => {
      const event = await chicagoEvening();
      const both = await ev.update(event.id, {
        timezone: 'Asia/Kolkata',
        start_date: '2027-03-21 10:00:00',
        end_date: '2027-03-21T06:30:00Z',
      });
      expect(both.body).toMatchObject({
        start_date: '2027-03-21 10:00:00',
        utc_start_date: '2027-03-21 04:30:00',
        end_date: '2027-03-21 12:00:00',
        timezone_abbr: 'IST',
      });
      const alone = await ev.update(event.id, { start_date: '2027-03-21 08:00:00' });
      expect(alone.body).toMatchObject({
        timezone: 'Asia/Kolkata',
        start_date: '2027-03-21 08:00:00',
        utc_start_date: '2027-03-21 02:30:00',
        end_date: '2027-03-21 12:00:00',
      });
      const later = await ev.update(event.id, { start_date: '2027-03-22 08:00:00' });
      expect(later.body).toMatchObject({ start_date: '2027-03-22 08:00:00', end_date: '2027-03-22 08:00:00' });
    });

    it('widens stored dates when all_day=true is sent alone, and keeps them when all_day=false is sent', async () => {
      const event = await chicagoEvening();
      const widened = await ev.update(event.id, { all_day: true });
      expect(widened.body).toMatchObject({
        all_day: true,
        start_date: '2027-03-20 00:00:00',
        end_date: '2027-03-20 23:59:59',
        utc_start_date: '2027-03-20 05:00:00',
        utc_end_date: '2027-03-21 04:59:59',
      });
      const moved = await ev.update(event.id, { start_date: '2027-03-22 15:00:00', end_date: '2027-03-23 10:00:00' });
      expect(moved.body).toMatchObject({ all_day: true, start_date: '2027-03-22 00:00:00', end_date: '2027-03-23 23:59:59' });
      const off = await ev.update(event.id, { all_day: false });
      expect(off.body).toMatchObject({ all_day: false, start_date: '2027-03-22 00:00:00', end_date: '2027-03-23 23:59:59' });
      const untouched = await ev.update(event.id, { title: 'Renamed' });
      expect(untouched.body).toMatchObject({
        all_day: false,
        timezone: 'America/Chicago',
        start_date: '2027-03-22 00:00:00',
        end_date: '2027-03-23 23:59:59',
      });
    });

    it('refuses empty or unparseable dates and zones on update without changing anything', async () => {
      const event = await chicagoEvening();
      expectError(await ev.update(event.id, { start_date: '' }), 400, 'rest_invalid_param', ['start_date']);
      expectError(await ev.update(event.id, { end_date: null }), 400, 'rest_invalid_param', ['end_date']);
      expectError(await ev.update(event.id, { timezone: 'Nowhere/Land', title: 'Changed' }), 400, 'rest_invalid_param', ['timezone']);
      const read = await ev.get(event.id);
      expect(read.body).toMatchObject({
        title: event.title,
        timezone: 'America/Chicago',
        start_date: '2027-03-20 19:30:00',
        modified_utc: event.modified_utc,
      });
    });
  });
});
