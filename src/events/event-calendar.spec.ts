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

  it('holds for a calendar of 100,000 events (the most ICS_MAX_EVENTS allows)', () => {
    const events = Array.from({ length: 100_000 }, (_, i) =>
      timed(`${2000 + (i % 40)}-06-01 10:00:00`, `${2000 + (i % 40)}-06-02 10:00:00`),
    );
    expect(yearSpan(events, new Map())).toEqual([1999, 2040]);
  });

  it('is a fixed span for no events', () => {
    expect(yearSpan([], new Map())).toEqual([1970, 1970]);
  });
});
