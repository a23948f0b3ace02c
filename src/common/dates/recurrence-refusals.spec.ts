import { expandRecurrence } from './recurrence-expansion.js';
import { readRecurrenceLines, RecurrenceError, type RecurrenceProblem } from './recurrence-lines.js';

const FAR = { throughWall: '2100-01-01 00:00:00', cap: 1000 };
const NY = 'America/New_York';

describe('refused input', () => {
  const refusal = (lines: unknown, start = '2027-01-01 09:00:00'): RecurrenceProblem | undefined => {
    try {
      expandRecurrence(readRecurrenceLines(lines, NY), start, NY, FAR);
      return undefined;
    } catch (error) {
      if (error instanceof RecurrenceError) return error.problem;
      throw error;
    }
  };

  it.each([
    ['not a list', 'RRULE:FREQ=DAILY', 'recurrence_list'],
    ['a list with a number', ['RRULE:FREQ=DAILY', 3], 'recurrence_list'],
    ['an unknown property', ['FOO:BAR'], 'recurrence_line'],
    ['no colon', ['RRULE FREQ=DAILY'], 'recurrence_line'],
    ['an unknown rule part', ['RRULE:FREQ=DAILY;FOO=1'], 'recurrence_line'],
    ['a rule without FREQ', ['RRULE:COUNT=3'], 'recurrence_line'],
    ['an unknown frequency', ['RRULE:FREQ=FORTNIGHTLY'], 'recurrence_line'],
    ['a part given twice', ['RRULE:FREQ=DAILY;COUNT=2;COUNT=3'], 'recurrence_line'],
    ['a zero interval', ['RRULE:FREQ=DAILY;INTERVAL=0'], 'recurrence_line'],
    ['a month 13', ['RRULE:FREQ=YEARLY;BYMONTH=13'], 'recurrence_line'],
    ['a malformed EXDATE', ['RRULE:FREQ=DAILY', 'EXDATE:2027-01-02'], 'recurrence_line'],
    ['an EXDATE in an unknown zone', ['RRULE:FREQ=DAILY', 'EXDATE;TZID=Mars/Olympus:20270102T090000'], 'recurrence_line'],
    ['a DTSTART line', ['DTSTART:20270101T090000', 'RRULE:FREQ=DAILY'], 'recurrence_dtstart'],
    ['COUNT and UNTIL together', ['RRULE:FREQ=DAILY;COUNT=3;UNTIL=20270110T000000Z'], 'recurrence_count_until'],
    ['a SECONDLY rule', ['RRULE:FREQ=SECONDLY'], 'recurrence_frequency'],
    ['a MINUTELY rule', ['RRULE:FREQ=MINUTELY;INTERVAL=15'], 'recurrence_frequency'],
    ['only EXDATE lines', ['EXDATE:20270102T090000'], 'recurrence_no_occurrence'],
    ['an empty list', [], 'recurrence_no_occurrence'],
    ['a rule that never happens', ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'], 'recurrence_no_occurrence'],
    ['a rule that ended before the start', ['RRULE:FREQ=DAILY;UNTIL=20261201T000000Z'], 'recurrence_no_occurrence'],
    ['an EXDATE of the start itself', ['RRULE:FREQ=DAILY', 'EXDATE:20270101T090000'], 'recurrence_start_excluded'],
  ])('%s', (_name, lines, problem) => {
    expect(refusal(lines)).toBe(problem);
  });
});
