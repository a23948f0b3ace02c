import { DateTime } from 'luxon';
import { utcToWall } from '../common/dates/wall-time.js';
import type { EventResponse } from '../events/event.response.js';
import type { EventTermResponse } from '../terms/term.response.js';
import { tecItemBase, toTecOrganizer, toTecVenue } from './tec-item.mapper.js';
import type { TecDateTime, TecEvent } from './tec.response.js';

/** What the reference writes in place of what a password hides. */
export const PASSWORD_PROTECTED = 'Password protected';
const HIDDEN_DATE: TecDateTime = { date: '1970-01-01 00:00:00.000000', timezone_type: 0, timezone: PASSWORD_PROTECTED };

/** How a reader sees an event's password: none, given (everything shown), or missing (hidden). */
export type TecProtection = 'none' | 'unlocked' | 'locked';

export interface TecEventContext {
  siteZone: string;
  now: Date;
  protection: TecProtection;
}

/** `sanitize_html_class` of WordPress: a term's slug as a class name, its id when nothing is left. */
function termClass(term: Pick<EventTermResponse, 'slug' | 'id'>): string {
  const cleaned = term.slug.replace(/%[a-fA-F0-9]{2}/g, '').replace(/[^A-Za-z0-9_-]/g, '');
  return cleaned === '' ? String(term.id) : cleaned;
}

function classList(event: EventResponse, protection: TecProtection): string[] {
  const password = protection === 'locked' ? ['post-password-required'] : protection === 'unlocked' ? ['post-password-protected'] : [];
  const categories = event.categories.map(termClass);
  return [
    `post-${event.id}`,
    'tribe_events',
    'type-tribe_events',
    `status-${event.status}`,
    ...password,
    'hentry',
    ...event.tags.map((tag) => `tag-${termClass(tag)}`),
    ...categories.map((slug) => `tribe_events_cat-${slug}`),
    ...categories.map((slug) => `cat_${slug}`),
  ];
}

/** The zone of a PHP `DateTime`: UTC for the offset zero however it is written, the stored name otherwise. */
function phpZone(zone: string): string {
  return /^UTC([+-]0+(\.0+)?)?$/.test(zone) ? 'UTC' : zone;
}

function phpDate(wall: string, zone: string): TecDateTime {
  return { date: `${wall}.000000`, timezone_type: 3, timezone: phpZone(zone) };
}

function utcMillis(utcWall: string): number {
  return Date.parse(`${utcWall.replace(' ', 'T')}Z`);
}

function localDay(wall: string): number {
  return Date.parse(`${wall.slice(0, 10)}T00:00:00Z`);
}

const WITH_YEAR = 'LLLL d, yyyy';
const WITHOUT_YEAR = 'LLLL d';
const TIME = 'h:mm a';

/** `schedule_details` and `short_schedule_details`: the dates as the reference's templates write them (in English). */
function schedule(event: EventResponse, now: Date): { long: string; short: string } {
  const start = DateTime.fromSQL(event.start_date, { zone: 'UTC', locale: 'en-US' });
  const end = DateTime.fromSQL(event.end_date, { zone: 'UTC', locale: 'en-US' });
  const thisYear = now.getUTCFullYear();
  const day = (clock: DateTime) => clock.toFormat(clock.year === thisYear ? WITHOUT_YEAR : WITH_YEAR);
  const time = (clock: DateTime) => clock.toFormat(TIME).replace(/^0/, '').replace('AM', 'am').replace('PM', 'pm');
  const span = (kind: string, text: string) => `<span class="tribe-event-${kind}">${text}</span>`;
  const sameDay = event.start_date.slice(0, 10) === event.end_date.slice(0, 10);
  if (event.all_day) {
    const long = sameDay ? span('date-start', day(start)) : `${span('date-start', day(start))} - ${span('date-end', day(end))}`;
    return { long, short: sameDay ? 'All day' : long };
  }
  if (!sameDay) {
    const long = `${span('date-start', `${day(start)} @ ${time(start)}`)} - ${span('date-end', `${day(end)} @ ${time(end)}`)}`;
    return { long, short: long };
  }
  return {
    long: `${span('date-start', `${day(start)} @ ${time(start)}`)} - ${span('time', time(end))}`,
    short: `${span('date-start', time(start))} - ${span('time', time(end))}`,
  };
}

