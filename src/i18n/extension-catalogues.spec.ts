import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { extensionCatalogues, OwnsCatalogues } from './extension-catalogues.js';
import { createTranslator } from './i18n.module.js';

describe('catalogues of extension modules', () => {
  let dir: string;
  const write = (lang: string, namespace: string, texts: Record<string, string>) => {
    mkdirSync(join(dir, lang), { recursive: true });
    writeFileSync(join(dir, lang, `${namespace}.json`), JSON.stringify(texts));
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'catalogues-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are found on the modules that declare them', () => {
    @OwnsCatalogues('/somewhere/i18n')
    @Module({})
    class Declaring {}
    @Module({})
    class Plain {}
    expect(extensionCatalogues([Plain, { module: Declaring }])).toEqual(['/somewhere/i18n']);
  });

  it('add their keys to the core texts of each edition', () => {
    write('en', 'errors', { 'rest-thing-not-found': 'There is no thing {{id}}.' });
    write('de', 'errors', { 'rest-thing-not-found': 'Es gibt kein Ding {{id}}.' });
    write('de', 'openapi', { 'Read a thing': 'Ein Ding lesen' });
    const translator = createTranslator(['en', 'de'], [dir]);
    expect(translator.t('de', 'errors:rest-thing-not-found', { id: 3 })).toBe('Es gibt kein Ding 3.');
    expect(translator.t('en', 'errors:rest-thing-not-found', { id: 3 })).toBe('There is no thing 3.');
    expect(translator.prose('de', 'Read a thing')).toBe('Ein Ding lesen');
    expect(translator.t('de', 'errors:rest_no_route')).toBe(createTranslator(['en', 'de']).t('de', 'errors:rest_no_route'));
  });

  it('may not replace a text of the core', () => {
    write('en', 'errors', { rest_no_route: 'Nothing here.' });
    expect(() => createTranslator(['en'], [dir])).toThrow(`${dir}/en/errors.json: "rest_no_route" is already defined`);
  });
});
