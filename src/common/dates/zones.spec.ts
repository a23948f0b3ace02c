import { ABBREVIATIONS, ZONE_NAMES_BY_AREA } from '../../config/tz-data.js';
import { normalizeTimezone, offsetHours, timezoneAbbr, toLuxonZone } from './zones.js';

describe('normalizeTimezone', () => {
  it.each([
    ['America/Chicago', 'America/Chicago'],
    ['america/chicago', 'America/Chicago'],
    ['EUROPE/BERLIN', 'Europe/Berlin'],
    ['asia/kolkata', 'Asia/Kolkata'],
    ['Asia/Calcutta', 'Asia/Calcutta'],
    ['america/port_of_spain', 'America/Port_of_Spain'],
    ['america/argentina/buenos_aires', 'America/Argentina/Buenos_Aires'],
    ['america/port-au-prince', 'America/Port-au-Prince'],
    ['us/eastern', 'US/Eastern'],
    ['etc/gmt+5', 'Etc/GMT+5'],
    ['Europe/Kyiv', 'Europe/Kyiv'],
    [' Europe/Paris ', 'Europe/Paris'],
  ])('accepts the IANA name %j as %j', (input, expected) => {
    expect(normalizeTimezone(input)).toBe(expected);
  });

  it.each(['UTC', 'utc', 'Utc'])('accepts %j as UTC', (input) => {
    expect(normalizeTimezone(input)).toBe('UTC');
  });

  it.each([
    ['UTC+2', 'UTC+2'],
    ['utc-5', 'UTC-5'],
    ['UTC+5.5', 'UTC+5.5'],
    ['UTC+5.75', 'UTC+5.75'],
    ['UTC-9.5', 'UTC-9.5'],
    ['UTC+05:30', 'UTC+5.5'],
    ['UTC+05:45', 'UTC+5.75'],
    ['UTC-03:00', 'UTC-3'],
    ['UTC+0', 'UTC+0'],
    ['UTC-0', 'UTC+0'],
    ['UTC+00:00', 'UTC+0'],
    ['UTC+5.50', 'UTC+5.5'],
    ['UTC+5.0', 'UTC+5'],
    ['UTC+14', 'UTC+14'],
    ['UTC-12', 'UTC-12'],
  ])('accepts the fixed offset %j as %j', (input, expected) => {
    expect(normalizeTimezone(input)).toBe(expected);
  });

  it.each([
    'UTC+15',
    'UTC-13',
    'UTC+5.7',
    'UTC+5.',
    'UTC+123',
    'UTC+14.5',
    'UTC-12.5',
    'UTC+5.25',
    'UTC+05:20',
    'UTC+5:3',
    'UTC+',
    'UTC+ 5',
    'GMT+5',
    '+05:00',
    'Mars/Olympus',
    'America/Chicago/',
    'Chicago',
    'localtime',
    'Factory',
    'SystemV/AST4',
    '',
    '   ',
  ])('refuses %j', (input) => {
    expect(normalizeTimezone(input)).toBeNull();
  });
});

describe('toLuxonZone', () => {
  it('builds IANA zones under their canonical name', () => {
    const zone = toLuxonZone('america/chicago');
    expect(zone.name).toBe('America/Chicago');
    expect(zone.isUniversal).toBe(false);
  });

  it('builds fixed zones for UTC and offsets', () => {
    expect(toLuxonZone('UTC').offset(0)).toBe(0);
    expect(toLuxonZone('UTC+5.5').offset(0)).toBe(330);
    expect(toLuxonZone('UTC-9.5').offset(0)).toBe(-570);
    expect(toLuxonZone('UTC+5.5').isUniversal).toBe(true);
  });

  it('throws for an unknown zone', () => {
    expect(() => toLuxonZone('Mars/Olympus')).toThrow(RangeError);
  });
});

