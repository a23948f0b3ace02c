import { approximateSize, EmbeddedRowsCache, type EmbeddedRows } from './embedded-rows-cache.js';

const none = { venues: [], organizers: [], categories: [], tags: [] };
const row = <T>(id: number, name: string) => ({ id, name }) as unknown as T;
/** The rows kept, when every one asked for was kept at the version; otherwise null. */
const whole = (cache: EmbeddedRowsCache, version: string, ids: typeof none | Record<keyof typeof none, number[]>) => {
  const { kept, missing } = cache.find(version, ids);
  return Object.values(missing).every((list) => list.length === 0) ? kept : null;
};

describe('EmbeddedRowsCache', () => {
  it('gives the rows asked for, in the order asked, only when every one was kept at the version read', () => {
    const cache = new EmbeddedRowsCache();
    cache.keep('7', 'venues', [row<EmbeddedRows['venues'][number]>(1, 'Hall')]);
    cache.keep('7', 'tags', [row<EmbeddedRows['tags'][number]>(5, 'five'), row<EmbeddedRows['tags'][number]>(4, 'four')]);
    const found = whole(cache, '7', { ...none, venues: [1], tags: [4, 5] });
    expect(found).toEqual({
      venues: [{ id: 1, name: 'Hall' }],
      organizers: [],
      categories: [],
      tags: [
        { id: 4, name: 'four' },
        { id: 5, name: 'five' },
      ],
    });
    // another version, a row never kept, a row of another kind with the same id: read them again
    expect(whole(cache, '8', { ...none, venues: [1] })).toBeNull();
    expect(whole(cache, '7', { ...none, venues: [1], tags: [4, 6] })).toBeNull();
    expect(whole(cache, '7', { ...none, organizers: [1] })).toBeNull();
    expect(whole(cache, '7', none)).toEqual(none);
  });

  it('names the ids of each kind that were not kept at the version, beside the rows that were', () => {
    const cache = new EmbeddedRowsCache();
    cache.keep('7', 'venues', [row<EmbeddedRows['venues'][number]>(1, 'Hall')]);
    cache.keep('7', 'tags', [row<EmbeddedRows['tags'][number]>(4, 'four')]);
    cache.keep('6', 'organizers', [row<EmbeddedRows['organizers'][number]>(2, 'old')]);
    expect(cache.find('7', { venues: [1], organizers: [2, 3], categories: [], tags: [4, 5] })).toEqual({
      kept: { venues: [{ id: 1, name: 'Hall' }], organizers: [], categories: [], tags: [{ id: 4, name: 'four' }] },
      missing: { venues: [], organizers: [2, 3], categories: [], tags: [5] },
    });
  });

  it('keeps a row at the version it was last read at', () => {
    const cache = new EmbeddedRowsCache();
    cache.keep('7', 'organizers', [row<EmbeddedRows['organizers'][number]>(2, 'old')]);
    cache.keep('9', 'organizers', [row<EmbeddedRows['organizers'][number]>(2, 'new')]);
    expect(whole(cache, '7', { ...none, organizers: [2] })).toBeNull();
    expect(whole(cache, '9', { ...none, organizers: [2] })?.organizers).toEqual([{ id: 2, name: 'new' }]);
  });

  it('shares frozen rows, and keeps at most its limit of rows per kind, the least recently used going first', () => {
    const cache = new EmbeddedRowsCache(2);
    const kept = [1, 2, 3].map((id) => row<EmbeddedRows['categories'][number]>(id, `c${id}`));
    cache.keep('1', 'categories', kept.slice(0, 2));
    expect(Object.isFrozen(kept[0])).toBe(true);
    expect(whole(cache, '1', { ...none, categories: [1] })).not.toBeNull();
    cache.keep('1', 'categories', [kept[2]]);
    expect(whole(cache, '1', { ...none, categories: [2] })).toBeNull();
    expect(whole(cache, '1', { ...none, categories: [1, 3] })?.categories).toEqual([kept[0], kept[2]]);
  });

  it('keeps at most its bytes of rows per kind, a row with long text counting for more', () => {
    const small = row<EmbeddedRows['venues'][number]>(1, 'v1');
    const size = approximateSize(small);
    const cache = new EmbeddedRowsCache(100, size * 4);
    const long = { ...row<EmbeddedRows['venues'][number]>(2, 'v2'), description: 'x'.repeat(size) };
    expect(approximateSize(long)).toBeGreaterThan(size * 2);
    const venue = (id: number) => row<EmbeddedRows['venues'][number]>(id, `v${id}`);
    cache.keep('1', 'venues', [small, venue(3), venue(4)]);
    expect(whole(cache, '1', { ...none, venues: [1, 3, 4] })).not.toBeNull();
    // the long row takes the room of more than two short ones: the two least recently used go
    cache.keep('1', 'venues', [long]);
    expect(whole(cache, '1', { ...none, venues: [2, 4] })?.venues).toEqual([long, venue(4)]);
    expect(whole(cache, '1', { ...none, venues: [1] })).toBeNull();
    expect(whole(cache, '1', { ...none, venues: [3] })).toBeNull();
    // the other kinds have bytes of their own
    cache.keep('1', 'organizers', [row<EmbeddedRows['organizers'][number]>(1, 'o1')]);
    expect(whole(cache, '1', { ...none, venues: [2], organizers: [1] })).not.toBeNull();
  });
});
