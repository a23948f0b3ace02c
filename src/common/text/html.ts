import { decodeHTML } from 'entities';
import sanitizeHtml from 'sanitize-html';

/** Tags kept in item descriptions and excerpts (spec 7.6). */
export const RICH_TEXT_TAGS: readonly string[] = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'a',
  'ul',
  'ol',
  'li',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'code',
  'img',
  'figure',
  'figcaption',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'hr',
  'span',
  'div',
];

/** Elements whose content is dropped together with the element itself. */
const DISCARDED_WITH_CONTENT = ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'title'];

const PLAIN_TEXT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  disallowedTagsMode: 'discard',
  nonTextTags: DISCARDED_WITH_CONTENT,
};

const RICH_TEXT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'width', 'height'],
  },
  selfClosing: ['br', 'hr', 'img'],
  // Anything else with a scheme (javascript:, data:, vbscript:, ftp:, …) loses the attribute;
  // scheme-less (relative) URLs are kept.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  nonTextTags: DISCARDED_WITH_CONTENT,
};

/**
 * Removes every HTML tag (and the content of script/style-like elements), keeping the text exactly
 * as written: entities typed by the user are neither decoded nor added.
 * `Fish & Chips <b>now</b>` → `Fish & Chips now`; `Tom &amp; Jerry` stays `Tom &amp; Jerry`.
 */
export function stripTags(input: string): string {
  // a tag the removal of others put together (`<<b>b>` gives `<b>`) is removed by the next pass,
  // until nothing changes; each pass that changes the text shortens it, and past a bound of passes
  // the `<` that could still open a tag go
  let text = input;
  for (let pass = 0; pass < MAX_STRIP_PASSES; pass++) {
    const next = stripTagsOnce(text);
    if (next === text) return next;
    text = next;
  }
  return text.replace(/</g, '');
}

const MAX_STRIP_PASSES = 16;

/**
 * Text of a message written as HTML (an error message of a WordPress site), for a terminal or a log:
 * tags removed, entities decoded, runs of white space made one space.
 * `<strong>Error:</strong> Sorry, you&#8217;re not allowed.` → `Error: Sorry, you’re not allowed.`
 */
export function htmlToText(input: string): string {
  return decodeHTML(stripTags(input)).replace(/\s+/g, ' ').trim();
}

function stripTagsOnce(input: string): string {
  // without a `<` there is no tag, and the steps below give back the text as written
  if (!input.includes('<')) return input.trim();
  // sanitize-html always decodes entities in text and re-escapes `& < >` on output. Escaping every
  // `&` beforehand makes the decoding step give back the literal text, and the final unescape
  // undoes sanitize-html's own escaping exactly, so the user's characters survive untouched.
  const literal = input.replace(/&/g, '&amp;');
  return unescapeBasic(sanitizeHtml(literal, PLAIN_TEXT_OPTIONS)).trim();
}

function unescapeBasic(escaped: string): string {
  return escaped.replace(/&(amp|lt|gt);/g, (_match, name: string) => (name === 'amp' ? '&' : name === 'lt' ? '<' : '>'));
}

/**
 * Sanitises an item description or excerpt to the allow-list of spec 7.6 and trims it.
 *
 * Text readability: sanitize-html decodes entities and then escapes every `&`, `<` and `>` in text.
 * `<` must stay escaped (it could open a tag), but `>` never needs escaping, and neither does an `&`
 * that cannot start a character reference (one not followed by a letter, digit or `#`). Those are
 * turned back into plain characters, so `Fish & Chips` is stored as `Fish & Chips`, while
 * `AT&T` becomes `AT&amp;T` and `&lt;script&gt;` stays escaped. The result is stable: sanitising it
 * again gives the same string. This is done on the whole output rather than in `textFilter`, because
 * the parser hands decoded entities to `textFilter` as separate chunks, so the character after an
 * `&` is not visible there; `parser.decodeEntities: false` is not used either, since it keeps
 * malformed entities and sanitize-html itself documents it as unsafe.
 */
export function sanitizeRichText(input: string): string {
  const sanitized = sanitizeHtml(input, RICH_TEXT_OPTIONS);
  return sanitized.replace(/&amp;(?![A-Za-z0-9#])|&gt;/g, (match) => (match === '&gt;' ? '>' : '&')).trim();
}

const BLOCK_START = /^<(?:p|div|h[1-6]|ul|ol|li|blockquote|pre|table|figure|hr)(?=[\s/>]|$)/i;

/**
 * Output rendering of a stored description or excerpt (spec 7.6): blocks separated by blank lines,
 * blocks not starting with a block-level tag wrapped in `<p>` with single line breaks as `<br />`.
 */
export function renderRichText(stored: string): string {
  const text = stored.replace(/\r\n?/g, '\n').trim();
  if (text === '') {
    return '';
  }
  return (
    text
      // A line holding only spaces or tabs looks blank, so it separates blocks too.
      .split(/\n(?:[ \t]*\n)+/)
      .map((block) => block.trim())
      .filter((block) => block !== '')
      .map((block) => (BLOCK_START.test(block) ? block : `<p>${block.replace(/\n/g, '<br />\n')}</p>`))
      .join('\n')
      .trim()
  );
}
