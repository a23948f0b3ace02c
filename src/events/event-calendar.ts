import { decodeHTML } from 'entities';
import ical, { foldLines, ICalEventStatus, type ICalCalendar, type ICalEvent, type ICalEventData, type ICalLocation } from 'ical-generator';
import { DateTime } from 'luxon';
import { isSupportedZone } from '../config/time-zone-names.js';
import { vtimezone } from '../common/dates/vtimezone.js';
import { wallToUtc } from '../common/dates/wall-time.js';
import { wallMillis } from '../common/dates/wall-clock.js';
import { stripTags } from '../common/text/html.js';
import type { EventResponse } from './event.response.js';
import { recurrenceLinesForCalendar, type CalendarSeries } from './series/series-calendar.js';

export interface CalendarMeta {
  /** `X-WR-CALNAME` / `NAME`: the edition's name of the calendar. */
  name: string;
  /** Language of the edition (the `PRODID`'s language tag). */
  language: string;
}

/** Text of a JSON field holding HTML, as plain text: tags dropped, line breaks kept, entities decoded. */
export function plainText(html: string): string {
  const withBreaks = html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|li|h[1-6])>/gi, '$&\n');
  return decodeHTML(stripTags(withBreaks))
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** JSON's `YYYY-MM-DD HH:MM:SS` in UTC as an instant (read without luxon's parser: a feed reads thousands). */
function utc(value: string): DateTime {
  return DateTime.fromMillis(wallMillis(value), { zone: 'utc' });
}

/** The year of a `YYYY-MM-DD HH:MM:SS` value. */
function yearOf(value: string): number {
  return Number(value.slice(0, 4));
}

function location(event: EventResponse): ICalLocation | string | null {
  const venue = Array.isArray(event.venue) ? null : event.venue;
  if (!venue) return null;
  const parts = [venue.venue, venue.address, venue.city, venue.stateprovince || venue.province, venue.zip, venue.country]
    .map((part) => plainText(part ?? ''))
    .filter((part) => part !== '');
  const title = parts.join(', ');
  if (title === '') return null;
  const lat = Number(venue.geo_lat);
  const lon = Number(venue.geo_lng);
  const located =
    venue.geo_lat !== undefined && venue.geo_lng !== undefined && Number.isFinite(lat) && Number.isFinite(lon) && !(lat === 0 && lon === 0);
  return located ? { title, geo: { lat, lon } } : title;
}

function eventData(event: EventResponse): ICalEventData {
  const modified = utc(event.modified_utc);
  const zone = isSupportedZone(event.timezone) ? event.timezone : null;
  const start = utc(event.utc_start_date);
  const base: ICalEventData = {
    id: event.global_id,
    stamp: modified,
    lastModified: modified,
    // a later change always gives a higher number: the modification in seconds
    sequence: Math.floor(modified.toSeconds()),
    summary: plainText(event.title),
    description: event.description === '' ? null : { plain: plainText(event.description), html: event.description },
    location: location(event),
    categories: event.categories.map((category) => ({ name: plainText(category.name) })),
    url: event.url,
    status: event.status === 'publish' ? ICalEventStatus.CONFIRMED : ICalEventStatus.TENTATIVE,
    start,
  };
  // ORGANIZER is a calendar address (RFC 5545 §3.8.4.3): the first organizer with an email
  const organizer = event.organizer.find((candidate) => candidate.email);
  if (organizer?.email) base.organizer = { name: plainText(organizer.organizer), email: organizer.email };
  if (event.all_day) {
    // whole days: the dates as written, the end exclusive (RFC 5545 §3.6.1)
    const firstDay = DateTime.fromISO(event.start_date.slice(0, 10), { zone: 'utc' });
    const lastDay = DateTime.fromISO(event.end_date.slice(0, 10), { zone: 'utc' });
    return { ...base, allDay: true, start: firstDay, end: lastDay.plus({ days: 1 }) };
  }
  return { ...base, end: utc(event.utc_end_date), timezone: zone };
}

/** A VEVENT's unfolded text with the language of its `SUMMARY` and `DESCRIPTION` (`fields`: the event's `language.fields`). */
function withLanguages(text: string, fields: Record<string, string> | undefined): string {
  if (!fields) return text;
  return text
    .replace(/^SUMMARY:/m, `SUMMARY;LANGUAGE=${fields.title}:`)
    .replace(/^DESCRIPTION:/m, `DESCRIPTION;LANGUAGE=${fields.description}:`);
}

/** The years a calendar's events touch, gathered a slice of events at a time. */
class YearRange {
  private first = Infinity;
  private last = -Infinity;
  private anySeries = false;

  add(events: readonly EventResponse[], series: ReadonlyMap<number, CalendarSeries>): void {
    if (series.size > 0) this.anySeries = true;
    // a loop, not Math.min(...years): spreading a hundred thousand arguments or more throws
    for (const event of [...events, ...[...series.values()].flatMap((one) => [one.main, ...one.exceptions])]) {
      for (const year of [yearOf(event.utc_start_date), yearOf(event.utc_end_date)]) {
        if (year < this.first) this.first = year;
        if (year > this.last) this.last = year;
      }
    }
  }

