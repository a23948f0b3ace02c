export { RICH_TEXT_TAGS, htmlToText, renderRichText, sanitizeRichText, stripTags } from './html.js';
export { encodeEmailEntities, esc, jsonLdText, type JsonLd } from './json-ld.js';
export { eventSearchTerms, itemSearchWords, type EventSearchTerms } from './search-terms.js';
export { SLUG_MAX_LENGTH, nextFreeSlug, sanitizeSlug, transliterate, type SlugTakenCheck } from './slug.js';
