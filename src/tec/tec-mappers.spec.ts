import type { EventResponse } from '../events/event.response.js';
import { toTecEvent, PASSWORD_PROTECTED } from './tec-event.mapper.js';
import { directionsLink, excerptOf } from './tec-item.mapper.js';

function v1Event(overrides: Partial<EventResponse> = {}): EventResponse {
  return {
    id: 7,
    author: '1',
    status: 'publish',
    date: '2026-11-20 10:00:00',
    date_utc: '2026-11-20 10:00:00',
    modified: '2026-11-21 10:00:00',
    modified_utc: '2026-11-21 10:00:00',
    url: 'https://cal.example/event/night-market/',
    title: 'Night Market',
    description: '<p>Stalls &amp; music.</p>',
    excerpt: '',
    slug: 'night-market',
    image: false,
    all_day: false,
    start_date: '2027-03-27 22:00:00',
    end_date: '2027-03-28 04:00:00',
    utc_start_date: '2027-03-27 21:00:00',
    utc_end_date: '2027-03-28 02:00:00',
    timezone: 'Europe/Berlin',
    cost: '$5',
    sticky: false,
    featured: true,
    categories: [{ id: 3, slug: 'jazz' }],
    tags: [{ id: 14, slug: '%e6%97%a5%e6%9c%ac' }],
    venue: [],
    organizer: [],
    ...overrides,
  } as unknown as EventResponse;
}

const context = { siteZone: 'UTC', now: new Date('2026-11-29T00:00:00Z'), protection: 'none' as const };

describe('toTecEvent', () => {
  it('writes the dates, duration, days and classes as the reference does', () => {
    const event = toTecEvent(v1Event(), context);
    expect(event.dates.start).toEqual({ date: '2027-03-27 22:00:00.000000', timezone_type: 3, timezone: 'Europe/Berlin' });
    expect(event.dates.start_site).toEqual({ date: '2027-03-27 21:00:00.000000', timezone_type: 3, timezone: 'UTC' });
    expect(event.duration).toBe('18000');
    expect(event.multiday).toBe(2);
    expect(event.is_past).toBe(false);
    // a slug with nothing left for a class name gives the term's id
    expect(event.class_list).toEqual([
      'post-7',
      'tribe_events',
      'type-tribe_events',
      'status-publish',
      'hentry',
      'tag-14',
      'tribe_events_cat-jazz',
      'cat_jazz',
    ]);
    expect(event.content).toEqual({ rendered: '<p>Stalls &amp; music.</p>\n', protected: false });
    expect(event.schedule_details).toBe(
      '<span class="tribe-event-date-start">March 27, 2027 @ 10:00 pm</span> - <span class="tribe-event-date-end">March 28, 2027 @ 4:00 am</span>',
    );
  });

  it('names UTC however the zone of the event writes the offset zero', () => {
    const event = toTecEvent(v1Event({ timezone: 'UTC+0' }), context);
    expect(event.timezone).toBe('UTC+0');
    expect(event.dates.start.timezone).toBe('UTC');
  });

  it('hides what a password hides, and keeps the term classes', () => {
    const event = toTecEvent(v1Event(), { ...context, protection: 'locked' });
    expect(event.content).toEqual({ rendered: PASSWORD_PROTECTED, protected: null });
    expect(event.start_date).toBe(PASSWORD_PROTECTED);
    expect(event.dates.end).toEqual({ date: '1970-01-01 00:00:00.000000', timezone_type: 0, timezone: PASSWORD_PROTECTED });
    expect(event.tags).toEqual([0]);
    expect(event.class_list).toContain('post-password-required');
    expect(event.class_list).toContain('cat_jazz');
    expect(toTecEvent(v1Event(), { ...context, protection: 'unlocked' }).content.protected).toBe(true);
  });
});

describe('tec/v1 item texts', () => {
  it('makes an excerpt of the first 30 words of the content', () => {
    const words = Array.from({ length: 40 }, (_, index) => `w${index}`).join(' ');
    expect(excerptOf('', `<p>${words}</p>`)).toBe(`<p>${words.split(' ').slice(0, 30).join(' ')} [&hellip;]</p>\n`);
    expect(excerptOf('', '<p>Short &amp; sweet.</p>')).toBe('<p>Short &amp; sweet.</p>\n');
    expect(excerptOf('<p>Own.</p>', '<p>Content.</p>')).toBe('<p>Own.</p>\n');
    expect(excerptOf('', '')).toBe('');
  });

  it('links directions to a map search of the address, empty without one', () => {
    expect(directionsLink(['350 W 31st St, Suite 2', 'New York', 'NY', '10001', 'United States'])).toBe(
      'https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=350+W+31st+St%2C+Suite+2+New+York+NY+10001+United+States',
    );
    expect(directionsLink(['', '', '', '', ''])).toBe('');
  });
});
