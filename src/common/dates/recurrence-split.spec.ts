import { givesStarts, splitRecurrenceLines } from './recurrence-split.js';

describe('splitRecurrenceLines', () => {
  const start = '2031-01-06 10:00:00';

  it('ends an open rule one second before the split, in UTC, and keeps it whole for the second half', () => {
    expect(splitRecurrenceLines(['RRULE:FREQ=WEEKLY;BYDAY=MO'], 'Europe/Berlin', start, '2031-01-27 10:00:00')).toEqual({
      before: ['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20310127T085959Z'],
      after: ['RRULE:FREQ=WEEKLY;BYDAY=MO'],
    });
  });

  it('divides COUNT between the halves', () => {
    expect(splitRecurrenceLines(['RRULE:FREQ=DAILY;COUNT=10;INTERVAL=2'], 'UTC', start, '2031-01-12 10:00:00')).toEqual({
      before: ['RRULE:FREQ=DAILY;COUNT=3;INTERVAL=2'],
      after: ['RRULE:FREQ=DAILY;COUNT=7;INTERVAL=2'],
    });
  });

  it('keeps an UNTIL that ends before the split, and leaves that rule out of the second half', () => {
    const lines = ['RRULE:FREQ=DAILY;UNTIL=20310108T100000Z', 'RRULE:FREQ=WEEKLY'];
    expect(splitRecurrenceLines(lines, 'UTC', start, '2031-01-13 10:00:00')).toEqual({
      before: ['RRULE:FREQ=DAILY;UNTIL=20310108T100000Z', 'RRULE:FREQ=WEEKLY;UNTIL=20310113T095959Z'],
      after: ['RRULE:FREQ=WEEKLY'],
    });
  });

  it('sends RDATE and EXDATE dates to the half they fall in', () => {
    const lines = ['RRULE:FREQ=WEEKLY', 'RDATE:20310108T100000,20310201T100000', 'EXDATE;VALUE=DATE:20310203,20310113'];
    expect(splitRecurrenceLines(lines, 'UTC', start, '2031-01-20 10:00:00')).toEqual({
      before: ['RRULE:FREQ=WEEKLY;UNTIL=20310120T095959Z', 'RDATE:20310108T100000', 'EXDATE;VALUE=DATE:20310113'],
      after: ['RRULE:FREQ=WEEKLY', 'RDATE:20310201T100000', 'EXDATE;VALUE=DATE:20310203'],
    });
    expect(givesStarts(['EXDATE:20310113T100000'])).toBe(false);
    expect(givesStarts(['RDATE;VALUE=DATE:20310113'])).toBe(true);
  });
});
