import { eventSearchTerms, itemSearchWords } from './search-terms.js';

describe('eventSearchTerms', () => {
  it('splits at whitespace, commas and plus signs', () => {
    expect(eventSearchTerms('jazz night,harbour+walk\tlate\nshow')).toEqual({
      include: ['jazz', 'night', 'harbour', 'walk', 'late', 'show'],
      exclude: [],
    });
  });

  it('keeps double-quoted text as one term', () => {
    expect(eventSearchTerms('"open air" concert')).toEqual({ include: ['open air', 'concert'], exclude: [] });
    expect(eventSearchTerms('"a,b+c"')).toEqual({ include: ['a,b+c'], exclude: [] });
  });

  it('reads an unclosed quote up to the end', () => {
    expect(eventSearchTerms('walk "by the sea')).toEqual({ include: ['walk', 'by the sea'], exclude: [] });
  });

  it('treats a term starting with a hyphen as an exclusion', () => {
    expect(eventSearchTerms('lantern -workshop')).toEqual({ include: ['lantern'], exclude: ['workshop'] });
  });

  it('excludes a quoted phrase preceded by a hyphen or starting with one', () => {
    expect(eventSearchTerms('-"open air" walk "-indoor"')).toEqual({ include: ['walk'], exclude: ['open air', 'indoor'] });
  });

  it('keeps hyphens inside terms', () => {
    expect(eventSearchTerms('step-free')).toEqual({ include: ['step-free'], exclude: [] });
  });

  it('drops empty terms, bare hyphens and repeats', () => {
    expect(eventSearchTerms(' ,, + - "" " " jazz Jazz -x -X ')).toEqual({ include: ['jazz'], exclude: ['x'] });
  });

  it('returns no terms when nothing usable is left', () => {
    expect(eventSearchTerms(',+,')).toEqual({ include: [], exclude: [] });
  });
});

describe('itemSearchWords', () => {
  it.each([
    ['http://one.example', ['http', 'one', 'example']],
    ['@common.example', ['common', 'example']],
    ['france, ile de', ['france', 'ile', 'de']],
    ['temple avenue', ['temple', 'avenue']],
    ['223345', ['223345']],
  ])('cuts %j into words as in the spec', (search, words) => {
    expect(itemSearchWords(search)).toEqual(words);
  });

  it('keeps hyphens and Unicode letters and digits', () => {
    expect(itemSearchWords('Saint-Étienne, Straße ٣ 東京')).toEqual(['Saint-Étienne', 'Straße', '٣', '東京']);
  });

  it('keeps combining marks with their letter', () => {
    expect(itemSearchWords('Cafe\u0301 bar')).toEqual(['Cafe\u0301', 'bar']);
  });

  it('drops empty words and repeats', () => {
    expect(itemSearchWords('  ...London//london!! ')).toEqual(['London']);
    expect(itemSearchWords('!@#$')).toEqual([]);
  });
});
