import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_EDITIONS } from '../src/config/http-config.js';
import { proseStrings, translateDocument } from '../src/docs/translate-document.js';
import { readCatalogue } from '../src/i18n/translator.js';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app.js';

const run = promisify(execFile);
const EDITIONS = DEFAULT_EDITIONS.split(',');
const OTHERS = EDITIONS.filter((lang) => lang !== 'en');
const prefix = (lang: string) => (lang === 'en' ? '' : `/${lang}`);

describe('language editions', () => {
  let t: TestApp;
  const documents = new Map<string, Record<string, unknown>>();
  const indexes = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    t = await startTestApp();
    await t.http().post(`${API}/categories`).set('Authorization', basic(ADMIN)).send({ name: 'Outdoor' });
    for (const lang of EDITIONS) {
      documents.set(lang, (await t.http().get(`${prefix(lang)}${API}/doc`)).body);
      indexes.set(lang, (await t.http().get(`${prefix(lang)}${API}`)).body);
    }
  });
  afterAll(() => t.close());

  it.each(EDITIONS)('%s serves every route under its own base, in its language', async (lang) => {
    for (const path of ['', '/doc', '/events', '/venues', '/organizers', '/categories?hide_empty=0', '/tags', '/categories/1']) {
      const res = await t.http().get(`${prefix(lang)}${API}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.headers['content-language']).toBe(lang);
    }
    const list = await t.http().get(`${prefix(lang)}${API}/categories?hide_empty=0`);
    expect(list.body.rest_url.startsWith(`${PUBLIC_URL}${prefix(lang)}${API}/categories/`)).toBe(true);
    expect(list.body.categories[0].urls.self).toBe(`${PUBLIC_URL}${prefix(lang)}${API}/categories/1`);
    expect(list.body.categories[0].url).toBe(`${PUBLIC_URL}/events/category/outdoor/`);
    expect(documents.get(lang)?.servers).toEqual([{ url: `${PUBLIC_URL}${prefix(lang)}${API}` }]);
  });

  it('answers 404 for the default edition under its own code and for unknown codes', async () => {
    for (const path of [`/en${API}/events`, `/xx${API}/events`, `/DE${API}/events`]) {
      const res = await t.http().get(path);
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 404, code: 'rest_no_route' });
    }
  });

  it.each(OTHERS)('%s writes error messages in its own language', async (lang) => {
    const errors = readCatalogue(lang)?.errors as Record<string, string>;
    const params = readCatalogue(lang)?.params as Record<string, string>;
    const noRoute = await t.http().get(`${prefix(lang)}${API}/nope`);
    expect(noRoute.body).toEqual({ code: 'rest_no_route', message: errors.rest_no_route, data: { status: 404 } });
    const invalid = await t.http().get(`${prefix(lang)}${API}/events?page=0`);
    expect(invalid.body.code).toBe('rest_invalid_param');
    expect(invalid.body.data.params.page).toBe(params.positive_integer);
    expect(invalid.body.message).not.toBe('These parameters are invalid: page');
  });

  it('keeps a catalogue entry for every prose string of the document and the index, and no stale one', () => {
    const english = new Set([...proseStrings(documents.get('en')), ...proseStrings(indexes.get('en'))]);
    const catalogue = Object.keys(JSON.parse(readFileSync(new URL('../src/i18n/en/openapi.json', import.meta.url), 'utf8')));
    expect([...english].filter((text) => !catalogue.includes(text))).toEqual([]);
    expect(catalogue.filter((text) => !english.has(text))).toEqual([]);
  });

  it.each(OTHERS)('%s has no English prose left in /doc or the namespace index', (lang) => {
    const english = new Set([...proseStrings(documents.get('en')), ...proseStrings(indexes.get('en'))]);
    const leftovers = [...proseStrings(documents.get(lang)), ...proseStrings(indexes.get(lang))].filter((text) => english.has(text));
    expect(leftovers).toEqual([]);
  });

  it.each(OTHERS)('%s differs from English only in prose and server URL', (lang) => {
    const blank = (document: unknown) => {
      const copy = translateDocument(document, () => '·') as Record<string, unknown>;
      delete copy.servers;
      return copy;
    };
    expect(blank(documents.get(lang))).toEqual(blank(documents.get('en')));
    const blankIndex = (index: unknown) =>
      JSON.parse(JSON.stringify(translateDocument(index, () => '·')).replaceAll(`${PUBLIC_URL}/${lang}/`, `${PUBLIC_URL}/`));
    expect(blankIndex(indexes.get(lang))).toEqual(blankIndex(indexes.get('en')));
  });

  it('passes the spectral:oas ruleset with no errors and no warnings in every edition', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      // one spectral process for all editions: its start-up is most of the time of a run
      const files = new Map(EDITIONS.map((lang) => [lang, join(dir, `${lang}.json`)]));
      for (const [lang, file] of files) writeFileSync(file, JSON.stringify(documents.get(lang)));
      const result = await run(
        'node_modules/.bin/spectral',
        ['lint', ...files.values(), '--ruleset', '.spectral.yaml', '--fail-severity', 'warn', '--format', 'json', '--quiet'],
        {
          maxBuffer: 64 * 1024 * 1024,
        },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const findings = JSON.parse(result.stdout || '[]') as Array<{
        severity: number;
        code: string;
        message: string;
        path: string[];
        source?: string;
      }>;
      for (const [lang, file] of files) {
        const errors = findings
          .filter((finding) => finding.severity <= 1 && finding.source === file)
          .map((finding) => `${finding.code} ${finding.path.join('.')}: ${finding.message}`);
        expect({ lang, errors }).toEqual({ lang, errors: [] });
      }
      expect(findings.filter((finding) => finding.severity <= 1 && ![...files.values()].includes(finding.source ?? ''))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
