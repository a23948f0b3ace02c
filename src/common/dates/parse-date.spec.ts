import { parseDateInput, type ParsedDate } from './parse-date.js';

const CHICAGO = 'America/Chicago';
/** 2027-03-17 15:20:08 in Chicago (CDT), a Wednesday: the "now" of the spec 6.2 examples. */
const NOW = new Date('2027-03-17T20:20:08Z');

function parse(input: unknown, zone = CHICAGO, now = NOW): ParsedDate | null {
  return parseDateInput(input, zone, now);
}

function wallOf(input: unknown, zone = CHICAGO, now = NOW): string | undefined {
  return parse(input, zone, now)?.wall;
}

describe('parseDateInput', () => {
  describe('spec 6.2 examples (America/Chicago, now 2027-03-17 15:20:08)', () => {
    it.each([
      ['now', '2027-03-17 15:20:08'],
      ['today', '2027-03-17 00:00:00'],
      ['tomorrow 9am', '2027-03-18 09:00:00'],
      ['next wednesday 4pm', '2027-03-24 16:00:00'],
      ['wednesday', '2027-03-17 00:00:00'],
      ['+2 days', '2027-03-19 15:20:08'],
      ['1 week ago', '2027-03-10 15:20:08'],
      ['tomorrow +2 hours', '2027-03-18 02:00:00'],
    ])('%j is %s', (input, expected) => {
      expect(parse(input)).toEqual({
        kind: 'wall',
        wall: expected,
        utc: expect.stringMatching(/^2027-03-\d\d \d\d:\d\d:\d\d$/),
      });
      expect(wallOf(input)).toBe(expected);
    });

    it('gives the UTC time of relative results', () => {
      expect(parse('now')?.utc).toBe('2027-03-17 20:20:08');
      expect(parse('tomorrow 9am')?.utc).toBe('2027-03-18 14:00:00');
    });

    it('refuses "before my birthday"', () => {
      expect(parse('before my birthday')).toBeNull();
    });
  });

  describe('form A: instants', () => {
    const instant = { kind: 'instant', utc: '2027-03-20 17:30:00', wall: '2027-03-20 12:30:00' };

    it.each(['1805563800', '@1805563800', ' 1805563800 '])('reads the Unix timestamp %j', (input) => {
      expect(parse(input)).toEqual(instant);
    });

    it('reads a JavaScript number as a Unix timestamp', () => {
      expect(parse(1805563800)).toEqual(instant);
      expect(parse(0)).toEqual({ kind: 'instant', utc: '1970-01-01 00:00:00', wall: '1969-12-31 18:00:00' });
    });

    it('refuses numbers that are not whole seconds', () => {
      expect(parse(1805563800.5)).toBeNull();
      expect(parse(Number.NaN)).toBeNull();
      expect(parse(Number.POSITIVE_INFINITY)).toBeNull();
    });

    it('reads negative timestamps', () => {
      expect(parse('@-100')).toEqual({ kind: 'instant', utc: '1969-12-31 23:58:20', wall: '1969-12-31 17:58:20' });
      expect(parse('-100')).toEqual(parse('@-100'));
      expect(parse(-100)).toEqual(parse('@-100'));
    });

    it('reads every all-digit value as a timestamp, not as a date', () => {
      expect(parse('20270320')).toEqual({ kind: 'instant', utc: '1970-08-23 14:38:40', wall: '1970-08-23 09:38:40' });
      expect(parse('3', 'UTC')).toEqual({ kind: 'instant', utc: '1970-01-01 00:00:03', wall: '1970-01-01 00:00:03' });
    });

    it('refuses timestamps whose year is out of range', () => {
      expect(parse('253402300800', 'UTC')).toBeNull(); // 10000-01-01
      expect(parse('253402300799', 'UTC')?.utc).toBe('9999-12-31 23:59:59');
      expect(parse('-30610224001', 'UTC')).toBeNull(); // 0999-12-31 23:59:59
      expect(parse('99999999999999999999999')).toBeNull();
      expect(parse('@')).toBeNull();
      expect(parse('@@5')).toBeNull();
      expect(parse('-@5')).toBeNull();
    });

    const march21 = { kind: 'instant', utc: '2027-03-21 00:30:00', wall: '2027-03-20 19:30:00' };

    it.each([
      '2027-03-20T19:30:00-05:00',
      '2027-03-21T00:30:00Z',
      '2027-03-21 00:30Z',
      '2027-03-21T00:30:00.000Z',
      '2027-03-21T00:30:00.999999Z',
      '2027-03-20T19:30:00-0500',
      '2027-03-20 19:30-05:00',
      '2027-03-20T19:30-05',
      '2027-03-21T06:00:00+05:30',
      '2027-03-21t00:30:00z',
    ])('reads the ISO 8601 instant %j', (input) => {
      expect(parse(input)).toEqual(march21);
    });

    it('truncates fractions of a second', () => {
      expect(parse('2027-03-21T00:30:59.999Z')?.utc).toBe('2027-03-21 00:30:59');
    });

    it('converts instants into the reading zone', () => {
      expect(parse('2027-03-21T00:30:00Z', 'Europe/Berlin')?.wall).toBe('2027-03-21 01:30:00');
      expect(parse('2027-03-21T00:30:00Z', 'UTC+5.5')?.wall).toBe('2027-03-21 06:00:00');
      expect(parse('2027-03-21T00:30:00Z', 'UTC')?.wall).toBe('2027-03-21 00:30:00');
    });

    it('keeps the exact instant of the repeated hour', () => {
      expect(parse('2027-11-07T01:30:00-06:00')).toEqual({
        kind: 'instant',
        utc: '2027-11-07 07:30:00',
        wall: '2027-11-07 01:30:00',
      });
    });

    it.each([
      '2027-02-30T00:30:00Z',
      '2027-03-21T24:30:00Z',
      '2027-03-21T00:60:00Z',
      '2027-03-21T00:30:00+24:00',
      '2027-03-21T00:30:00+05:60',
      '2027-03-21T00:30:00 Z',
      '0999-03-21T00:30:00Z',
    ])('refuses the impossible instant %j', (input) => {
      expect(parse(input)).toBeNull();
    });
  });

  describe('form B: wall-clock values', () => {
    it.each([
      ['2027-03-20 19:30:00', '2027-03-20 19:30:00'],
      ['2027-03-20 19:30', '2027-03-20 19:30:00'],
      ['2027-03-20T19:30', '2027-03-20 19:30:00'],
      ['2027-03-20T19:30:15', '2027-03-20 19:30:15'],
      ['2027-03-20T19:30:15.750', '2027-03-20 19:30:15'],
      ['2027-03-20 19:30:15.750', '2027-03-20 19:30:15'],
      ['2027-03-20', '2027-03-20 00:00:00'],
      ['2027/03/20', '2027-03-20 00:00:00'],
      ['03/20/2027', '2027-03-20 00:00:00'],
      ['3/20/2027', '2027-03-20 00:00:00'],
      ['20.03.2027', '2027-03-20 00:00:00'],
      ['20 March 2027', '2027-03-20 00:00:00'],
      ['20 mar 2027', '2027-03-20 00:00:00'],
      ['March 20 2027', '2027-03-20 00:00:00'],
      ['March 20, 2027', '2027-03-20 00:00:00'],
      ['Mar 20, 2027', '2027-03-20 00:00:00'],
      ['Mar 20,2027', '2027-03-20 00:00:00'],
      ['may 1 2027', '2027-05-01 00:00:00'],
      ['2018-01-01 4pm', '2018-01-01 16:00:00'],
      ['20 March 2027 19:30', '2027-03-20 19:30:00'],
      ['MARCH 20, 2027 7:30 PM', '2027-03-20 19:30:00'],
      ['  2027-03-20   19:30  ', '2027-03-20 19:30:00'],
      ['2027-03-20 12am', '2027-03-20 00:00:00'],
      ['2027-03-20 12:30am', '2027-03-20 00:30:00'],
      ['2027-03-20 12pm', '2027-03-20 12:00:00'],
      ['2027-03-20 12:45 pm', '2027-03-20 12:45:00'],
      ['2027-03-20 9:05:30pm', '2027-03-20 21:05:30'],
      ['2027-03-20 noon', '2027-03-20 12:00:00'],
    ])('%j is %s', (input, expected) => {
      expect(parse(input)).toEqual(expect.objectContaining({ kind: 'wall', wall: expected }));
    });

    it('reads wall times in the zone', () => {
      expect(parse('2027-03-20 19:30:00')?.utc).toBe('2027-03-21 00:30:00');
      expect(parse('2027-01-20 19:30:00')?.utc).toBe('2027-01-21 01:30:00');
      expect(parse('2027-03-20 19:30:00', 'UTC+5.5')?.utc).toBe('2027-03-20 14:00:00');
      expect(parse('2027-03-20 19:30:00', 'UTC')?.utc).toBe('2027-03-20 19:30:00');
    });

    it('accepts leap days only in leap years', () => {
      expect(wallOf('2028-02-29')).toBe('2028-02-29 00:00:00');
      expect(wallOf('2000-02-29')).toBe('2000-02-29 00:00:00');
      expect(parse('2027-02-29')).toBeNull();
      expect(parse('1900-02-29')).toBeNull();
      expect(parse('2100-02-29')).toBeNull();
    });

    it('moves a time inside the spring-forward gap forward by the gap', () => {
      expect(parse('2027-03-14 02:30:00')).toEqual({
        kind: 'wall',
        wall: '2027-03-14 03:30:00',
        utc: '2027-03-14 08:30:00',
      });
    });

    it('reads a repeated time as its first occurrence', () => {
      expect(parse('2027-11-07 01:30:00')).toEqual({
        kind: 'wall',
        wall: '2027-11-07 01:30:00',
        utc: '2027-11-07 06:30:00',
      });
    });

    it.each([
      '2027-02-30',
      '2027-13-01',
      '2027-00-10',
      '2027-03-00',
      '13/20/2027',
      '31.04.2027',
      '2027-03-20 25:00',
      '2027-03-20 24:00',
      '2027-03-20 19:60',
      '2027-03-20 19:30:60',
      '2027-03-20 13pm',
      '2027-03-20 0am',
      '2027-03-20 19:30 pm',
      '31 February 2027',
      'sept 20 2027',
      'March 20',
      '20 March',
      '2027-03-20 19:30 -05:00',
      '2027-03-20T19:30:00 -05:00',
    ])('refuses %j', (input) => {
      expect(parse(input)).toBeNull();
    });

    it('refuses years outside 1000-9999', () => {
      expect(parse('0999-12-31')).toBeNull();
      expect(parse('10000-01-01')).toBeNull();
      expect(parse('31.12.0999')).toBeNull();
      expect(wallOf('1000-01-01', 'UTC')).toBe('1000-01-01 00:00:00');
      expect(wallOf('9999-12-31 23:59:59', 'UTC')).toBe('9999-12-31 23:59:59');
      expect(parse('9999-12-31 +1 day', 'UTC')).toBeNull();
      // The same moment is in the year 10000 in UTC.
      expect(parse('9999-12-31 23:00:00', CHICAGO)).toBeNull();
    });
  });

  describe('form C: relative expressions', () => {
    it.each([
      ['yesterday', '2027-03-16 00:00:00'],
      ['TODAY', '2027-03-17 00:00:00'],
      ['midnight', '2027-03-17 00:00:00'],
      ['noon', '2027-03-17 12:00:00'],
      ['tomorrow noon', '2027-03-18 12:00:00'],
      ['9 am', '2027-03-17 09:00:00'],
      ['9:30pm', '2027-03-17 21:30:00'],
      ['9:30 pm', '2027-03-17 21:30:00'],
      ['12am', '2027-03-17 00:00:00'],
      ['12pm', '2027-03-17 12:00:00'],
      ['14:30', '2027-03-17 14:30:00'],
      ['14:30:15', '2027-03-17 14:30:15'],
      ['0:05', '2027-03-17 00:05:00'],
      ['monday', '2027-03-22 00:00:00'],
      ['mon', '2027-03-22 00:00:00'],
      ['this monday', '2027-03-22 00:00:00'],
      ['next monday', '2027-03-22 00:00:00'],
      ['last monday', '2027-03-15 00:00:00'],
      ['this wednesday', '2027-03-17 00:00:00'],
      ['wed', '2027-03-17 00:00:00'],
      ['last wednesday', '2027-03-10 00:00:00'],
      ['last thu', '2027-03-11 00:00:00'],
      ['sunday', '2027-03-21 00:00:00'],
      ['tuesday', '2027-03-23 00:00:00'],
      ['last tuesday', '2027-03-16 00:00:00'],
      ['+1 fortnight', '2027-03-31 15:20:08'],
      ['2 fortnights ago', '2027-02-17 15:20:08'],
      ['2 weeks ago', '2027-03-03 15:20:08'],
      ['next week', '2027-03-24 15:20:08'],
      ['last week', '2027-03-10 15:20:08'],
      ['3 days', '2027-03-20 15:20:08'],
      ['+2days', '2027-03-19 15:20:08'],
      ['-1 day', '2027-03-16 15:20:08'],
      ['-2 days ago', '2027-03-19 15:20:08'],
      ['next month', '2027-04-17 15:20:08'],
      ['last year', '2026-03-17 15:20:08'],
      ['+10 years', '2037-03-17 15:20:08'],
      ['+1 hour', '2027-03-17 16:20:08'],
      ['1 hour ago', '2027-03-17 14:20:08'],
      ['+90 minutes', '2027-03-17 16:50:08'],
      ['+1 min', '2027-03-17 15:21:08'],
      ['-30 mins', '2027-03-17 14:50:08'],
      ['+52 secs', '2027-03-17 15:21:00'],
      ['+1 second', '2027-03-17 15:20:09'],
      ['next sec', '2027-03-17 15:20:09'],
      ['now +1 hour', '2027-03-17 16:20:08'],
      ['+1 week 2 days', '2027-03-26 15:20:08'],
      ['+1 day -1 hour', '2027-03-18 14:20:08'],
      ['tomorrow 9am +1 week', '2027-03-25 09:00:00'],
      ['+1 week tomorrow 9am', '2027-03-25 09:00:00'],
      ['friday 16:00 +1 week', '2027-03-26 16:00:00'],
      ['2027-03-20 next monday', '2027-03-22 00:00:00'],
      ['2027-03-20 last saturday', '2027-03-13 00:00:00'],
      ['2027-03-20 saturday 10am', '2027-03-20 10:00:00'],
    ])('%j is %s', (input, expected) => {
      expect(wallOf(input)).toBe(expected);
    });

    it('rolls a day number past the end of the month into the next month', () => {
      expect(wallOf('2027-01-31 +1 month')).toBe('2027-03-03 00:00:00');
      expect(wallOf('2027-03-31 -1 month')).toBe('2027-03-03 00:00:00');
      expect(wallOf('2028-01-31 +1 month')).toBe('2028-03-02 00:00:00');
      expect(wallOf('2027-01-31 +13 months')).toBe('2028-03-02 00:00:00');
      expect(wallOf('2028-02-29 +1 year')).toBe('2029-03-01 00:00:00');
      expect(wallOf('2028-02-29 -4 years')).toBe('2024-02-29 00:00:00');
      expect(wallOf('2027-01-15 +1 month')).toBe('2027-02-15 00:00:00');
      expect(wallOf('2027-12-31 19:30 +2 months')).toBe('2028-03-02 19:30:00');
    });

    it('applies the offsets in the order written', () => {
      expect(wallOf('2027-01-31 +1 month +1 day')).toBe('2027-03-04 00:00:00');
      expect(wallOf('2027-01-31 +1 day +1 month')).toBe('2027-03-01 00:00:00');
    });

    it('keeps the wall time across a clock change for day offsets', () => {
      expect(wallOf('2027-03-13 10:00 +1 day')).toBe('2027-03-14 10:00:00');
      expect(parse('2027-03-13 10:00 +1 day')?.utc).toBe('2027-03-14 15:00:00');
      expect(wallOf('2027-03-13 02:30 +1 day')).toBe('2027-03-14 03:30:00');
    });

    it('adds elapsed time across a clock change for hour offsets', () => {
      expect(wallOf('2027-03-13 10:00 +24 hours')).toBe('2027-03-14 11:00:00');
      expect(wallOf('2027-03-14 01:30 +1 hour')).toBe('2027-03-14 03:30:00');
      expect(parse('2027-11-07 00:30 +1 hour')).toEqual({
        kind: 'wall',
        wall: '2027-11-07 01:30:00',
        utc: '2027-11-07 06:30:00',
      });
      expect(parse('2027-11-07 00:30 +2 hours')).toEqual({
        kind: 'wall',
        wall: '2027-11-07 01:30:00',
        utc: '2027-11-07 07:30:00',
      });
    });

    it('keeps "now" exact inside the repeated hour', () => {
      const secondOneThirty = new Date('2027-11-07T07:30:00Z');
      expect(parse('now', CHICAGO, secondOneThirty)).toEqual({
        kind: 'wall',
        wall: '2027-11-07 01:30:00',
        utc: '2027-11-07 07:30:00',
      });
      expect(parse('1 hour ago', CHICAGO, secondOneThirty)?.utc).toBe('2027-11-07 06:30:00');
    });

    it('drops the milliseconds of now', () => {
      expect(parse('now', 'UTC', new Date('2027-03-17T20:20:08.999Z'))?.utc).toBe('2027-03-17 20:20:08');
    });

    it('evaluates in the given zone', () => {
      expect(parse('today', 'Asia/Kolkata')).toEqual({
        kind: 'wall',
        wall: '2027-03-18 00:00:00',
        utc: '2027-03-17 18:30:00',
      });
      expect(parse('now', 'UTC+5.5')?.wall).toBe('2027-03-18 01:50:08');
    });

    it.each([
      'today tomorrow',
      'today today',
      '4pm 5pm',
      'noon 4pm',
      '2027-03-20 2027-03-21',
      '2027-03-20T19:30 4pm',
      'monday tuesday',
      'next',
      'last',
      '+2',
      '2 days later',
      'this week',
      'next 2 days',
      'next week ago',
      'tomorrow,',
      'in 2 days',
      '+2 decades',
      '2 day s',
      '+ 2 days',
      'ago',
      'tomorrow 9',
      '9.30',
      'am',
      'this',
      '+99999999999999999999 days',
      '+9999999999 years',
      '+9999999999999 seconds',
      'constructor',
      '5 constructor',
      '__proto__',
      'next constructor',
      'tomorrow hasownproperty',
    ])('refuses %j', (input) => {
      expect(parse(input)).toBeNull();
    });
  });

  describe('non-dates', () => {
    it.each(['', '   ', '\t\n', null, undefined, true, {}, ['2027-03-20'], new Date(0)])('refuses %p', (input) => {
      expect(parse(input)).toBeNull();
    });
  });
});
