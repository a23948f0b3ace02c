import { ruleStartsBefore } from './recurrence-expansion.js';
import { readRecurrenceLines, type RuleLine } from './recurrence-lines.js';
import { formatWall, parseWall } from './wall-clock.js';
import { utcToWall, wallToUtc } from './wall-time.js';

/** The lines of a series split at one of its starts: those that give the starts before it, and those that give it and the later ones. */
export interface SplitLines {
  before: string[];
  after: string[];
}

const compact = (wall: string): string => wall.replace(/[-:]/g, '').replace(' ', 'T');

/** An UNTIL value as a wall time of the series' zone. */
function untilWall(until: string, zone: string): string {
  const wall = `${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)} ${until.length === 8 ? '23:59:59' : `${until.slice(9, 11)}:${until.slice(11, 13)}:${until.slice(13, 15)}`}`;
  return until.endsWith('Z') ? utcToWall(wall, zone) : wall;
}

const ruleLine = (parts: Map<string, string>): string => `RRULE:${[...parts].map(([key, value]) => `${key}=${value}`).join(';')}`;

function splitRule(rule: RuleLine, seriesStart: string, zone: string, splitWall: string, out: SplitLines): void {
  const count = rule.parts.get('COUNT');
  if (count !== undefined) {
    // COUNT rules: the starts before the split stay with the first half, the rest go to the second
    const earlier = ruleStartsBefore(rule, seriesStart, zone, splitWall);
    const later = Number(count) - earlier;
    if (earlier > 0) out.before.push(ruleLine(new Map(rule.parts).set('COUNT', String(earlier))));
    if (later > 0) out.after.push(ruleLine(new Map(rule.parts).set('COUNT', String(later))));
    return;
  }
  const last = formatWall(parseWall(splitWall).minus({ seconds: 1 }));
  const until = rule.parts.get('UNTIL');
  const ends = until === undefined ? null : untilWall(until, zone);
  if (ends !== null && ends <= last) {
    // the rule ends before the split anyway
    out.before.push(ruleLine(rule.parts));
    return;
  }
  out.before.push(ruleLine(new Map(rule.parts).set('UNTIL', `${compact(wallToUtc(last, zone))}Z`)));
  out.after.push(ruleLine(rule.parts));
}

/**
 * Splits the stored lines of a series (starting at `seriesStart`, read in `zone`) at `splitWall`,
 * one of its starts: the first half's rules end just before it (`UNTIL` one second earlier in UTC,
 * `COUNT` reduced to the starts before it), the second half keeps the rules (`COUNT` less the
 * starts before); `RDATE` and `EXDATE` dates go to the half they fall in.
 */
export function splitRecurrenceLines(lines: string[], zone: string, seriesStart: string, splitWall: string): SplitLines {
  const out: SplitLines = { before: [], after: [] };
  for (const line of lines) {
    const colon = line.indexOf(':');
    const head = line.slice(0, colon);
    if (head === 'RRULE') {
      splitRule(readRecurrenceLines([line], zone).rules[0], seriesStart, zone, splitWall, out);
      continue;
    }
    const halves: { before: string[]; after: string[] } = { before: [], after: [] };
    for (const value of line.slice(colon + 1).split(',')) {
      const read = readRecurrenceLines([`${head.replace(/^EXDATE/, 'RDATE')}:${value}`], zone).rdates[0];
      const wall = 'wall' in read ? read.wall : `${read.day} ${seriesStart.slice(11)}`;
      (wall < splitWall ? halves.before : halves.after).push(value);
    }
    if (halves.before.length > 0) out.before.push(`${head}:${halves.before.join(',')}`);
    if (halves.after.length > 0) out.after.push(`${head}:${halves.after.join(',')}`);
  }
  return out;
}

/** Whether lines still give starts of their own (an `RRULE` or an `RDATE`), not only exclusions. */
export const givesStarts = (lines: string[]): boolean => lines.some((line) => /^(RRULE|RDATE)[:;]/.test(line));
