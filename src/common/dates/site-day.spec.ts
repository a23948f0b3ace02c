import { siteDay } from './site-day.js';

describe('siteDay', () => {
  it('gives the date in the zone and changes exactly at local midnight', () => {
    let now = Date.UTC(2027, 2, 20, 4, 59, 59, 999); // 23:59:59.999 on 19 March in Chicago (CDT, -05:00)
    const today = siteDay('America/Chicago', () => now);
    expect(today()).toBe('2027-03-19');
    now += 1;
    expect(today()).toBe('2027-03-20');
    now = Date.UTC(2027, 2, 21, 4, 59, 59, 999);
    expect(today()).toBe('2027-03-20');
    now += 1;
    expect(today()).toBe('2027-03-21');
  });

  it('handles a day of 23 hours (DST start) and a clock set back', () => {
    let now = Date.UTC(2027, 2, 14, 6, 0, 0); // 00:00 CST on 14 March, the day has 23 hours
    const today = siteDay('America/Chicago', () => now);
    expect(today()).toBe('2027-03-14');
    now = Date.UTC(2027, 2, 15, 4, 59, 59); // 23:59:59 CDT
    expect(today()).toBe('2027-03-14');
    now = Date.UTC(2027, 2, 15, 5, 0, 0);
    expect(today()).toBe('2027-03-15');
    now = Date.UTC(2027, 2, 13, 12, 0, 0);
    expect(today()).toBe('2027-03-13');
  });

  it('accepts UTC offsets as zones', () => {
    const today = siteDay('UTC+5.5', () => Date.UTC(2027, 0, 1, 18, 30));
    expect(today()).toBe('2027-01-02');
  });
});
