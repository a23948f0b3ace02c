export interface EventSearchTerms {
  /** Terms that must each occur in the title, description or excerpt. */
  include: string[];
  /** Terms (without their leading `-`) that must occur in none of them. */
  exclude: string[];
}

/** A double-quoted phrase (optionally preceded by `-`; an unclosed quote runs to the end) or a bare term. */
const EVENT_TERM = /(-?)"([^"]*)(?:"|$)|[^\s,+"]+/gu;

/**
 * Splits the `search` parameter of `GET /events` (spec 9.4) at whitespace, commas and `+`; text in
 * double quotes is one term, kept with its inner spaces; a term starting with `-` is an exclusion,
 * also when the `-` stands before the quotes (`-"open air"`). Empty terms and a bare `-` are
 * dropped, and a term repeated (ignoring case) is kept once. When nothing is left both lists are
 * empty and the search adds no restriction.
 */
export function eventSearchTerms(search: string): EventSearchTerms {
  const include: string[] = [];
  const exclude: string[] = [];
  const seen = new Set<string>();

  const add = (list: string[], term: string): void => {
    const key = `${list === exclude ? '-' : '+'}${term.toLowerCase()}`;
    if (term.trim() !== '' && !seen.has(key)) {
      seen.add(key);
      list.push(term);
    }
  };

  for (const match of search.matchAll(EVENT_TERM)) {
    const [whole, minus, phrase] = match;
    const term = phrase ?? whole;
    if (minus === '-') {
      add(exclude, term);
    } else if (term.startsWith('-')) {
      add(exclude, term.slice(1));
    } else {
      add(include, term);
    }
  }
  return { include, exclude };
}

/**
 * Splits the `search` parameter of `GET /venues` and `GET /organizers` (spec 9.5) into words at every
 * character that is not a Unicode letter, digit or hyphen (combining marks stay with their letter).
 * Empty words are dropped and a word repeated (ignoring case) is kept once.
 */
export function itemSearchWords(search: string): string[] {
  const words: string[] = [];
  const seen = new Set<string>();
  for (const word of search.split(/[^\p{L}\p{M}\p{N}-]+/u)) {
    const key = word.toLowerCase();
    if (word !== '' && !seen.has(key)) {
      seen.add(key);
      words.push(word);
    }
  }
  return words;
}
