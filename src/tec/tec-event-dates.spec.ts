import { tecEventDates } from './tec-event-dates.js';

describe('tecEventDates', () => {
  it('keeps the dates in the zone of the event when they are sent', () => {
    expect(
      tecEventDates(
        { start_date: '2027-05-03 10:00:00', end_date: '2027-05-03 12:00:00', start_date_utc: '2027-05-03 01:00:00' },
        null,
        'UTC',
      ),
    ).toEqual({
      start_date: '2027-05-03 10:00:00',
      end_date: '2027-05-03 12:00:00',
    });
  });

  it('reads UTC dates into the zone sent, else the stored one, else the site zone', () => {
    const utc = { start_date_utc: '2027-05-03 08:00:00', end_date_utc: '2027-05-03 10:30:00' };
    expect(tecEventDates({ ...utc, timezone: 'Europe/Berlin' }, null, 'UTC')).toEqual({
      start_date: '2027-05-03 10:00:00',
      end_date: '2027-05-03 12:30:00',
    });
    expect(tecEventDates(utc, { timezone: 'Asia/Tokyo', startUtc: '2027-01-01 00:00:00' }, 'UTC')).toEqual({
      start_date: '2027-05-03 17:00:00',
      end_date: '2027-05-03 19:30:00',
    });
    expect(tecEventDates(utc, null, 'UTC+5.5')).toEqual({ start_date: '2027-05-03 13:30:00', end_date: '2027-05-03 16:00:00' });
  });

  it('ends `duration` seconds after the start sent or stored', () => {
    expect(tecEventDates({ start_date: '2027-05-03 10:00:00', duration: 5400, timezone: 'Europe/Berlin' }, null, 'UTC')).toEqual({
      start_date: '2027-05-03 10:00:00',
      end_date: '2027-05-03 11:30:00',
    });
    expect(tecEventDates({ duration: 3600 }, { timezone: 'Europe/Berlin', startUtc: '2027-03-28 00:30:00' }, 'UTC')).toEqual({
      start_date: undefined,
      // across the change to summer time: an hour of real time after 01:30 CET is 03:30 CEST
      end_date: '2027-03-28 03:30:00',
    });
  });

  it('leaves an unknown zone to the v1 write, and absent dates absent', () => {
    expect(tecEventDates({ start_date_utc: '2027-05-03 08:00:00', timezone: 'Mars/Olympus' }, null, 'UTC')).toEqual({
      start_date: undefined,
      end_date: undefined,
    });
    expect(tecEventDates({}, null, 'UTC')).toEqual({ start_date: undefined, end_date: undefined });
  });
});
