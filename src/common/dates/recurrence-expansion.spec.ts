import { expandRecurrence, horizonWall, occurrenceTimes } from './recurrence-expansion.js';
import { readRecurrenceLines } from './recurrence-lines.js';
import { wallToUtc } from './wall-time.js';

const FAR = { throughWall: '2100-01-01 00:00:00', cap: 1000 };
const NY = 'America/New_York';

function starts(lines: string[], start: string, zone = NY, limits = FAR): string[] {
  return expandRecurrence(readRecurrenceLines(lines, zone), start, zone, limits).starts;
}

/** `1997-09-02` style days at 09:00. */
const at9 = (...days: string[]) => days.map((day) => `${day} 09:00:00`);

describe('wall-clock times across daylight saving (spec 6.4 for gaps and repeats)', () => {
  const daily = (start: string, zone: string, count: number) => starts([`RRULE:FREQ=DAILY;COUNT=${count}`], start, zone);

  it('keeps 09:00 in New York across the spring change; the UTC instant moves', () => {
    const result = daily('2027-03-13 09:00:00', NY, 3);
    expect(result).toEqual(at9('2027-03-13', '2027-03-14', '2027-03-15'));
    expect(result.map((wall) => wallToUtc(wall, NY))).toEqual(['2027-03-13 14:00:00', '2027-03-14 13:00:00', '2027-03-15 13:00:00']);
  });

  it('moves a start inside the New York gap forward by the gap length', () => {
    expect(daily('2027-03-13 02:30:00', NY, 3)).toEqual(['2027-03-13 02:30:00', '2027-03-14 03:30:00', '2027-03-15 02:30:00']);
  });

  it('takes the first of a repeated New York hour', () => {
    const result = daily('2027-11-06 01:30:00', NY, 3);
    expect(result).toEqual(['2027-11-06 01:30:00', '2027-11-07 01:30:00', '2027-11-08 01:30:00']);
    expect(result.map((wall) => wallToUtc(wall, NY))).toEqual(['2027-11-06 05:30:00', '2027-11-07 05:30:00', '2027-11-08 06:30:00']);
  });

  it('handles a weekly Berlin rule over the gap and the repeated hour', () => {
    const spring = starts(['RRULE:FREQ=WEEKLY;BYDAY=SU;COUNT=3'], '2027-03-21 02:30:00', 'Europe/Berlin');
    expect(spring).toEqual(['2027-03-21 02:30:00', '2027-03-28 03:30:00', '2027-04-04 02:30:00']);
    const autumn = starts(['RRULE:FREQ=WEEKLY;BYDAY=SU;COUNT=2'], '2027-10-24 02:30:00', 'Europe/Berlin');
    expect(autumn.map((wall) => wallToUtc(wall, 'Europe/Berlin'))).toEqual(['2027-10-24 00:30:00', '2027-10-31 00:30:00']);
  });

  it('handles the half-hour changes of Lord Howe Island', () => {
    const spring = daily('2027-10-02 02:15:00', 'Australia/Lord_Howe', 3);
    expect(spring).toEqual(['2027-10-02 02:15:00', '2027-10-03 02:45:00', '2027-10-04 02:15:00']);
    const autumn = daily('2027-04-03 01:45:00', 'Australia/Lord_Howe', 2);
    // 01:30-02:00 happens twice on 2027-04-04: the first is still at +11
    expect(autumn.map((wall) => wallToUtc(wall, 'Australia/Lord_Howe'))).toEqual(['2027-04-02 14:45:00', '2027-04-03 14:45:00']);
  });
});

describe('RDATE and EXDATE', () => {
  it('adds and removes dates, in the event zone, in another zone, in UTC and as whole days', () => {
    const result = starts(
      [
        'RRULE:FREQ=DAILY;COUNT=5',
        'EXDATE:20270103T090000',
        'EXDATE;VALUE=DATE:20270104',
        'RDATE;TZID=Europe/Berlin:20270110T150000',
        'RDATE:20270111T140000Z,20270112T090000',
        'RDATE;VALUE=DATE:20270113',
      ],
      '2027-01-01 09:00:00',
    );
    expect(result).toEqual(at9('2027-01-01', '2027-01-02', '2027-01-05', '2027-01-10', '2027-01-11', '2027-01-12', '2027-01-13'));
  });

  it('answers the lines in one spelling', () => {
    expect(readRecurrenceLines([' rrule:freq=weekly;byday=mo,we ', 'exdate;VALUE=DATE:20270104'], NY).lines).toEqual([
      'RRULE:FREQ=WEEKLY;BYDAY=MO,WE',
      'EXDATE;VALUE=DATE:20270104',
    ]);
  });
});

describe('limits', () => {
  it('stops at the horizon and says the series continues', () => {
    const expansion = expandRecurrence(readRecurrenceLines(['RRULE:FREQ=DAILY'], 'UTC'), '2027-01-01 10:00:00', 'UTC', {
      throughWall: '2028-12-31 23:59:59',
      cap: 1000,
    });
    expect(expansion.starts).toHaveLength(731);
    expect(expansion.continues).toBe(true);
  });

  it('generates exactly the cap of a longer rule, and then the series is complete', () => {
    const expansion = expandRecurrence(readRecurrenceLines(['RRULE:FREQ=HOURLY'], 'UTC'), '2027-01-01 10:00:00', 'UTC', FAR);
    expect(expansion.starts).toHaveLength(1000);
    expect(expansion.continues).toBe(false);
  });

  it('says a finished rule does not continue', () => {
    expect(expandRecurrence(readRecurrenceLines(['RRULE:FREQ=DAILY;COUNT=3'], 'UTC'), '2027-01-01 10:00:00', 'UTC', FAR).continues).toBe(
      false,
    );
  });
});

describe('occurrenceTimes', () => {
  it('keeps the wall-clock length across a change of the clocks', () => {
    const series = { startLocal: '2027-03-13 19:30:00', endLocal: '2027-03-13 21:00:00', timezone: NY };
    expect(occurrenceTimes('2027-03-14 19:30:00', series)).toEqual({
      startLocal: '2027-03-14 19:30:00',
      endLocal: '2027-03-14 21:00:00',
      startUtc: '2027-03-14 23:30:00',
      endUtc: '2027-03-15 01:00:00',
    });
  });

  it('keeps the days of an all-day event', () => {
    const series = { startLocal: '2027-01-01 00:00:00', endLocal: '2027-01-02 23:59:59', timezone: 'Europe/Berlin' };
    expect(occurrenceTimes('2027-03-27 00:00:00', series)).toMatchObject({
      startLocal: '2027-03-27 00:00:00',
      endLocal: '2027-03-28 23:59:59',
    });
  });

  it('moves a start in the gap forward', () => {
    const series = { startLocal: '2027-03-13 02:30:00', endLocal: '2027-03-13 02:45:00', timezone: NY };
    expect(occurrenceTimes('2027-03-14 02:30:00', series)).toMatchObject({
      startLocal: '2027-03-14 03:30:00',
      endLocal: '2027-03-14 03:45:00',
    });
  });
});

describe('horizonWall', () => {
  it('counts from now, or from a later start', () => {
    const now = new Date('2027-01-01T00:00:00Z');
    expect(horizonWall('2026-06-01 00:00:00', 'UTC', 730, now)).toBe('2028-12-31 00:00:00');
    expect(horizonWall('2028-01-01 12:00:00', 'America/New_York', 10, now)).toBe('2028-01-11 07:00:00');
  });
});
