import { TranslatedTexts, type TranslatedRow } from './content-translations.js';
import { translationsInput } from './translations-input.js';
import { Invalid } from '../common/validation/param.js';

type Stored = [language: string, field: string, value: string, kind?: string, id?: number];

/** The rows the service's statement answers for stored translations: one per record, grouped. */
function grouped(chain: string[], original: string, stored: Stored[]): TranslatedRow[] {
  const columns = TranslatedTexts.columnsOf(chain, original);
  const rows = new Map<string, TranslatedRow>();
  for (const [language, field, value, kind = 'event', id = 1] of stored) {
    const key = `${kind}:${id}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { kind, record_id: id, languages: null }));
    const languages = row.languages ? row.languages.split(',') : [];
    if (!languages.includes(language)) row.languages = [...languages, language].join(',');
    const column = columns.find((candidate) => candidate.language === language && candidate.field === field);
    if (column) row[column.column] = value;
  }
  return [...rows.values()];
}

describe('TranslatedTexts', () => {
  const chain = ['pt-br', 'es', 'en'];
  const texts = new TranslatedTexts(
    chain,
    'en',
    grouped(chain, 'en', [
      ['es', 'title', 'Paseo'],
      ['pt-br', 'excerpt', 'Passeio'],
      ['de', 'title', 'Spaziergang'],
      ['es', 'excerpt', 'Corto'],
      ['pt-br', 'name', 'Salão', 'venue', 1],
    ]),
  );

  it('answers each field from the first language of the chain that has it, else the original', () => {
    const event = { id: 1, title: 'Walk', description: 'Evening.', excerpt: 'Short.' };
    expect(texts.textOf('event', 1, event)).toEqual({ id: 1, title: 'Paseo', description: 'Evening.', excerpt: 'Passeio' });
    expect(event.title).toBe('Walk');
    expect(texts.keyOf('event', 1)).toEqual({
      original: 'en',
      answered: 'es',
      fields: { title: 'es', description: 'en', excerpt: 'pt-br' },
      translations: ['de', 'es', 'pt-br'],
    });
  });

  it('keeps records of other kinds and ids apart, and returns an untranslated record itself', () => {
    const other = { id: 2, title: 'Other', description: '', excerpt: '' };
    expect(texts.textOf('event', 2, other)).toBe(other);
    expect(texts.keyOf('organizer', 1)).toEqual({
      original: 'en',
      answered: 'en',
      fields: { name: 'en', description: 'en' },
      translations: [],
    });
    expect(texts.keyOf('venue', 1).answered).toBe('pt-br');
  });

  it('gives records holding the same languages equal keys, sorted', () => {
    const shared = new TranslatedTexts(
      chain,
      'en',
      grouped(chain, 'en', [
        ['es', 'title', 'Uno', 'event', 1],
        ['de', 'title', 'Eins', 'event', 1],
        ['de', 'title', 'Zwei', 'event', 2],
        ['es', 'title', 'Dos', 'event', 2],
      ]),
    );
    expect(shared.keyOf('event', 1)).toEqual(shared.keyOf('event', 2));
    expect(shared.keyOf('event', 2).translations).toEqual(['de', 'es']);
    expect(shared.keyOf('event', 3)).toEqual({
      original: 'en',
      answered: 'en',
      fields: { title: 'en', description: 'en', excerpt: 'en' },
      translations: [],
    });
  });
});

describe('translationsInput', () => {
  const parse = translationsInput('venue');

  it('maps write names to stored fields, trims, keeps null for removals', () => {
    expect(parse({ de: { venue: ' Halle ', description: null }, fr: null })).toEqual({
      de: { name: 'Halle', description: null },
      fr: null,
    });
  });

  it.each([[null], ['de'], [['de']], [{ DE: {} }], [{ de: { title: 'x' } }], [{ de: { venue: 3 } }], [{ de: [] }]])('refuses %j', (raw) => {
    expect(parse(raw)).toBeInstanceOf(Invalid);
  });

  it('refuses texts longer than the original field allows', () => {
    expect((parse({ de: { venue: 'x'.repeat(1001) } }) as Invalid).problem.key).toBe('too_long');
  });
});
