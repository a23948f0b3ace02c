import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { formatWall } from '../common/dates/wall-clock.js';
import { utcToWall } from '../common/dates/wall-time.js';
import { RICH_TEXT_MAX, NAME_MAX } from '../items/dto/item-fields.js';
import { recurrenceLinesOf, withoutExcludedStart } from './feed-recurrence.js';
import { ComponentRefused, readTime, type FeedDates, type ReadTime, type TimeContext } from './feed-time.js';

/** One `VEVENT`, read into the values an event write takes. */
export interface FeedEvent {
  uid: string;
  /** `YYYY-MM-DD` (a whole day) or `YYYY-MM-DD HH:MM:SS` in UTC: the occurrence a `RECURRENCE-ID` replaces; null otherwise. */
  recurrenceId: string | null;
  cancelled: boolean;
  title: string;
  /** Safe HTML (the feed's HTML description, or its plain text made HTML). */
  description: string;
  website: string | null;
  location: string | null;
  organizer: { name: string; email: string | null } | null;
  categories: string[];
  dates: FeedDates;
  /** `RRULE`, `RDATE` and `EXDATE` lines as the event writes take them; empty for a single event. */
  recurrence: string[];
  /** Things the sync should tell the operator about this component. */
  notes: string[];
}

function property(component: ICAL.Component, name: string): ICAL.Property | null {
  return component.getFirstProperty(name);
}

function text(component: ICAL.Component, name: string): string | null {
  const value = property(component, name)?.getFirstValue();
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function timeOf(component: ICAL.Component, name: string, context: TimeContext, notes: string[]): ReadTime | null {
  const prop = property(component, name);
  if (!prop) return null;
  const value = prop.getFirstValue();
  if (!(value instanceof ICAL.Time)) throw new ComponentRefused(`${name.toUpperCase()} is not a date or date-time`);
  const tzid = prop.getParameter('tzid');
  return readTime(value, typeof tzid === 'string' ? tzid : null, context, notes);
}

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Plain text as HTML: paragraphs at blank lines, line breaks kept, everything else escaped. */
export function plainTextToHtml(value: string): string {
  return value
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br />')}</p>`)
    .join('');
}

function descriptionOf(component: ICAL.Component): string {
  const alternative = component.getAllProperties('x-alt-desc').find((prop) => /html/i.test(String(prop.getParameter('fmttype') ?? '')));
  const html = alternative?.getFirstValue();
  const value = typeof html === 'string' && html.trim() !== '' ? html.trim() : plainTextToHtml(text(component, 'description') ?? '');
  return value.slice(0, RICH_TEXT_MAX);
}

function websiteOf(component: ICAL.Component): string | null {
  const value = text(component, 'url');
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

function organizerOf(component: ICAL.Component): FeedEvent['organizer'] {
  const prop = property(component, 'organizer');
  if (!prop) return null;
  const address = String(prop.getFirstValue() ?? '').trim();
  const email = /^mailto:/i.test(address) ? address.slice(7).trim() : null;
  const cn = prop.getParameter('cn');
  const name = (typeof cn === 'string' ? cn : '').trim() || email;
  return name ? { name: name.slice(0, NAME_MAX), email: email && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null } : null;
}

function categoriesOf(component: ICAL.Component): string[] {
  const names = component
    .getAllProperties('categories')
    .flatMap((prop) => prop.getValues().map((value: unknown) => String(value).trim()))
    .filter((name) => name !== '');
  return [...new Set(names)].slice(0, 100);
}

const addDays = (day: string, days: number) => DateTime.fromISO(day, { zone: 'utc' }).plus({ days }).toISODate() as string;

/** DTSTART, and DTEND or DURATION, as the dates of an event in DTSTART's zone. */
function datesOf(component: ICAL.Component, context: TimeContext, notes: string[]): FeedDates {
  const start = timeOf(component, 'dtstart', context, notes);
  if (!start) throw new ComponentRefused('it has no DTSTART');
  const end = timeOf(component, 'dtend', context, notes);
  const duration = property(component, 'duration')?.getFirstValue();
  if ('day' in start) {
    let lastDay = start.day;
    if (end && 'day' in end && end.day > start.day) lastDay = addDays(end.day, -1);
    else if (duration instanceof ICAL.Duration && duration.toSeconds() >= 86_400)
      lastDay = addDays(start.day, Math.ceil(duration.toSeconds() / 86_400) - 1);
    return { timezone: context.floatingZone, allDay: true, startLocal: `${start.day} 00:00:00`, endLocal: `${lastDay} 23:59:59` };
  }
  let endLocal = start.wall;
  if (end && 'utc' in end && end.utc >= start.utc) endLocal = utcToWall(end.utc, start.zone);
  else if (end && 'day' in end) endLocal = start.wall;
  else if (duration instanceof ICAL.Duration && duration.toSeconds() > 0) {
    const moved = DateTime.fromSQL(start.utc, { zone: 'utc' }).plus({ seconds: duration.toSeconds() });
    endLocal = utcToWall(formatWall(moved), start.zone);
  }
  return { timezone: start.zone, allDay: false, startLocal: start.wall, endLocal };
}

function recurrenceIdOf(component: ICAL.Component, context: TimeContext, notes: string[]): string | null {
  const time = timeOf(component, 'recurrence-id', context, notes);
  if (!time) return null;
  return 'day' in time ? time.day : time.utc;
}

/** A `UID` for a `VEVENT` without one (RFC 5545 requires it): its start and summary, so that it is found again while they stay. */
function derivedUid(component: ICAL.Component): string {
  const start = property(component, 'dtstart')?.toICALString() ?? '';
  return `derived-${createHash('sha256')
    .update(`${start}\n${text(component, 'summary') ?? ''}`)
    .digest('hex')
    .slice(0, 32)}`;
}

/** Reads a `VEVENT`; throws {@link ComponentRefused} when it cannot be imported. */
export function readFeedEvent(component: ICAL.Component, context: TimeContext): FeedEvent {
  const notes: string[] = [];
  let uid = text(component, 'uid');
  if (!uid) {
    uid = derivedUid(component);
    notes.push('it has no UID: it is recognised by its start and summary');
  }
  const recurrenceId = recurrenceIdOf(component, context, notes);
  const read = datesOf(component, context, notes);
  const series = withoutExcludedStart(read, recurrenceId ? [] : recurrenceLinesOf(component, read, context, notes));
  if (!series) throw new ComponentRefused('its EXDATEs exclude every occurrence');
  if (series.dates !== read)
    notes.push(`its EXDATE excludes its own DTSTART: the series starts at its first occurrence left, ${series.dates.startLocal}`);
  const { dates } = series;
  const status = text(component, 'status');
  return {
    uid: uid.slice(0, 1000),
    recurrenceId,
    cancelled: status?.toUpperCase() === 'CANCELLED',
    title: (text(component, 'summary') ?? '(untitled)').slice(0, NAME_MAX),
    description: descriptionOf(component),
    website: websiteOf(component),
    location: text(component, 'location')?.slice(0, NAME_MAX) ?? null,
    organizer: organizerOf(component),
    categories: categoriesOf(component),
    dates,
    recurrence: series.lines,
    notes,
  };
}
