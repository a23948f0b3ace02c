import ICAL from 'ical.js';
import { expandRecurrence } from './recurrence-expansion.js';
import { readRecurrenceLines } from './recurrence-lines.js';

const FAR = { throughWall: '2100-01-01 00:00:00', cap: 1000 };
const NY = 'America/New_York';

function starts(lines: string[], start: string, zone = NY, limits = FAR): string[] {
  return expandRecurrence(readRecurrenceLines(lines, zone), start, zone, limits).starts;
}

/** `1997-09-02` style days at 09:00. */
const at9 = (...days: string[]) => days.map((day) => `${day} 09:00:00`);

describe('RFC 5545 §3.8.5.3 examples (America/New_York, wall times)', () => {
  it('daily for 10 occurrences', () => {
    expect(starts(['RRULE:FREQ=DAILY;COUNT=10'], '1997-09-02 09:00:00')).toEqual(
      at9(
        '1997-09-02',
        '1997-09-03',
        '1997-09-04',
        '1997-09-05',
        '1997-09-06',
        '1997-09-07',
        '1997-09-08',
        '1997-09-09',
        '1997-09-10',
        '1997-09-11',
      ),
    );
  });

  it('daily until December 24, 1997 (UNTIL in UTC, across the end of daylight saving)', () => {
    const result = starts(['RRULE:FREQ=DAILY;UNTIL=19971224T000000Z'], '1997-09-02 09:00:00');
    expect(result).toHaveLength(113);
    expect(result.at(-1)).toBe('1997-12-23 09:00:00');
    expect(result.every((wall) => wall.endsWith('09:00:00'))).toBe(true);
  });

  it('every 10 days, 5 occurrences', () => {
    expect(starts(['RRULE:FREQ=DAILY;INTERVAL=10;COUNT=5'], '1997-09-02 09:00:00')).toEqual(
      at9('1997-09-02', '1997-09-12', '1997-09-22', '1997-10-02', '1997-10-12'),
    );
  });

  it('every day in January, for 3 years', () => {
    const result = starts(['RRULE:FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA'], '1998-01-01 09:00:00');
    expect(result).toHaveLength(93);
    expect(result.at(-1)).toBe('2000-01-31 09:00:00');
  });

  it('weekly on Tuesday and Thursday for five weeks', () => {
    expect(starts(['RRULE:FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH'], '1997-09-02 09:00:00')).toEqual(
      at9(
        '1997-09-02',
        '1997-09-04',
        '1997-09-09',
        '1997-09-11',
        '1997-09-16',
        '1997-09-18',
        '1997-09-23',
        '1997-09-25',
        '1997-09-30',
        '1997-10-02',
      ),
    );
  });

  it('every other week on Monday, Wednesday and Friday until December 24, 1997', () => {
    const result = starts(['RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR'], '1997-09-01 09:00:00');
    expect(result).toHaveLength(25);
    expect(result.slice(0, 7)).toEqual(
      at9('1997-09-01', '1997-09-03', '1997-09-05', '1997-09-15', '1997-09-17', '1997-09-19', '1997-09-29'),
    );
    expect(result.at(-1)).toBe('1997-12-22 09:00:00');
  });

  it('monthly on the first Friday for 10 occurrences', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;COUNT=10;BYDAY=1FR'], '1997-09-05 09:00:00')).toEqual(
      at9(
        '1997-09-05',
        '1997-10-03',
        '1997-11-07',
        '1997-12-05',
        '1998-01-02',
        '1998-02-06',
        '1998-03-06',
        '1998-04-03',
        '1998-05-01',
        '1998-06-05',
      ),
    );
  });

  it('monthly on the second-to-last Monday for 6 months', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;COUNT=6;BYDAY=-2MO'], '1997-09-22 09:00:00')).toEqual(
      at9('1997-09-22', '1997-10-20', '1997-11-17', '1997-12-22', '1998-01-19', '1998-02-16'),
    );
  });

  it('the third instance of Tuesday, Wednesday or Thursday, for the next 3 months (BYSETPOS)', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3'], '1997-09-04 09:00:00')).toEqual(
      at9('1997-09-04', '1997-10-07', '1997-11-06'),
    );
  });

  it('the last work day of the month (BYSETPOS=-1); the event itself stays the first start', () => {
    const result = starts(['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1'], '1997-09-29 09:00:00', NY, {
      throughWall: '1998-03-31 23:59:59',
      cap: 1000,
    });
    expect(result).toEqual(
      at9('1997-09-29', '1997-09-30', '1997-10-31', '1997-11-28', '1997-12-31', '1998-01-30', '1998-02-27', '1998-03-31'),
    );
  });

  it('every Friday the 13th', () => {
    const result = starts(['RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13'], '1997-09-02 09:00:00', NY, {
      throughWall: '2000-12-31 00:00:00',
      cap: 1000,
    });
    expect(result.slice(1)).toEqual(at9('1998-02-13', '1998-03-13', '1998-11-13', '1999-08-13', '2000-10-13'));
  });

  it('US presidential election day', () => {
    const result = starts(['RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8'], '1996-11-05 09:00:00', NY, {
      throughWall: '2005-01-01 00:00:00',
      cap: 1000,
    });
    expect(result).toEqual(at9('1996-11-05', '2000-11-07', '2004-11-02'));
  });

  it('monthly on the 2nd and 15th for 10 occurrences', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15'], '1997-09-02 09:00:00')).toEqual(
      at9(
        '1997-09-02',
        '1997-09-15',
        '1997-10-02',
        '1997-10-15',
        '1997-11-02',
        '1997-11-15',
        '1997-12-02',
        '1997-12-15',
        '1998-01-02',
        '1998-01-15',
      ),
    );
  });

  it('Monday of week number 20', () => {
    const result = starts(['RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO'], '1997-05-12 09:00:00', NY, {
      throughWall: '1999-12-31 00:00:00',
      cap: 1000,
    });
    expect(result).toEqual(at9('1997-05-12', '1998-05-11', '1999-05-17'));
  });

  it('WKST changes the result of a two-weekly rule', () => {
    expect(starts(['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO'], '1997-08-05 09:00:00')).toEqual(
      at9('1997-08-05', '1997-08-10', '1997-08-19', '1997-08-24'),
    );
    expect(starts(['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU'], '1997-08-05 09:00:00')).toEqual(
      at9('1997-08-05', '1997-08-17', '1997-08-19', '1997-08-31'),
    );
  });

  it('skips invalid dates (the 30th of February)', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5'], '2007-01-15 09:00:00')).toEqual(
      at9('2007-01-15', '2007-01-30', '2007-02-15', '2007-03-15', '2007-03-30'),
    );
  });
});