  /** A year of margin on each side; with series, the years their rules may reach, too. */
  span(): [number, number] {
    if (this.first === Infinity) return [1970, 1970];
    const reach = this.anySeries ? Math.max(DateTime.utc().year + 3, this.last) : -Infinity;
    return [this.first - 1, Math.max(this.last + 1, reach)];
  }
}

/** The years a calendar's timed events touch, a year of margin on each side (series: the years their rules may reach, too). */
export function yearSpan(events: readonly EventResponse[], series: ReadonlyMap<number, CalendarSeries>): [number, number] {
  const range = new YearRange();
  range.add(events, series);
  return range.span();
}

/**
 * The VEVENTs of one series: the main event with its rule, then one per occurrence edited on its
 * own, with the main event's UID and the occurrence's original start as RECURRENCE-ID.
 */
function seriesData(series: CalendarSeries): ICalEventData[] {
  const master: ICalEventData = { ...eventData(series.main), repeating: recurrenceLinesForCalendar(series).join('\r\n') };
  const exceptions = series.exceptions.map((exception) => {
    const data = eventData(exception);
    const original = exception.recurrence?.original_start ?? exception.start_date;
    const recurrenceId = series.main.all_day
      ? DateTime.fromISO(original.slice(0, 10), { zone: 'utc' })
      : utc(wallToUtc(original, series.main.timezone));
    return { ...data, id: series.main.global_id, recurrenceId, timezone: master.timezone ?? null };
  });
  return [master, ...exceptions];
}

/**
 * Writes one VCALENDAR of events (RFC 5545, RFC 7986 `NAME`) from the same JSON objects the API
 * answers with, given a slice at a time in the list's order: each slice's VEVENTs are written as
 * text when it is added, so only the text is kept, not the events. An occurrence of a series in
 * the slice's `series` stands for its whole series, written once where its first occurrence
 * stands; an occurrence of a series not given is written as an event of its own. The time zone
 * definitions stand before the VEVENTs but are written last, once the years of every event are
 * known. Everything written is derived from the data, so the same events give the same bytes, whatever
 * the slices.
 */
export class CalendarWriter {
  private readonly vevents: string[] = [];
  private readonly zones = new Set<string>();
  private readonly writtenSeries = new Set<number>();
  private readonly years = new YearRange();

  constructor(private readonly meta: CalendarMeta) {}

  add(events: readonly EventResponse[], series: ReadonlyMap<number, CalendarSeries> = new Map()): void {
    this.years.add(events, series);
    const slice = this.calendar();
    // through an edition's path, the languages of each VEVENT's text (`LANGUAGE`, RFC 5545 §3.2.10)
    const languages = new Map<ICalEvent, Record<string, string>>();
    const create = (data: ICalEventData, source: EventResponse) => {
      const vevent = slice.createEvent(data);
      if (source.language) languages.set(vevent, source.language.fields);
    };
    for (const event of events) {
      const one = event.recurrence ? series.get(event.recurrence.series_id) : undefined;
      if (event.recurrence && this.writtenSeries.has(event.recurrence.series_id)) continue;
      if (!one || !event.recurrence) {
        create(eventData(event), event);
      } else {
        this.writtenSeries.add(event.recurrence.series_id);
        seriesData(one).forEach((data, index) => create(data, index === 0 ? one.main : one.exceptions[index - 1]));
      }
    }
    for (const vevent of slice.events()) {
      const zone = vevent.timezone();
      if (zone !== null && !zone.startsWith('/')) this.zones.add(zone);
      this.vevents.push(foldLines(withLanguages(vevent.toString(), languages.get(vevent))));
    }
  }

  /** The whole calendar; every content line ends with CRLF, the last one too (RFC 5545 §3.1). */
  finish(): string {
    const [fromYear, toYear] = this.years.span();
    // the calendar's own lines, as the library writes them for a calendar without events
    const empty = this.calendar().toString();
    const head = empty.slice(0, empty.lastIndexOf('END:VCALENDAR'));
    const zones = [...this.zones].flatMap((zone) => {
      const definition = vtimezone(zone, fromYear, toYear);
      return definition ? [foldLines(`${definition.replace(/\r?\n/g, '\r\n').trim()}\r\n`)] : [];
    });
    return `${head}${zones.join('')}${this.vevents.join('')}END:VCALENDAR\r\n`;
  }

  /** A calendar of this feed's name and product, without a time zone of its own (events carry theirs). */
  private calendar(): ICalCalendar {
    return ical({
      name: this.meta.name,
      prodId: { company: 'tribe', product: 'events-v1', language: this.meta.language.toUpperCase() },
    });
  }
}

/** One VCALENDAR of events given all at once (see {@link CalendarWriter}). */
export function toCalendar(
  events: readonly EventResponse[],
  meta: CalendarMeta,
  series: ReadonlyMap<number, CalendarSeries> = new Map(),
): string {
  const writer = new CalendarWriter(meta);
  writer.add(events, series);
  return writer.finish();
}