describe('timezoneAbbr', () => {
  it.each([
    ['America/New_York', '2027-01-15 12:00:00', 'EST'],
    ['America/New_York', '2027-07-15 12:00:00', 'EDT'],
    ['America/Chicago', '2027-03-21 00:30:00', 'CDT'],
    ['America/Chicago', '2027-03-14 07:59:59', 'CST'],
    ['America/Chicago', '2027-03-14 08:00:00', 'CDT'],
    ['Europe/Berlin', '2027-01-15 12:00:00', 'CET'],
    ['Europe/Berlin', '2027-07-15 12:00:00', 'CEST'],
    ['Europe/London', '2027-01-15 12:00:00', 'GMT'],
    ['Europe/London', '2027-07-15 12:00:00', 'BST'],
    ['Europe/Dublin', '2027-01-15 12:00:00', 'GMT'],
    ['Europe/Dublin', '2027-07-15 12:00:00', 'IST'],
    ['Europe/Lisbon', '2027-01-15 12:00:00', 'WET'],
    ['Europe/Lisbon', '2027-07-15 12:00:00', 'WEST'],
    ['Europe/Helsinki', '2027-07-15 12:00:00', 'EEST'],
    ['Europe/Moscow', '2027-07-15 12:00:00', 'MSK'],
    ['Asia/Kolkata', '2027-07-15 12:00:00', 'IST'],
    ['Asia/Calcutta', '2027-07-15 12:00:00', 'IST'],
    ['Asia/Jerusalem', '2027-07-15 12:00:00', 'IDT'],
    ['Asia/Tokyo', '2027-07-15 12:00:00', 'JST'],
    ['Asia/Shanghai', '2027-07-15 12:00:00', 'CST'],
    ['Asia/Hong_Kong', '2027-07-15 12:00:00', 'HKT'],
    ['Australia/Sydney', '2027-01-15 12:00:00', 'AEDT'],
    ['Australia/Sydney', '2027-07-15 12:00:00', 'AEST'],
    ['Australia/Adelaide', '2027-07-15 12:00:00', 'ACST'],
    ['Australia/Perth', '2027-07-15 12:00:00', 'AWST'],
    ['Pacific/Auckland', '2027-01-15 12:00:00', 'NZDT'],
    ['America/St_Johns', '2027-01-15 12:00:00', 'NST'],
    ['Africa/Johannesburg', '2027-01-15 12:00:00', 'SAST'],
    ['Pacific/Honolulu', '2027-01-15 12:00:00', 'HST'],
    ['UTC', '2027-01-15 12:00:00', 'UTC'],
    ['Etc/UTC', '2027-01-15 12:00:00', 'UTC'],
    ['Asia/Dubai', '2027-01-15 12:00:00', '+04'],
    ['Asia/Singapore', '2027-01-15 12:00:00', '+08'],
    ['Asia/Kathmandu', '2027-01-15 12:00:00', '+0545'],
    ['America/Sao_Paulo', '2027-01-15 12:00:00', '-03'],
    ['Pacific/Marquesas', '2027-01-15 12:00:00', '-0930'],
    ['Etc/GMT+5', '2027-01-15 12:00:00', '-05'],
    ['UTC+5.5', '2027-01-15 12:00:00', 'UTC+5.5'],
    ['UTC-3', '2027-01-15 12:00:00', 'UTC-3'],
  ])('%s at %s UTC is %s', (zone, utcWall, expected) => {
    expect(timezoneAbbr(zone, utcWall)).toBe(expected);
  });

  it('follows the rules in force at that date', () => {
    // Daylight-saving time started in April before 2007 in the United States.
    expect(timezoneAbbr('America/Chicago', '2005-03-20 12:00:00')).toBe('CST');
    expect(timezoneAbbr('America/Chicago', '2007-03-20 12:00:00')).toBe('CDT');
  });
});

describe('offsetHours', () => {
  it.each([
    ['America/Chicago', '2027-01-15T12:00:00Z', -6],
    ['America/Chicago', '2027-07-15T12:00:00Z', -5],
    ['Asia/Kolkata', '2027-07-15T12:00:00Z', 5.5],
    ['Asia/Kathmandu', '2027-07-15T12:00:00Z', 5.75],
    ['UTC', '2027-07-15T12:00:00Z', 0],
    ['UTC-9.5', '2027-07-15T12:00:00Z', -9.5],
  ])('%s at %s is %d', (zone, at, expected) => {
    expect(offsetHours(zone, new Date(at))).toBe(expected);
  });
});

describe('tz-data', () => {
  it('lists zones that this runtime accepts under the same spelling', () => {
    const names = Object.entries(ZONE_NAMES_BY_AREA).flatMap(([area, list]) =>
      list
        .trim()
        .split(/\s+/)
        .map((name) => (area === '' ? name : `${area}/${name}`)),
    );
    expect(names.length).toBeGreaterThan(500);
    expect(names.filter((name) => normalizeTimezone(name) !== name)).toEqual([]);
  });

  it('gives abbreviations only for listed zones', () => {
    const zones = Object.values(ABBREVIATIONS).flatMap((list) => list.trim().split(/\s+/));
    expect(zones.filter((zone) => normalizeTimezone(zone) !== zone)).toEqual([]);
  });
});
