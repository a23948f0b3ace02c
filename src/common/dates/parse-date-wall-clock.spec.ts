import { parseDateInput } from './parse-date.js';

const CHICAGO = 'America/Chicago';
/** 2027-03-17 15:20:08 in Chicago (CDT), a Wednesday: the "now" of the spec 6.2 examples. */
const NOW = new Date('2027-03-17T20:20:08Z');
const parse = (input: unknown, zone = CHICAGO, now = NOW) => parseDateInput(input, zone, now);
const wallOf = (input: unknown, zone = CHICAGO, now = NOW) => parse(input, zone, now)?.wall;

describe('parseDateInput', () => {
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
});
