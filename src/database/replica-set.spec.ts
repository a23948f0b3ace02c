import { reaches } from './replica-set.js';

describe('reaches (MariaDB GTID positions)', () => {
  it('compares the sequence of every domain of the target', () => {
    expect(reaches('0-1-42', '0-1-42')).toBe(true);
    expect(reaches('0-1-43', '0-1-42')).toBe(true);
    expect(reaches('0-1-41', '0-1-42')).toBe(false);
    // another server of the same domain wrote later: the sequence still orders them
    expect(reaches('0-2-50', '0-1-42')).toBe(true);
    expect(reaches('0-1-9,1-1-5', '0-1-9,1-1-6')).toBe(false);
    expect(reaches('0-1-9,1-1-6', '1-1-6')).toBe(true);
    expect(reaches('0-1-9', '0-1-9,1-1-1')).toBe(false);
  });

  it('treats an empty target as reached and an empty position as reaching nothing', () => {
    expect(reaches('', '')).toBe(true);
    expect(reaches('0-1-1', '')).toBe(true);
    expect(reaches('', '0-1-1')).toBe(false);
  });
});
