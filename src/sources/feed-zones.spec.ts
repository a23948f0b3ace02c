import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { normalizeTimezone } from '../common/dates/zones.js';
import { definedZone, namedZone } from './feed-zones.js';
import { WINDOWS_ZONES } from './windows-zones.js';

function definition(text: string): ICAL.Timezone {
  const calendar = new ICAL.Component(ICAL.parse(`BEGIN:VCALENDAR\r\n${text}\r\nEND:VCALENDAR\r\n`) as never);
  return new ICAL.Timezone(calendar.getFirstSubcomponent('vtimezone'));
}

describe('time zones of feeds', () => {
  it('reads tz-database names, Windows names and zones at the end of a path', () => {
    expect(namedZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(namedZone('"America/New_York"')).toBe('America/New_York');
    expect(namedZone('W. Europe Standard Time')).toBe('Europe/Berlin');
    expect(namedZone('Eastern Standard Time')).toBe('America/New_York');
    expect(namedZone('Central Standard Time 1')).toBe('America/Chicago');
    expect(namedZone('UTC-11')).toBe('UTC-11');
    expect(namedZone('Dateline Standard Time')).toBe('UTC-12');
    expect(namedZone('/mozilla.org/20050126_1/America/New_York')).toBe('America/New_York');
    expect(namedZone('posix/Europe/Vaduz')).toBe('Europe/Vaduz');
    expect(namedZone('custom_America/New_York')).toBe('America/New_York');
    expect(namedZone('Western/Central Europe')).toBeNull();
    expect(namedZone('Customized Time Zone')).toBeNull();
  });

  it('maps every Windows name to a zone this service knows', () => {
    for (const [name, zone] of Object.entries(WINDOWS_ZONES)) {
      expect({ name, zone: namedZone(name) }).toEqual({ name, zone: expect.any(String) });
      if (!zone.startsWith('Etc/')) expect(normalizeTimezone(zone)).not.toBeNull();
    }
  });

  it('reads a VTIMEZONE of the feed as a zone with the same offsets, or as its fixed offset', () => {
    const central = definition(
      [
        'BEGIN:VTIMEZONE',
        'TZID:Western/Central Europe',
        'BEGIN:STANDARD',
        'DTSTART:19501029T020000',
        'RRULE:FREQ=YEARLY;BYMINUTE=0;BYHOUR=2;BYDAY=-1SU;BYMONTH=10',
        'TZOFFSETFROM:+0200',
        'TZOFFSETTO:+0100',
        'END:STANDARD',
        'BEGIN:DAYLIGHT',
        'DTSTART:19500326T020000',
        'RRULE:FREQ=YEARLY;BYMINUTE=0;BYHOUR=2;BYDAY=-1SU;BYMONTH=3',
        'TZOFFSETFROM:+0100',
        'TZOFFSETTO:+0200',
        'END:DAYLIGHT',
        'END:VTIMEZONE',
      ].join('\r\n'),
    );
    expect(definedZone(central, 2021)?.zone).toBe('Europe/Berlin');
    const fixed = definition(
      [
        'BEGIN:VTIMEZONE',
        'TZID:UTC+11',
        'BEGIN:STANDARD',
        'DTSTART;VALUE=DATE:20170101',
        'TZOFFSETFROM:+1100',
        'TZOFFSETTO:+1100',
        'END:STANDARD',
        'END:VTIMEZONE',
      ].join('\r\n'),
    );
    const zone = definedZone(fixed, 2017)?.zone as string;
    expect([1, 7].map((month) => DateTime.fromObject({ year: 2017, month, day: 15 }, { zone }).offset)).toEqual([660, 660]);
  });
});
