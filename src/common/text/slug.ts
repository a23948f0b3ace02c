import { decodeHTML } from 'entities';
import { stripTags } from './html.js';

/** Maximum slug length; suffixes added for uniqueness may exceed it (spec 3.3, 7.6). */
export const SLUG_MAX_LENGTH = 200;

/** Letters that Unicode decomposition does not reduce to ASCII but that have a usual spelling. */
const EXTRA_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  å: 'a',
  Å: 'A',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  þ: 'th',
  Þ: 'TH',
};

const EXTRA_LETTER_PATTERN = new RegExp(`[${Object.keys(EXTRA_LETTERS).join('')}]`, 'gu');

/**
 * Reduces text to ASCII: diacritics are removed, the letters of EXTRA_LETTERS are spelled out and
 * any other non-ASCII character is dropped.
 */
export function transliterate(text: string): string {
  // Decompose first so that accented forms of the special letters (ǿ, ǽ) reach the map bare.
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(EXTRA_LETTER_PATTERN, (letter) => EXTRA_LETTERS[letter] ?? '')
    .replace(/[^\p{ASCII}]+/gu, '');
}

/** Sanitises a generated or user-given slug (spec 3.3, steps 1–5). May return `""`. */
export function sanitizeSlug(input: string): string {
  const ascii = transliterate(decodeHTML(stripTags(input))).toLowerCase();
  const hyphenated = ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return hyphenated.slice(0, SLUG_MAX_LENGTH).replace(/-+$/, '');
}

export type SlugTakenCheck = ReadonlySet<string> | ((slug: string) => boolean);

/** `base` when free, otherwise `base-2`, `base-3`, … whichever free one comes first. */
export function nextFreeSlug(base: string, taken: SlugTakenCheck): string {
  const isTaken = typeof taken === 'function' ? taken : (slug: string) => taken.has(slug);
  if (!isTaken(base)) {
    return base;
  }
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!isTaken(candidate)) {
      return candidate;
    }
  }
}

/**
 * The stored slugs a by-slug path may name: the path's slug itself and, when it has characters
 * beyond ASCII, WordPress's spelling of it (UTF-8 percent-encoded in lower case: `日本` →
 * `%e6%97%a5%e6%9c%ac`), which records imported from the reference keep.
 */
export function slugLookupForms(slug: string): string[] {
  const encoded = slug.replace(/[^\p{ASCII}]+/gu, (chars) => encodeURIComponent(chars).toLowerCase());
  return encoded === slug ? [slug] : [slug, encoded];
}
