import { parseDateInput } from './parse-date.js';

const CHICAGO = 'America/Chicago';
/** 2027-03-17 15:20:08 in Chicago (CDT), a Wednesday: the "now" of the spec 6.2 examples. */
const NOW = new Date('2027-03-17T20:20:08Z');
const parse = (input: unknown, zone = CHICAGO, now = NOW) => parseDateInput(input, zone, now);
const wallOf = (input: unknown, zone = CHICAGO, now = NOW) => parse(input, zone, now)?.wall;

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

  describe('non-dates', () => {
    it.each(['', '   ', '\t\n', null, undefined, true, {}, ['2027-03-20'], new Date(0)])('refuses %p', (input) => {
      expect(parse(input)).toBeNull();
    });
  });
});
