import { DateTime } from 'luxon';
import { checkWall, formatWall, formatWallMillis, parseWall, WALL_FORMAT, wallMillis } from './wall-clock.js';

/** Wall times spread over years 0-9999 from a fixed seed, with the edges of months and days. */
function sampleWalls(count: number): string[] {
  let seed = 17;
  const next = (below: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % below;
  };
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const walls = ['0000-01-01 00:00:00', '0099-12-31 23:59:59', '1970-01-01 00:00:00', '2000-02-29 12:00:00', '9999-12-31 23:59:59'];
  for (let i = 0; i < count; i++) {
    const year = next(4) === 0 ? next(100) : 1900 + next(300);
    const month = 1 + next(12);
    const last = DateTime.utc(year, month).daysInMonth ?? 28;
    const day = next(3) === 0 ? last : 1 + next(last);
    walls.push(`${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(next(24))}:${pad(next(60))}:${pad(next(60))}`);
  }
  return walls;
}

describe('wall times without a DateTime', () => {
  const walls = sampleWalls(2000);

  it('read a wall time to the same instant as luxon, years below 100 included', () => {
    for (const wall of walls)
      expect([wall, wallMillis(wall)]).toEqual([wall, DateTime.fromFormat(wall, WALL_FORMAT, { zone: 'utc' }).toMillis()]);
  });

  it('write an instant back to the same wall time, dropping milliseconds', () => {
    for (const wall of walls) expect(formatWallMillis(wallMillis(wall) + 999)).toBe(wall);
  });

  it('format a wall clock as luxon formats it', () => {
    for (const wall of walls) {
      const clock = parseWall(wall);
      expect(formatWall(clock)).toBe(clock.toFormat(WALL_FORMAT));
    }
    const chicago = DateTime.fromObject({ year: 2027, month: 3, day: 14, hour: 3, minute: 30 }, { zone: 'America/Chicago' });
    expect(formatWall(chicago)).toBe('2027-03-14 03:30:00');
  });

  it('refuse impossible or malformed wall times', () => {
    for (const wall of [
      '2027-02-29 10:00:00',
      '1900-02-29 10:00:00',
      '2027-04-31 10:00:00',
      '2027-13-01 10:00:00',
      '2027-00-10 10:00:00',
      '2027-01-00 10:00:00',
      '2027-01-01 24:00:00',
      '2027-01-01 10:60:00',
      '2027-01-01 10:00:60',
      '2027-01-01T10:00:00',
      '27-01-01 10:00:00',
      '',
    ]) {
      expect(() => checkWall(wall)).toThrow(RangeError);
      expect(() => wallMillis(wall)).toThrow(RangeError);
      expect(() => parseWall(wall)).toThrow(RangeError);
    }
    expect(() => checkWall('2028-02-29 10:00:00')).not.toThrow();
    expect(() => checkWall('2000-02-29 23:59:59')).not.toThrow();
  });

  it('refuse instants outside years 0-9999', () => {
    expect(() => formatWallMillis(Date.UTC(10000, 0, 1))).toThrow(RangeError);
    expect(() => formatWallMillis(-62_198_755_200_001)).toThrow(RangeError);
  });
});
