import { retryAfterMs } from './source-client.js';
import { siteTimezoneOf } from './source-site.js';
import { convertEvent, costFromSource } from './source-event-records.js';
import { convertVenue } from './source-linked-records.js';
import { convertTerm, looksRedacted } from './source-records.js';
import { importSlug, plainText, type ConvertSettings } from './source-values.js';

const COST = { currencySymbol: '$', currencyPosition: 'prefix', currencyCode: 'USD', decimalSeparator: '.' } as const;
const WORDPRESS: ConvertSettings = { flavor: 'wordpress', sourceTimezone: 'UTC', cost: COST, now: '2026-11-23 12:00:00' };
const PLAIN: ConvertSettings = { ...WORDPRESS, flavor: 'plain' };

describe('source records', () => {
  it('turns the reference’s escaped, texturized titles into plain text', () => {
    expect(plainText('Jazz &#038; Blues Night', 'wordpress')).toBe('Jazz & Blues Night');
    expect(plainText('O&#8217;Reilly&#8217;s St. Patrick&#8217;s Day', 'wordpress')).toBe('O’Reilly’s St. Patrick’s Day');
    expect(plainText('The &#8220;Big Band&#8221; Revue', 'wordpress')).toBe('The “Big Band” Revue');
    expect(plainText('Learn <b>Bold</b> Lettering', 'wordpress')).toBe('Learn Bold Lettering');
    expect(plainText('Tom &amp; Jerry Screening', 'wordpress')).toBe('Tom & Jerry Screening');
    expect(plainText('Arts &amp; “Crafts”', 'wordpress')).toBe('Arts & “Crafts”');
    // decoded entities never smuggle a tag in
    expect(plainText('&lt;script&gt;alert(1)&lt;/script&gt;Safe', 'wordpress')).toBe('Safe');
    // this service returns plain text already: a literal entity stays
    expect(plainText('Tom &amp; Jerry', 'plain')).toBe('Tom &amp; Jerry');
  });

  it('keeps slugs as the source has them when this service can hold them', () => {
    expect(importSlug('jazz-blues-night')).toBe('jazz-blues-night');
    expect(importSlug('%e6%97%a5%e6%9c%ac')).toBe('%e6%97%a5%e6%9c%ac');
    expect(importSlug('%F0%9F%8E%B8')).toBe('%f0%9f%8e%b8');
    expect(importSlug('cancelled-rooftop-cinema__trashed')).toBe('cancelled-rooftop-cinema__trashed');
    expect(importSlug('')).toBe('');
    expect(importSlug('Café Night!')).toBe('cafe-night');
    expect(importSlug('100%')).toBe('100');
  });

  it('stores costs so that this service shows the cost and values the source showed', () => {
    const stored = (cost: string, details: object) => costFromSource(cost, details, WORDPRESS);
    expect(stored('$5 – $12', { currency_symbol: '', currency_position: '', values: ['5', '12'] })).toEqual({
      cost: ['$5 – $12'],
      symbol: '',
      position: '',
    });
    expect(stored('€20', { currency_symbol: '€', currency_position: 'prefix', values: ['20'] })).toEqual({
      cost: ['€20'],
      symbol: '€',
      position: 'prefix',
    });
    expect(stored('', { values: [] })).toEqual({ cost: null, symbol: '', position: '' });
    // the reference says `free`, this service `0`; the display is kept
    expect(stored('Free', { values: ['free'] }).cost).toEqual(['Free']);
    // numbers and words together (this service): the words come along
    expect(costFromSource('$5', { currency_symbol: '', currency_position: '', values: ['5', 'donation'] }, PLAIN).cost).toEqual([
      '$5',
      'donation',
    ]);
  });

  it('places publication dates the reference reports without UTC (drafts) in its site zone, floating', () => {
    const event = convertEvent(
      {
        id: 45,
        status: 'draft',
        author: '1',
        date: '2026-11-23 11:11:28',
        date_utc: '0000-00-00 00:00:00',
        modified: '2026-11-23 11:11:28',
        modified_utc: '0000-00-00 00:00:00',
        slug: '',
        title: 'Unannounced Headliner (draft)',
        start_date: '2027-08-01 20:00:00',
        end_date: '2027-08-01 23:00:00',
        utc_start_date: '2027-08-01 20:00:00',
        utc_end_date: '2027-08-01 23:00:00',
        timezone: 'UTC+0',
        all_day: false,
        cost: '',
        venue: [],
        organizer: [{ id: 11, organizer: 'x' }],
        categories: [{ id: 3, name: 'Jazz' }],
        tags: [],
        custom_fields: [],
      },
      { ...WORDPRESS, sourceTimezone: 'Europe/Berlin' },
    );
    expect(event).toEqual(
      expect.objectContaining({
        dateUtc: '2026-11-23 10:11:28',
        dateFloating: true,
        slug: '',
        timezone: 'UTC+0',
        organizers: [{ sourceId: 11, embedded: { id: 11, organizer: 'x' } }],
      }),
    );
  });

  it('keeps a zone this service does not know as the offset the source’s times show', () => {
    const event = convertEvent(
      {
        id: 1,
        status: 'publish',
        date_utc: '2026-01-01 00:00:00',
        modified_utc: '2026-01-01 00:00:00',
        title: 't',
        timezone: 'Mars/Olympus',
        start_date: '2027-01-01 10:00:00',
        end_date: '2027-01-01 11:00:00',
        utc_start_date: '2027-01-01 04:30:00',
        utc_end_date: '2027-01-01 05:30:00',
      },
      WORDPRESS,
    );
    expect(event.timezone).toBe('UTC+5.5');
    expect(event.notes).toEqual(['time zone "Mars/Olympus" stored as UTC+5.5']);
  });

  it('stores stateprovince only where it differs from what this service derives', () => {
    const base = { id: 4, status: 'publish', date_utc: '2026-01-01 00:00:00', modified_utc: '2026-01-01 00:00:00', venue: 'Pub' };
    expect(convertVenue({ ...base, country: 'Ireland', province: 'Leinster', stateprovince: 'Leinster' }, WORDPRESS).stateprovince).toBe(
      '',
    );
    expect(convertVenue({ ...base, country: 'Ireland', province: 'Leinster', stateprovince: 'Co. Dublin' }, WORDPRESS).stateprovince).toBe(
      'Co. Dublin',
    );
    expect(convertVenue({ ...base, geo_lat: '44.5', geo_lng: '-88.1' }, WORDPRESS)).toEqual(
      expect.objectContaining({ geoLat: 44.5, geoLng: -88.1 }),
    );
  });

  it('reads term names and descriptions of the reference (`&` stored as `&amp;`)', () => {
    expect(
      convertTerm(
        { id: 6, name: 'Arts &amp; “Crafts”', slug: 'arts-crafts', description: 'Paint &amp; glue', parent: 0 },
        'category',
        WORDPRESS,
      ),
    ).toEqual(expect.objectContaining({ name: 'Arts & “Crafts”', description: 'Paint & glue', parentSourceId: 0 }));
  });

  it('tells a redacted view from the full one', () => {
    expect(looksRedacted({ all_day: null }, { all_day: false })).toBe(true);
    expect(looksRedacted({ organizer: 'A', email: '' }, { organizer: 'A', email: 'a@example.org' })).toBe(true);
    expect(looksRedacted({ organizer: 'A' }, { organizer: 'A' })).toBe(false);
  });

  it('reads Retry-After and the site zone of an API index', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:10 GMT', 5000)).toBe(5000);
    expect(retryAfterMs(null)).toBeNull();
    expect(siteTimezoneOf('', '0')).toBe('UTC+0');
    expect(siteTimezoneOf('America/Chicago', -5)).toBe('America/Chicago');
    expect(siteTimezoneOf('', 5.5)).toBe('UTC+5.5');
  });
});
