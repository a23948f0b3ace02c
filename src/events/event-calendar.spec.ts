import { foldLines } from 'ical-generator';
import { randomTexts } from '../../test/support/random-text.js';
import { yearSpan } from './event-calendar.js';
import type { EventResponse } from './event.response.js';

function timed(start: string, end: string): EventResponse {
  return { utc_start_date: start, utc_end_date: end } as EventResponse;
}

describe('yearSpan', () => {
  it('reaches a year before the first start and after the last end', () => {
    const events = [timed('2027-03-01 10:00:00', '2027-03-01 11:00:00'), timed('2024-12-31 23:00:00', '2025-01-01 01:00:00')];
    expect(yearSpan(events, new Map())).toEqual([2023, 2028]);
  });

  it('holds for 100,000 events, more than a spread of arguments allows', () => {
    const events = Array.from({ length: 100_000 }, (_, i) =>
      timed(`${2000 + (i % 40)}-06-01 10:00:00`, `${2000 + (i % 40)}-06-02 10:00:00`),
    );
    expect(yearSpan(events, new Map())).toEqual([1999, 2040]);
  });

  it('is a fixed span for no events', () => {
    expect(yearSpan([], new Map())).toEqual([1970, 1970]);
  });
});

/** RFC 5545 §3.1 folding as the library documents it, written plainly: a line break and a space before the character that would pass 75 octets. */
function referenceFold(text: string): string {
  return text
    .split('\r\n')
    .map((line) => {
      let folded = '';
      let octets = 0;
      for (let i = 0; i < line.length; i++) {
        let character = line.charAt(i);
        if (character >= '\ud800' && character <= '\udbff') character += line.charAt(++i);
        const size = Buffer.byteLength(character, 'utf8');
        octets += size;
        if (octets > 74) {
          folded += '\r\n ';
          octets = size;
        }
        folded += character;
      }
      return folded;
    })
    .join('\r\n');
}

describe("ical-generator's line folding (patched, patches/)", () => {
  it('folds random text exactly as the reference does', () => {
    const pieces = [
      'a',
      ' ',
      'é',
      'ß',
      '東',
      '😀',
      '\ud83d',
      '\ude00',
      '\ud800\ud800',
      '\u07ff',
      '\u0800',
      '\r\n',
      ',',
      'x'.repeat(70),
      'ü'.repeat(40),
    ];
    for (const text of randomTexts(pieces, 5000, 30, 11)) {
      expect([text, foldLines(text)]).toEqual([text, referenceFold(text)]);
    }
  });

  it('keeps every line within 75 octets and unfolds to the text', () => {
    const text = `SUMMARY:${'Straße 東京 😀 '.repeat(40)}`;
    const folded = foldLines(text);
    for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(text);
  });
});
