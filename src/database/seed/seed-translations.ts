import type { DataSource } from 'typeorm';
import { idChunks } from '../../common/sql/id-chunks.js';
import { TRANSLATED_FIELDS, type TranslatedKind } from '../../translations/content-translations.js';
import { insertRows } from './seed-statements.js';

/** The tables of a run's records, the kind their translations are stored under, and the letter their slugs carry. */
const TRANSLATED_TABLES: Array<{ table: string; kind: TranslatedKind; letter: string }> = [
  { table: 'categories', kind: 'category', letter: 'c' },
  { table: 'tags', kind: 'tag', letter: 't' },
  { table: 'venues', kind: 'venue', letter: 'v' },
  { table: 'organizers', kind: 'organizer', letter: 'o' },
  { table: 'events', kind: 'event', letter: 'e' },
];

/** A word per language, so that a translated text differs from the original and between languages. */
const MARKS: Record<string, string> = { de: 'Veranstaltung', fr: 'Événement', es: 'Evento', it: 'Evento', nl: 'Evenement' };

/** The seeded text of `original` in `language`. */
export function seededTranslation(language: string, original: string): string {
  return `${MARKS[language] ?? language.toUpperCase()}: ${original}`;
}

/**
 * Translations of a run's records (issue 48) into `languages`: every text field of the original
 * that holds text gets one in each language. Records whose title or name already has one in a
 * language are left alone, so running again only adds what is missing. Multi-row inserts, a
 * thousand records a transaction.
 */
export async function seedTranslations(
  dataSource: DataSource,
  prefix: string,
  languages: readonly string[],
  onBatch: (kind: TranslatedKind, done: number, total: number) => void = () => undefined,
): Promise<number> {
  let inserted = 0;
  for (const { table, kind, letter } of TRANSLATED_TABLES) {
    const fields = TRANSLATED_FIELDS[kind];
    const found: Array<{ id: number | string }> = await dataSource.query(`SELECT id FROM ${table} WHERE slug LIKE ? ORDER BY id`, [
      `${prefix}${letter}%`,
    ]);
    const ids = found.map((row) => Number(row.id));
    let done = 0;
    for (const chunk of idChunks(ids)) {
      await dataSource.transaction(async (manager) => {
        const list = chunk.join(', ');
        const existing: Array<{ record_id: number | string; language: string }> = await manager.query(
          `SELECT record_id, language FROM content_translations WHERE kind = ? AND field = ? AND record_id IN (${list})`,
          [kind, fields[0]],
        );
        const have = new Set(existing.map((row) => `${Number(row.record_id)}:${row.language}`));
        const originals: Array<Record<string, unknown>> = await manager.query(
          `SELECT id, ${fields.join(', ')} FROM ${table} WHERE id IN (${list})`,
        );
        const rows: Record<string, unknown>[] = [];
        for (const original of originals) {
          const id = Number(original.id);
          for (const language of languages) {
            if (have.has(`${id}:${language}`)) continue;
            for (const field of fields) {
              const text = original[field];
              if (typeof text === 'string' && text !== '')
                rows.push({ kind, record_id: id, language, field, value: seededTranslation(language, text) });
            }
          }
        }
        await insertRows(manager, 'content_translations', rows);
        inserted += rows.length;
      });
      done += chunk.length;
      onBatch(kind, done, ids.length);
    }
  }
  return inserted;
}
