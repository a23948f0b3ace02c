import { SLUG_MAX_LENGTH, nextFreeSlug, sanitizeSlug, transliterate } from './slug.js';

describe('sanitizeSlug', () => {
  it.each([
    ['Gen Slug Night!', 'gen-slug-night'],
    ['Café Ünter den Linden', 'cafe-unter-den-linden'],
    ['  --Summer  2027--', 'summer-2027'],
  ])('follows the spec example %j', (input, expected) => {
    expect(sanitizeSlug(input)).toBe(expected);
  });

  it('strips tags and decodes entities before slugging', () => {
    expect(sanitizeSlug('<b>Jazz</b> &amp; <i>Blues</i>')).toBe('jazz-blues');
    expect(sanitizeSlug('Caf&eacute; Noir')).toBe('cafe-noir');
    expect(sanitizeSlug('<script>alert(1)</script>Quiet Night')).toBe('quiet-night');
  });

  it('transliterates the special letters, lower and upper case', () => {
    expect(sanitizeSlug('Straße Æbleskiver Œuvre Ørsted Åland Łódź Đakovo Þór')).toBe(
      'strasse-aebleskiver-oeuvre-orsted-aland-lodz-dakovo-thor',
    );
    expect(sanitizeSlug('STRAẞE ÆØÅ')).toBe('strasse-aeoa');
    expect(sanitizeSlug('ñandú über')).toBe('nandu-uber');
  });

  it('drops characters without an ASCII transliteration', () => {
    expect(sanitizeSlug('東京 Jazz 夜')).toBe('jazz');
    expect(sanitizeSlug('Концерт')).toBe('');
    expect(sanitizeSlug('🎷 Sax')).toBe('sax');
  });

  it('turns every run of other characters into one hyphen', () => {
    expect(sanitizeSlug("Bob's  Bar & Grill_2")).toBe('bob-s-bar-grill-2');
    expect(sanitizeSlug('a---b...c')).toBe('a-b-c');
  });

  it('returns an empty string when nothing usable remains', () => {
    expect(sanitizeSlug('')).toBe('');
    expect(sanitizeSlug(' -- !! -- ')).toBe('');
  });

  it('cuts to 200 characters and removes a trailing hyphen left by the cut', () => {
    expect(sanitizeSlug('x'.repeat(250))).toBe('x'.repeat(SLUG_MAX_LENGTH));
    const cutAtHyphen = sanitizeSlug(`${'a'.repeat(199)} tail`);
    expect(cutAtHyphen).toBe('a'.repeat(199));
  });

  it('keeps an already clean slug unchanged', () => {
    expect(sanitizeSlug('jazz-night-2')).toBe('jazz-night-2');
  });
});

describe('transliterate', () => {
  it('keeps ASCII, removes diacritics and spells out the special letters', () => {
    expect(transliterate('Crème brûlée, ǿ, ǽ, ß')).toBe('Creme brulee, o, ae, ss');
  });

  it('maps compatibility characters to their ASCII form', () => {
    expect(transliterate('ﬁne ①')).toBe('fine 1');
  });
});

describe('nextFreeSlug', () => {
  it('returns the base when it is free', () => {
    expect(nextFreeSlug('jazz-night', new Set(['other']))).toBe('jazz-night');
  });

  it('appends the smallest free number starting at 2', () => {
    expect(nextFreeSlug('jazz-night', new Set(['jazz-night']))).toBe('jazz-night-2');
    expect(nextFreeSlug('jazz-night', new Set(['jazz-night', 'jazz-night-2']))).toBe('jazz-night-3');
    expect(nextFreeSlug('jazz-night', new Set(['jazz-night', 'jazz-night-3']))).toBe('jazz-night-2');
  });

  it('accepts a predicate', () => {
    const taken = (slug: string): boolean => ['gig', 'gig-2', 'gig-3'].includes(slug);
    expect(nextFreeSlug('gig', taken)).toBe('gig-4');
  });

  it('may exceed 200 characters with the suffix', () => {
    const base = 'a'.repeat(SLUG_MAX_LENGTH);
    expect(nextFreeSlug(base, new Set([base]))).toBe(`${base}-2`);
  });
});
