import { dateDetails, isoWithOffset, normalizeWallAfterGap, nowUtcWall, utcToWall, wallToUtc } from './wall-time.js';

describe('wallToUtc', () => {
  it.each([
    ['2027-03-20 19:30:00', 'America/Chicago', '2027-03-21 00:30:00'],
    ['2027-01-20 19:30:00', 'America/Chicago', '2027-01-21 01:30:00'],
    ['2027-03-20 19:30:00', 'UTC', '2027-03-20 19:30:00'],
    ['2027-03-20 19:30:00', 'UTC+5.5', '2027-03-20 14:00:00'],
    ['2027-03-20 01:00:00', 'UTC-9.5', '2027-03-20 10:30:00'],
    ['2027-07-01 00:00:00', 'Asia/Kolkata', '2027-06-30 18:30:00'],
    ['2028-02-29 23:00:00', 'Europe/Berlin', '2028-02-29 22:00:00'],
  ])('%s in %s is %s UTC', (wall, zone, expected) => {
    expect(wallToUtc(wall, zone)).toBe(expected);
  });

  describe('daylight-saving gap (spec 6.4)', () => {
    it('moves a Chicago gap time forward by the gap length', () => {
      // 02:30 does not exist on 2027-03-14; it is read as 03:30 CDT.
      expect(wallToUtc('2027-03-14 02:30:00', 'America/Chicago')).toBe('2027-03-14 08:30:00');
      expect(wallToUtc('2027-03-14 02:00:00', 'America/Chicago')).toBe('2027-03-14 08:00:00');
      expect(wallToUtc('2027-03-14 02:59:59', 'America/Chicago')).toBe('2027-03-14 08:59:59');
    });

    it('leaves the times around the gap alone', () => {
      expect(wallToUtc('2027-03-14 01:59:59', 'America/Chicago')).toBe('2027-03-14 07:59:59');
      expect(wallToUtc('2027-03-14 03:00:00', 'America/Chicago')).toBe('2027-03-14 08:00:00');
      expect(wallToUtc('2027-03-14 03:30:00', 'America/Chicago')).toBe('2027-03-14 08:30:00');
    });

    it('handles a European gap and a half-hour gap', () => {
      expect(wallToUtc('2027-03-28 02:15:00', 'Europe/Berlin')).toBe('2027-03-28 01:15:00');
      // Lord Howe Island moves its clocks by 30 minutes, from 02:00 to 02:30.
      expect(wallToUtc('2027-10-03 02:10:00', 'Australia/Lord_Howe')).toBe('2027-10-02 15:40:00');
    });
  });

  describe('repeated hour (spec 6.4)', () => {
    it('takes the first occurrence, still in daylight-saving time', () => {
      expect(wallToUtc('2027-11-07 01:30:00', 'America/Chicago')).toBe('2027-11-07 06:30:00');
      expect(wallToUtc('2027-11-07 01:00:00', 'America/Chicago')).toBe('2027-11-07 06:00:00');
      expect(wallToUtc('2027-10-31 02:30:00', 'Europe/Berlin')).toBe('2027-10-31 00:30:00');
      expect(wallToUtc('2027-04-04 02:30:00', 'Australia/Sydney')).toBe('2027-04-03 15:30:00');
    });

    it('reads the times around the repeated hour normally', () => {
      expect(wallToUtc('2027-11-07 00:59:59', 'America/Chicago')).toBe('2027-11-07 05:59:59');
      expect(wallToUtc('2027-11-07 02:00:00', 'America/Chicago')).toBe('2027-11-07 08:00:00');
    });
  });

  it('throws on malformed or impossible wall times', () => {
    expect(() => wallToUtc('2027-02-30 00:00:00', 'UTC')).toThrow(RangeError);
    expect(() => wallToUtc('2027-03-20T19:30:00', 'UTC')).toThrow(RangeError);
    expect(() => wallToUtc('2027-03-20 24:00:00', 'UTC')).toThrow(RangeError);
  });
});

