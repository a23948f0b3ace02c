import ICAL from 'ical.js';
import { expandRecurrence, horizonWall, occurrenceTimes } from './recurrence-expansion.js';
import { readRecurrenceLines, RecurrenceError, type RecurrenceProblem } from './recurrence-lines.js';
import { wallToUtc } from './wall-time.js';

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

describe('refused input', () => {
  const refusal = (lines: unknown, start = '2027-01-01 09:00:00'): RecurrenceProblem | undefined => {
    try {
      expandRecurrence(readRecurrenceLines(lines, NY), start, NY, FAR);
      return undefined;
    } catch (error) {
      if (error instanceof RecurrenceError) return error.problem;
      throw error;
    }
  };

  it.each([
    ['not a list', 'RRULE:FREQ=DAILY', 'recurrence_list'],
    ['a list with a number', ['RRULE:FREQ=DAILY', 3], 'recurrence_list'],
    ['an unknown property', ['FOO:BAR'], 'recurrence_line'],
    ['no colon', ['RRULE FREQ=DAILY'], 'recurrence_line'],
    ['an unknown rule part', ['RRULE:FREQ=DAILY;FOO=1'], 'recurrence_line'],
    ['a rule without FREQ', ['RRULE:COUNT=3'], 'recurrence_line'],
    ['an unknown frequency', ['RRULE:FREQ=FORTNIGHTLY'], 'recurrence_line'],
    ['a part given twice', ['RRULE:FREQ=DAILY;COUNT=2;COUNT=3'], 'recurrence_line'],
    ['a zero interval', ['RRULE:FREQ=DAILY;INTERVAL=0'], 'recurrence_line'],
    ['a month 13', ['RRULE:FREQ=YEARLY;BYMONTH=13'], 'recurrence_line'],
    ['a malformed EXDATE', ['RRULE:FREQ=DAILY', 'EXDATE:2027-01-02'], 'recurrence_line'],
    ['an EXDATE in an unknown zone', ['RRULE:FREQ=DAILY', 'EXDATE;TZID=Mars/Olympus:20270102T090000'], 'recurrence_line'],
    ['a DTSTART line', ['DTSTART:20270101T090000', 'RRULE:FREQ=DAILY'], 'recurrence_dtstart'],
    ['COUNT and UNTIL together', ['RRULE:FREQ=DAILY;COUNT=3;UNTIL=20270110T000000Z'], 'recurrence_count_until'],
    ['a SECONDLY rule', ['RRULE:FREQ=SECONDLY'], 'recurrence_frequency'],
    ['a MINUTELY rule', ['RRULE:FREQ=MINUTELY;INTERVAL=15'], 'recurrence_frequency'],
    ['only EXDATE lines', ['EXDATE:20270102T090000'], 'recurrence_no_occurrence'],
    ['an empty list', [], 'recurrence_no_occurrence'],
    ['a rule that never happens', ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'], 'recurrence_no_occurrence'],
    ['a rule that ended before the start', ['RRULE:FREQ=DAILY;UNTIL=20261201T000000Z'], 'recurrence_no_occurrence'],
    ['an EXDATE of the start itself', ['RRULE:FREQ=DAILY', 'EXDATE:20270101T090000'], 'recurrence_start_excluded'],
  ])('%s', (_name, lines, problem) => {
    expect(refusal(lines)).toBe(problem);
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
