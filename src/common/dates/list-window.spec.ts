import { defaultListWindow, parseStrictDates, wholeDayEnd, wholeDayStart } from './list-window.js';
import { parseDateInput } from './parse-date.js';

describe('wholeDayStart and wholeDayEnd', () => {
  it('reduce a wall time to its calendar date', () => {
    expect(wholeDayStart('2027-06-01 15:00:00')).toBe('2027-06-01 00:00:00');
    expect(wholeDayEnd('2027-06-01 15:00:00')).toBe('2027-06-01 23:59:59');
    expect(wholeDayStart('2027-06-01 00:00:00')).toBe('2027-06-01 00:00:00');
    expect(wholeDayEnd('2027-06-01 23:59:59')).toBe('2027-06-01 23:59:59');
  });

  it('work on the site-zone wall time of a parsed instant', () => {
    // 03:30 UTC on 2 June is still 1 June in Chicago.
    const parsed = parseDateInput('2027-06-02T03:30:00Z', 'America/Chicago', new Date());
    expect(parsed && wholeDayEnd(parsed.wall)).toBe('2027-06-01 23:59:59');
  });

  it('throw on a malformed wall time', () => {
    expect(() => wholeDayStart('2027-06-01')).toThrow(RangeError);
  });
});

describe('defaultListWindow', () => {
  it('runs from yesterday to the date 24 months ahead (spec 9.4 example)', () => {
    expect(defaultListWindow('UTC', new Date('2027-03-17T12:00:00Z'))).toEqual({
      start: '2027-03-16 00:00:00',
      end: '2029-03-17 23:59:59',
    });
  });

  it('uses the date of today in the site zone', () => {
    // 03:00 UTC on 17 March is still 16 March in Chicago and already 17 March in Tokyo.
    const now = new Date('2027-03-17T03:00:00Z');
    expect(defaultListWindow('America/Chicago', now)).toEqual({
      start: '2027-03-15 00:00:00',
      end: '2029-03-16 23:59:59',
    });
    expect(defaultListWindow('Asia/Tokyo', now)).toEqual({
      start: '2027-03-16 00:00:00',
      end: '2029-03-17 23:59:59',
    });
    expect(defaultListWindow('UTC-9.5', now).start).toBe('2027-03-15 00:00:00');
  });

  it('crosses month and year boundaries', () => {
    expect(defaultListWindow('UTC', new Date('2027-01-01T08:00:00Z'))).toEqual({
      start: '2026-12-31 00:00:00',
      end: '2029-01-01 23:59:59',
    });
  });

  it('rolls 29 February over like "+24 months"', () => {
    expect(defaultListWindow('UTC', new Date('2028-02-29T08:00:00Z')).end).toBe('2030-03-01 23:59:59');
  });
});

describe('parseStrictDates', () => {
  it.each(['1', 'true', 'TRUE', 'True', 'yes', 'YES', 'on', 'On', true, 1])('reads %p as true', (value) => {
    expect(parseStrictDates(value)).toBe(true);
  });

  it.each(['0', 'false', 'FALSE', 'no', 'No', 'off', 'OFF', false, 0])('reads %p as false', (value) => {
    expect(parseStrictDates(value)).toBe(false);
  });

  it.each(['', ' ', 'y', 'n', 'enable', 'disabled', '2', ' true', 'truee', 2, -1, null, undefined, ['true'], {}])('refuses %p', (value) => {
    expect(parseStrictDates(value)).toBeNull();
  });
});
