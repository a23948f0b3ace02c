import { readdirSync } from 'node:fs';
import { DEFAULT_EDITIONS } from '../config/http-config.js';
import { CATALOGUE_DIR, readCatalogue, Translator } from './translator.js';

const languages = DEFAULT_EDITIONS.split(',');

function leaves(value: unknown, prefix = ''): Map<string, string> {
  const result = new Map<string, string>();
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof child === 'string') result.set(path, child);
    else for (const [k, v] of leaves(child, path)) result.set(k, v);
  }
  return result;
}

describe('translation catalogues', () => {
  const english = leaves(readCatalogue('en'));

  it('has one folder per default edition and no other', () => {
    expect(
      readdirSync(CATALOGUE_DIR, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
    ).toEqual([...languages].sort());
  });

  it.each(languages.filter((lang) => lang !== 'en'))('%s has every English key, the same placeholders, and no English leftover', (lang) => {
    const translated = leaves(readCatalogue(lang));
    expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of english) {
      const placeholders = (value: string) => (value.match(/\{\{\w+\}\}/g) ?? []).sort();
      expect({ key, placeholders: placeholders(translated.get(key) as string) }).toEqual({ key, placeholders: placeholders(text) });
      expect({ key, same: translated.get(key) === text }).toEqual({ key, same: false });
    }
  });

  it('translates with arguments and falls back to the default edition, reporting the gap', () => {
    const missing: string[] = [];
    const translator = Translator.create(
      ['en', 'de'],
      { en: { errors: { a: 'Hello {{name}}', b: 'Only English' } }, de: { errors: { a: 'Hallo {{name}}' } } },
      (lang, key) => missing.push(`${lang}:${key}`),
    );
    expect(translator.t('de', 'errors:a', { name: '<b>' })).toBe('Hallo <b>');
    expect(translator.t('de', 'errors:b')).toBe('Only English');
    expect(missing).toEqual(['de:errors:b']);
  });

  it('remembers texts per language, key and arguments, and still reports every gap', () => {
    const missing: string[] = [];
    const translator = Translator.create(
      ['en', 'fr'],
      { en: { errors: { a: '{{count}} left for {{name}}', b: 'Only English' } }, fr: { errors: { a: '{{count}} pour {{name}}' } } },
      (lang, key) => missing.push(`${lang}:${key}`),
    );
    const texts = () => [
      translator.t('en', 'errors:a', { count: 1, name: 'Ann' }),
      translator.t('en', 'errors:a', { count: 2, name: 'Ann' }),
      translator.t('en', 'errors:a', { name: 'Ann', count: 2 }),
      translator.t('fr', 'errors:a', { count: 1, name: 'Ann' }),
      translator.t('fr', 'errors:b'),
    ];
    const first = texts();
    expect(first).toEqual(['1 left for Ann', '2 left for Ann', '2 left for Ann', '1 pour Ann', 'Only English']);
    expect(texts()).toEqual(first);
    expect(missing).toEqual(['fr:errors:b', 'fr:errors:b']);
    // more distinct arguments than it keeps: it starts over and goes on answering right
    for (let index = 0; index < 2500; index++)
      expect(translator.t('en', 'errors:a', { count: index, name: 'x' })).toBe(`${index} left for x`);
    expect(translator.t('en', 'errors:a', { count: 7, name: 'y' })).toBe('7 left for y');
    // arguments that could run together in a key, and a number beside its string, stay apart
    expect(translator.t('en', 'errors:a', { count: '1', name: 'a","name' })).toBe('1 left for a","name');
    expect(translator.t('en', 'errors:a', { count: 1, name: 'a","name' })).toBe('1 left for a","name');
    expect(translator.t('en', 'errors:a', { count: '1\u0000name', name: 'b' })).toBe('1\u0000name left for b');
    // a long argument (a client's) is answered right too (such texts are not kept)
    const long = 'x'.repeat(5000);
    expect(translator.t('en', 'errors:a', { count: 1, name: long })).toBe(`1 left for ${long}`);
    // an argument that is no plain value is still translated, just not remembered
    expect(translator.t('en', 'errors:a', { count: 3, name: { toString: () => 'Obj' } })).toBe('3 left for Obj');
  });
});
