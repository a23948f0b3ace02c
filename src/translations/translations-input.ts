import { Invalid, Param } from '../common/validation/param.js';
import { text } from '../common/validation/parsers.js';
import { TRANSLATED, type TranslatedKind } from './content-translations.js';
import type { TranslationChanges } from './content-translations.service.js';

/** The documentation of every write's `translations` field. */
export const TRANSLATIONS_DOC =
  'Translations of the text fields by edition, e.g. {"de": {"title": "…"}}; a field set to null or "" loses its translation, an edition set to null loses all of them.';

const LANGUAGE = /^[a-z]{2}(-[a-z]{2})?$/;

/**
 * `translations` of a write: `{"de": {"title": "…"}, "fr": null}`, keyed by edition, each field
 * named as in the write body (a string sets it, `null` or `""` removes it), `null` for a language
 * removes its translation. Returns the changes keyed by the stored field names; the service checks
 * the editions and sanitises the texts as it does the originals.
 */
export function translationsInput(kind: TranslatedKind) {
  const fields = TRANSLATED[kind];
  const invalid = () => new Invalid({ key: 'translations', args: { fields: fields.map(({ wire }) => wire).join(', ') } });
  return (raw: unknown): TranslationChanges | Invalid => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return invalid();
    const changes: TranslationChanges = {};
    for (const [language, given] of Object.entries(raw as Record<string, unknown>)) {
      if (!LANGUAGE.test(language)) return invalid();
      if (given === null) {
        changes[language] = null;
        continue;
      }
      if (typeof given !== 'object' || Array.isArray(given)) return invalid();
      const values: Record<string, string | null> = {};
      for (const [wire, value] of Object.entries(given as Record<string, unknown>)) {
        const field = fields.find((candidate) => candidate.wire === wire);
        if (!field || (value !== null && typeof value !== 'string')) return invalid();
        const text = value === null ? null : value.trim();
        if (text !== null && [...text].length > field.max) return new Invalid({ key: 'too_long', args: { max: field.max } });
        values[field.field] = text;
      }
      changes[language] = values;
    }
    return changes;
  };
}

/** The `translations` field of a write DTO. */
export const TranslationsField = (kind: TranslatedKind) =>
  Param(translationsInput(kind), {
    schema: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        nullable: true,
        properties: Object.fromEntries(TRANSLATED[kind].map(({ wire }) => [wire, { type: 'string', nullable: true }])),
      },
    },
  });

/** The documentation of every list's `missing_translation`. */
export const MISSING_TRANSLATION_DOC =
  'Only records without a translation of their title or name in this edition (an edition other than the content language).';

/** `missing_translation` of a list: an edition's code (the service checks it is one). */
export const MissingTranslationParam = () =>
  Param(
    (raw: unknown, param: string) => {
      const value = text({ max: 8, nonEmpty: true })(raw, param);
      return value instanceof Invalid ? value : value.toLowerCase();
    },
    { schema: { type: 'string' } },
  );