/**
 * The `tec/v1` event object from the v1 event object of the same reader (statuses, translations,
 * costs and embedded records as the v1 rules made them). A password the reader did not give hides
 * what the reference hides, for every reader.
 */
export function toTecEvent(event: EventResponse, context: TecEventContext): TecEvent {
  const base = tecItemBase(event, event.title, 'tribe_events');
  const list = classList(event, context.protection);
  if (context.protection === 'locked') {
    const hidden = { rendered: PASSWORD_PROTECTED, protected: null };
    return {
      ...base,
      content: hidden,
      excerpt: hidden,
      template: PASSWORD_PROTECTED,
      tags: [0],
      tribe_events_cat: [0],
      class_list: list,
      start_date: PASSWORD_PROTECTED,
      start_date_utc: PASSWORD_PROTECTED,
      end_date: PASSWORD_PROTECTED,
      end_date_utc: PASSWORD_PROTECTED,
      dates: {
        start: HIDDEN_DATE,
        start_utc: HIDDEN_DATE,
        start_site: HIDDEN_DATE,
        start_display: HIDDEN_DATE,
        end: HIDDEN_DATE,
        end_utc: HIDDEN_DATE,
        end_site: HIDDEN_DATE,
        end_display: HIDDEN_DATE,
      },
      timezone: PASSWORD_PROTECTED,
      duration: PASSWORD_PROTECTED,
      ...nullFlags(),
      displays_on: [],
      featured: null,
      sticky: null,
      cost: PASSWORD_PROTECTED,
      organizer_names: [PASSWORD_PROTECTED],
      organizers: [],
      venues: [],
      schedule_details: PASSWORD_PROTECTED,
      short_schedule_details: PASSWORD_PROTECTED,
    };
  }
  const zone = event.timezone;
  const site = context.siteZone;
  const startMs = utcMillis(event.utc_start_date);
  const endMs = utcMillis(event.utc_end_date);
  const nowMs = context.now.getTime();
  const days = Math.round((localDay(event.end_date) - localDay(event.start_date)) / 86_400_000) + 1;
  const { long, short } = schedule(event, context.now);
  const organizers = event.organizer.map(toTecOrganizer);
  const protectedFlag = context.protection === 'unlocked';
  return {
    ...base,
    content: { ...base.content, protected: protectedFlag },
    excerpt: { ...base.excerpt, protected: protectedFlag },
    tags: event.tags.map((tag) => tag.id),
    tribe_events_cat: event.categories.map((category) => category.id),
    class_list: list,
    start_date: event.start_date,
    start_date_utc: event.utc_start_date,
    end_date: event.end_date,
    end_date_utc: event.utc_end_date,
    dates: {
      start: phpDate(event.start_date, zone),
      start_utc: phpDate(event.utc_start_date, 'UTC'),
      start_site: phpDate(utcToWall(event.utc_start_date, site), site),
      start_display: phpDate(event.start_date, zone),
      end: phpDate(event.end_date, zone),
      end_utc: phpDate(event.utc_end_date, 'UTC'),
      end_site: phpDate(utcToWall(event.utc_end_date, site), site),
      end_display: phpDate(event.end_date, zone),
    },
    timezone: zone,
    duration: String(Math.round((endMs - startMs) / 1000)),
    multiday: days > 1 ? days : false,
    is_past: endMs < nowMs,
    is_now: startMs <= nowMs && nowMs <= endMs,
    all_day: event.all_day,
    starts_this_week: null,
    ends_this_week: null,
    this_week_duration: null,
    happens_this_week: null,
    displays_on: [],
    featured: event.featured,
    sticky: event.sticky,
    cost: event.cost,
    organizer_names: organizers.map((organizer) => organizer.title.rendered),
    organizers,
    venues: Array.isArray(event.venue) ? [] : [toTecVenue(event.venue)],
    schedule_details: long,
    short_schedule_details: short,
  };
}

function nullFlags() {
  return {
    multiday: null,
    is_past: null,
    is_now: null,
    all_day: null,
    starts_this_week: null,
    ends_this_week: null,
    this_week_duration: null,
    happens_this_week: null,
  };
}
