import { parseDateInput } from './parse-date.js';

const CHICAGO = 'America/Chicago';
/** 2027-03-17 15:20:08 in Chicago (CDT), a Wednesday: the "now" of the spec 6.2 examples. */
const NOW = new Date('2027-03-17T20:20:08Z');
const parse = (input: unknown, zone = CHICAGO, now = NOW) => parseDateInput(input, zone, now);
const wallOf = (input: unknown, zone = CHICAGO, now = NOW) => parse(input, zone, now)?.wall;

describe('parseDateInput', () => {
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
});