describe('agreement with an independent implementation (ical.js)', () => {
  const icalStarts = (rule: string, start: string, count: number): string[] => {
    const iterator = ICAL.Recur.fromString(rule).iterator(ICAL.Time.fromDateTimeString(start.replace(' ', 'T')));
    const found: string[] = [];
    for (let next = iterator.next(); next && next.year < 2100 && found.length < count; next = iterator.next()) {
      found.push(next.toString().replace('T', ' '));
    }
    return found;
  };

  it.each([
    ['FREQ=DAILY;INTERVAL=3', '2027-02-27 18:00:00'],
    ['FREQ=WEEKLY;BYDAY=MO,WE,FR', '2027-03-01 07:15:00'],
    ['FREQ=MONTHLY;BYDAY=-1SU', '2027-01-31 10:00:00'],
    ['FREQ=MONTHLY;BYMONTHDAY=-1,15', '2027-01-15 12:00:00'],
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29', '2028-02-29 08:00:00'],
    ['FREQ=YEARLY;BYYEARDAY=1,100,-1', '2027-01-01 20:00:00'],
    ['FREQ=HOURLY;INTERVAL=7;BYDAY=SA,SU', '2027-01-02 01:00:00'],
  ])('%s from %s', (rule, start) => {
    expect(starts([`RRULE:${rule}`], start, 'UTC', { throughWall: '2100-01-01 00:00:00', cap: 60 })).toEqual(icalStarts(rule, start, 60));
  });
});