describe('utcToWall', () => {
  it.each([
    ['2027-03-21 00:30:00', 'America/Chicago', '2027-03-20 19:30:00'],
    ['2027-11-07 06:30:00', 'America/Chicago', '2027-11-07 01:30:00'],
    ['2027-11-07 07:30:00', 'America/Chicago', '2027-11-07 01:30:00'],
    ['2027-03-14 08:00:00', 'America/Chicago', '2027-03-14 03:00:00'],
    ['2027-06-30 18:30:00', 'Asia/Kolkata', '2027-07-01 00:00:00'],
    ['2027-12-31 23:00:00', 'UTC+5.75', '2028-01-01 04:45:00'],
    ['2027-12-31 23:00:00', 'UTC', '2027-12-31 23:00:00'],
  ])('%s UTC is %s in %s', (utcWall, zone, expected) => {
    expect(utcToWall(utcWall, zone)).toBe(expected);
  });
});

describe('normalizeWallAfterGap', () => {
  it('returns the moved-forward time for a gap time and other times unchanged', () => {
    expect(normalizeWallAfterGap('2027-03-14 02:30:00', 'America/Chicago')).toBe('2027-03-14 03:30:00');
    expect(normalizeWallAfterGap('2027-03-14 01:30:00', 'America/Chicago')).toBe('2027-03-14 01:30:00');
    expect(normalizeWallAfterGap('2027-11-07 01:30:00', 'America/Chicago')).toBe('2027-11-07 01:30:00');
    expect(normalizeWallAfterGap('2027-03-14 02:30:00', 'UTC')).toBe('2027-03-14 02:30:00');
  });
});

describe('isoWithOffset', () => {
  it.each([
    ['2027-03-20 19:30:00', 'America/Chicago', '2027-03-20T19:30:00-05:00'],
    ['2027-01-20 19:30:00', 'America/Chicago', '2027-01-20T19:30:00-06:00'],
    ['2027-11-07 01:30:00', 'America/Chicago', '2027-11-07T01:30:00-05:00'],
    ['2027-03-14 02:30:00', 'America/Chicago', '2027-03-14T03:30:00-05:00'],
    ['2027-03-20 19:30:00', 'Asia/Kolkata', '2027-03-20T19:30:00+05:30'],
    ['2027-03-20 19:30:00', 'UTC', '2027-03-20T19:30:00+00:00'],
    ['2027-03-20 19:30:00', 'UTC-9.5', '2027-03-20T19:30:00-09:30'],
    ['2027-03-20 19:30:00', 'Asia/Kathmandu', '2027-03-20T19:30:00+05:45'],
  ])('%s in %s is %s', (wall, zone, expected) => {
    expect(isoWithOffset(wall, zone)).toBe(expected);
  });
});

describe('dateDetails', () => {
  it('splits the string without conversion (spec 8.7)', () => {
    expect(dateDetails('2027-03-20 19:30:00')).toEqual({
      year: '2027',
      month: '03',
      day: '20',
      hour: '19',
      minutes: '30',
      seconds: '00',
    });
    expect(dateDetails('1999-12-31 23:59:58')).toEqual({
      year: '1999',
      month: '12',
      day: '31',
      hour: '23',
      minutes: '59',
      seconds: '58',
    });
  });

  it('throws on a malformed wall time', () => {
    expect(() => dateDetails('2027-3-20 19:30:00')).toThrow(RangeError);
  });
});

describe('nowUtcWall', () => {
  it('formats the current second in UTC, dropping milliseconds', () => {
    expect(nowUtcWall(new Date('2027-03-17T20:20:08.999Z'))).toBe('2027-03-17 20:20:08');
    expect(nowUtcWall(new Date('1969-12-31T23:59:59.500Z'))).toBe('1969-12-31 23:59:59');
  });

  it('defaults to the current time', () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const now = Date.parse(`${nowUtcWall().replace(' ', 'T')}Z`);
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
