import ICAL from 'ical.js';

/** A part of a feed that could not be read, and why. */
export interface FeedProblem {
  uid: string | null;
  recurrenceId: string | null;
  reason: string;
}

/** What a feed holds that a sync uses: its events, the time zones it defines, its default zone. */
export interface FeedCalendar {
  events: ICAL.Component[];
  zones: Map<string, ICAL.Timezone>;
  /** `X-WR-TIMEZONE`: the zone its floating times are meant in (Google, Apple). */
  calendarZone: string | null;
  problems: FeedProblem[];
}

/** The whole file cannot be used (not iCalendar, nothing readable). */
export class FeedRefused extends Error {}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 300);

/** Content lines: line breaks of any kind read as CRLF, folded lines joined (RFC 5545 §3.1). */
function contentLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\n[ \t]/g, '')
    .split('\n');
}

/** The blocks of `names` anywhere in the lines, each with its nested components, as text. */
function blocks(lines: string[]): { name: string; text: string }[] {
  const found: { name: string; text: string }[] = [];
  let current: { name: string; lines: string[]; depth: number } | null = null;
  for (const line of lines) {
    const begin = /^BEGIN:(\S+)\s*$/i.exec(line);
    const end = /^END:(\S+)\s*$/i.exec(line);
    if (!current) {
      const name = begin?.[1].toUpperCase();
      if (name === 'VEVENT' || name === 'VTIMEZONE') current = { name, lines: [line], depth: 1 };
      continue;
    }
    current.lines.push(line);
    if (begin) current.depth++;
    if (end) current.depth--;
    if (current.depth === 0) {
      found.push({ name: current.name, text: current.lines.join('\r\n') });
      current = null;
    }
  }
  if (current) found.push({ name: current.name, text: current.lines.join('\r\n') });
  return found;
}

const PROPERTY = (name: string) => new RegExp(`^${name}(?:;[^:]*)?:(.*)$`, 'im');

function collect(components: ICAL.Component[], into: FeedCalendar): void {
  for (const calendar of components) {
    const zone = calendar.getFirstPropertyValue('x-wr-timezone');
    if (typeof zone === 'string' && zone.trim() !== '' && into.calendarZone === null) into.calendarZone = zone.trim();
    for (const definition of calendar.getAllSubcomponents('vtimezone')) {
      const tzid = definition.getFirstPropertyValue('tzid');
      if (typeof tzid === 'string') into.zones.set(tzid, new ICAL.Timezone(definition));
    }
    into.events.push(...calendar.getAllSubcomponents('vevent'));
  }
}

/**
 * Reads a feed. A file that parses is taken whole (every `VCALENDAR` in it); one that does not is
 * read again component by component, so that one broken `VEVENT` is refused with its reason while
 * the others are imported. A file with no calendar at all is refused as a whole.
 */
export function readFeed(raw: string): FeedCalendar {
  const text = raw.replace(/^\uFEFF/, '');
  if (!/^BEGIN:VCALENDAR\s*$/im.test(text)) throw new FeedRefused('the answer is not an iCalendar file (no BEGIN:VCALENDAR)');
  const calendar: FeedCalendar = { events: [], zones: new Map(), calendarZone: null, problems: [] };
  const lines = contentLines(text);
  try {
    const parsed: unknown = ICAL.parse(lines.join('\r\n'));
    const list = (Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed : [parsed]) as unknown[];
    const components = list.map((jcal) => new ICAL.Component(jcal as never));
    collect(
      components.filter((component) => component.name === 'vcalendar'),
      calendar,
    );
    return calendar;
  } catch (error) {
    calendar.problems.push({
      uid: null,
      recurrenceId: null,
      reason: `the file does not parse as a whole (${reasonOf(error)}): read component by component`,
    });
  }
  const head = lines.join('\n');
  const zoneName = PROPERTY('X-WR-TIMEZONE').exec(head)?.[1]?.trim();
  if (zoneName) calendar.calendarZone = zoneName;
  for (const block of blocks(lines)) {
    try {
      const parsed: unknown = ICAL.parse(`BEGIN:VCALENDAR\r\n${block.text}\r\nEND:VCALENDAR\r\n`);
      collect([new ICAL.Component(parsed as never)], calendar);
    } catch (error) {
      if (block.name !== 'VEVENT') continue;
      const uid = PROPERTY('UID').exec(block.text)?.[1]?.trim() || null;
      const recurrenceId = PROPERTY('RECURRENCE-ID').exec(block.text)?.[1]?.trim() || null;
      calendar.problems.push({ uid, recurrenceId, reason: `this VEVENT does not parse: ${reasonOf(error)}` });
    }
  }
  return calendar;
}
