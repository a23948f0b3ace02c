import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_EDITIONS } from '../src/config/http-config.js';
import { proseStrings, translateDocument } from '../src/common/openapi/translate-document.js';
import { readCatalogue } from '../src/i18n/translator.js';
import { tecOpenApiDocument } from '../src/tec/tec-openapi.js';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app.js';

const run = promisify(execFile);
const EDITIONS = DEFAULT_EDITIONS.split(',');
const OTHERS = EDITIONS.filter((lang) => lang !== 'en');
const prefix = (lang: string) => (lang === 'en' ? '' : `/${lang}`);
/** The second API, `tec/v1`: its document and index are translated from the same catalogues. */
const TEC = '/wp-json/tec/v1';

describe('language editions', () => {
  let t: TestApp;
  const documents = new Map<string, Record<string, unknown>>();
  const indexes = new Map<string, Record<string, unknown>>();
  const tecDocuments = new Map<string, Record<string, unknown>>();
  const tecIndexes = new Map<string, Record<string, unknown>>();
  /** Every prose string an edition writes in its documents and namespace indexes (v1 and tec/v1). */
  const prose = (lang: string) => [
    ...proseStrings(documents.get(lang)),
    ...proseStrings(indexes.get(lang)),
    ...proseStrings(tecDocuments.get(lang)),
    ...proseStrings(tecIndexes.get(lang)),
  ];

  beforeAll(async () => {
    t = await startTestApp();
    await t.http().post(`${API}/categories`).set('Authorization', basic(ADMIN)).send({ name: 'Outdoor' });
    for (const lang of EDITIONS) {
      documents.set(lang, (await t.http().get(`${prefix(lang)}${API}/doc`)).body);
      indexes.set(lang, (await t.http().get(`${prefix(lang)}${API}`)).body);
      tecDocuments.set(lang, (await t.http().get(`${prefix(lang)}${TEC}/docs`)).body);
      tecIndexes.set(lang, (await t.http().get(`${prefix(lang)}${TEC}`)).body);
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

  it('keeps a catalogue entry for every prose string of the documents and the indexes (v1 and tec/v1), and no stale one', () => {
    const english = new Set(prose('en'));
    const catalogue = Object.keys(JSON.parse(readFileSync(new URL('../src/i18n/en/openapi.json', import.meta.url), 'utf8')));
    expect([...english].filter((text) => !catalogue.includes(text))).toEqual([]);
    expect(catalogue.filter((text) => !english.has(text))).toEqual([]);
  });

  it.each(OTHERS)('%s has no English prose left in /doc, tec/v1/docs or the namespace indexes', (lang) => {
    const english = new Set(prose('en'));
    const leftovers = prose(lang).filter((text) => english.has(text));
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

  it('serves the English tec/v1 document of the default edition as tec-openapi.ts writes it, key for key', () => {
    expect(JSON.stringify(tecDocuments.get('en'))).toBe(JSON.stringify(tecOpenApiDocument(`${PUBLIC_URL}${TEC}`)));
  });

  it.each(['de', 'ja'])('%s writes tec/v1/docs, the tec/v1 index and OPTIONS in its own language', async (lang) => {
    const catalogue = readCatalogue(lang)?.openapi as Record<string, string>;
    const translated = (english: string) => {
      expect(catalogue[english]).toBeDefined();
      expect(catalogue[english]).not.toBe(english);
      return catalogue[english];
    };
    type Doc = Record<string, any>;
    const english = tecDocuments.get('en') as Doc;
    const document = tecDocuments.get(lang) as Doc;
    const search = (doc: Doc) => doc.paths['/events'].get.parameters.find((parameter: Doc) => parameter.name === 'search');
    const texts = (doc: Doc) => ({
      title: doc.info.title,
      summary: doc.paths['/venues/{id}'].patch.summary,
      search: search(doc).description,
      listed: doc.paths['/events'].get.responses['200'].description,
      refused: doc.paths['/events/{id}'].delete.responses['410'].description,
      start: doc.components.schemas.Event_Request_Body.properties.start_date.description,
      tag: doc.tags[0].description,
    });
    const englishTexts = texts(english);
    expect(englishTexts).toEqual({
      title: 'The Events Calendar REST API (tec/v1)',
      summary: 'Patch a Venue',
      search: 'Only events whose title, content or excerpt contain these words.',
      listed: 'One page of events; X-WP-Total and X-WP-TotalPages give the totals.',
      refused: 'Already in the trash.',
      start: 'Start in the time zone of the event, YYYY-MM-DD HH:MM:SS.',
      tag: 'Events.',
    });
    expect(texts(document)).toEqual(Object.fromEntries(Object.entries(englishTexts).map(([key, text]) => [key, translated(text)])));
    // what is no prose stays as it is
    expect(search(document).name).toBe('search');
    expect(document.tags[0].name).toBe('Events');
    expect(document.components.schemas.Event_Request_Body.properties.start_date.pattern).toBe(
      english.components.schemas.Event_Request_Body.properties.start_date.pattern,
    );
    expect(document.servers).toEqual([{ url: `${PUBLIC_URL}/${lang}${TEC}` }]);

    const index = tecIndexes.get(lang) as Doc;
    const listArgs = index.routes['/tec/v1/events'].endpoints[0].args;
    expect(listArgs.search.description).toBe(translated('Only events whose title, content or excerpt contain these words.'));
    expect(listArgs.orderby.enum).toEqual(['date', 'event_date', 'title', 'menu_order', 'modified']);
    const options = await t.http().options(`/${lang}${TEC}/venues`);
    expect(options.status).toBe(200);
    expect(options.headers['content-language']).toBe(lang);
    expect(options.body.endpoints[1].args.title.description).toBe(translated('Title of the record.'));
    expect(options.body.endpoints[1].args.website.description).toBe(translated('Website.'));
    const root = await t.http().get(`/${lang}/wp-json/`);
    expect(root.body.routes['/tec/v1/organizers'].endpoints[0].args.event.description).toBe(
      translated('Only the organizers of this event.'),
    );
  });

  it.each(OTHERS)('%s: tec/v1/docs and the tec/v1 index differ from English only in prose and links', (lang) => {
    const blank = (value: unknown) =>
      JSON.parse(JSON.stringify(translateDocument(value, () => '·')).replaceAll(`${PUBLIC_URL}/${lang}/`, `${PUBLIC_URL}/`));
    expect(blank(tecDocuments.get(lang))).toEqual(blank(tecDocuments.get('en')));
    expect(blank(tecIndexes.get(lang))).toEqual(blank(tecIndexes.get('en')));
    // the same keys in the same order: paths, operations, parameters, schemas and their properties
    const outline = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(outline)
        : value !== null && typeof value === 'object'
          ? Object.entries(value).map(([key, child]) => [key, outline(child)])
          : typeof value;
    expect(outline(tecDocuments.get(lang))).toEqual(outline(tecDocuments.get('en')));
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
