const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\r\n': '\\n',
  '\r': '\\n',
  '\n': '\\n',
};

/** A schema.org object of spec §8.10 (`Event`, `Place`, `Person`, ...): its type, then keys in emission order. */
export interface JsonLd {
  '@context'?: string;
  '@type': string;
  [key: string]: unknown;
}

/**
 * esc(x) of spec 8.10: `& < > "` become entities and every line break becomes the two characters
 * backslash and `n`. Existing entities are escaped again (`&amp;` → `&amp;amp;`), as the spec says.
 */
export function esc(text: string): string {
  return text.replace(/\r\n|[&<>"\r\n]/g, (match) => ESCAPES[match] ?? match);
}

/**
 * Text(x) of spec 8.10, from the already rendered excerpt and description: the excerpt when it is not
 * empty, otherwise the description, followed by one line break and escaped; `""` when both are empty.
 */
export function jsonLdText(excerptRendered: string, descriptionRendered: string): string {
  const source = excerptRendered !== '' ? excerptRendered : descriptionRendered;
  return source === '' ? '' : esc(`${source}\n`);
}

/** Writes every character (code point) as a decimal character reference: `hi@t` → `&#104;&#105;&#64;&#116;`. */
export function encodeEmailEntities(email: string): string {
  let encoded = '';
  for (const character of email) {
    encoded += `&#${character.codePointAt(0) ?? 0};`;
  }
  return encoded;
}
