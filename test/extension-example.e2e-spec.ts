import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { EventNotesModule } from '../examples/event-notes/event-notes.module.js';
import { DEFAULT_EDITIONS } from '../src/config/http-config.js';
import { DOCUMENT_PATHS } from '../src/docs/openapi-shape.js';
import { proseStrings } from '../src/common/openapi/translate-document.js';
import { readCatalogue } from '../src/i18n/translator.js';
import { ADMIN_AUTH, eventBody, eventClient, expectError } from './support/events.js';
import { API, basic, PUBLIC_URL, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

/**
 * The example extension (examples/event-notes) booted with the real application: it gets storage,
 * credentials, permissions, validation, the error contract, editions, the response cache, the route
 * table, the namespace index and /doc from the core, which it does not change.
 */
const EDITIONS = DEFAULT_EDITIONS.split(',');
const OTHERS = EDITIONS.filter((lang) => lang !== 'en');
const prefix = (lang: string) => (lang === 'en' ? '' : `/${lang}`);
const NOTES_DIR = new URL('../examples/event-notes/i18n', import.meta.url).pathname;
const notesCatalogue = (lang: string) => readCatalogue(lang, NOTES_DIR) ?? {};
const NOTE_PATHS = ['/events/{id}/notes', '/events/{id}/notes/{note_id}'];

describe('an extension module (examples/event-notes)', () => {
  let t: TestApp;
  let eventId: number;
  let author: Credentials;
  let subscriber: Credentials;
  const notes = (id: number | string = eventId, lang = 'en') => `${prefix(lang)}${API}/events/${id}/notes`;

  beforeAll(async () => {
    t = await startTestApp({}, { modules: [EventNotesModule] });
    eventId = (await eventClient(t).make(eventBody({ title: 'Harbour Lantern Walk' }))).id;
    author = await t.user('author');
    subscriber = await t.user('subscriber');
  });
  afterAll(() => t.close());

  it('runs its migration with the core ones, and the migration matches its entity exactly', async () => {
    const dataSource = t.app.get<DataSource>(getDataSourceToken());
    expect(await dataSource.showMigrations()).toBe(false);
    const applied: Array<{ name: string }> = await dataSource.query('SELECT name FROM schema_migrations ORDER BY id');
    expect(applied.at(-1)?.name).toBe('EventNotes1795400000000');
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('creates, reads, lists and deletes a note with Basic credentials', async () => {
    const created = await t.http().post(notes()).set('Authorization', ADMIN_AUTH).send({ body: '  Bring the lanterns.  ' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      event_id: eventId,
      author: '1',
      body: 'Bring the lanterns.',
      date_utc: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expect(created.headers.location).toBe(`${PUBLIC_URL}${API}/events/${eventId}/notes/${created.body.id}`);

    const form = await t.http().post(notes()).set('Authorization', ADMIN_AUTH).type('form').send('body=Second+note');
    expect(form.status).toBe(201);

    const read = await t.http().get(`${notes()}/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const list = await t.http().get(notes());
    expect(list.body.notes.map((note: { body: string }) => note.body)).toEqual(['Bring the lanterns.', 'Second note']);

    const removed = await t.http().delete(`${notes()}/${created.body.id}`).set('Authorization', ADMIN_AUTH);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual(created.body);
    expectError(await t.http().get(`${notes()}/${created.body.id}`), 404, 'rest-note-not-found');
  });

  it('answers 401 without credentials and 403 for a role that may not edit the event', async () => {
    const anonymous = await t.http().post(notes()).send({ body: 'Hello' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: 'rest_forbidden', message: 'You are not allowed to do this.', data: { status: 401 } });
    expectError(await t.http().post(notes()).set('Authorization', basic(subscriber)).send({ body: 'Hello' }), 403, 'rest_forbidden');
    // an author may edit only their own events, so only their own events take their notes
    expectError(await t.http().post(notes()).set('Authorization', basic(author)).send({ body: 'Hello' }), 403, 'rest_forbidden');
    const own = await eventClient(t).make(eventBody({ title: 'Author event' }), basic(author));
    expect((await t.http().post(notes(own.id)).set('Authorization', basic(author)).send({ body: 'Mine' })).status).toBe(201);

    const note = await t.http().post(notes()).set('Authorization', ADMIN_AUTH).send({ body: 'Keep me' });
    expectError(await t.http().delete(`${notes()}/${note.body.id}`), 401, 'rest_forbidden');
    expectError(await t.http().delete(`${notes()}/${note.body.id}`).set('Authorization', basic(subscriber)), 403, 'rest_forbidden');
    expect((await t.http().get(`${notes()}/${note.body.id}`)).status).toBe(200);
  });

  it('answers 400 in the contract shape for missing and invalid input', async () => {
    const missing = await t.http().post(notes()).set('Authorization', ADMIN_AUTH).send({});
    expect(missing.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'These required parameters are missing: body',
      data: { status: 400, params: ['body'] },
    });
    const invalid = await t
      .http()
      .post(notes())
      .set('Authorization', ADMIN_AUTH)
      .send({ body: 'x'.repeat(2001) });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      code: 'rest_invalid_param',
      message: 'These parameters are invalid: body',
      data: { status: 400, params: { body: 'Too long (at most 2000 characters).' }, details: [] },
    });
    expectError(await t.http().post(notes()).set('Authorization', ADMIN_AUTH).send({ body: '   ' }), 400, 'rest_invalid_param', ['body']);
    const json = await t.http().post(notes()).set('Authorization', ADMIN_AUTH).set('Content-Type', 'application/json').send('{"body":');
    expectError(json, 400, 'rest_invalid_json');
  });

  it('answers 404 for an unknown event, an unknown note, and a path that is not a route', async () => {
    const unknownEvent = await t.http().get(notes(999999));
    expect(unknownEvent.body).toEqual({
      code: 'rest-event-not-found',
      message: 'There is no event with ID 999999.',
      data: { status: 404 },
    });
    const unknownNote = await t.http().get(`${notes()}/999999`);
    expect(unknownNote.body).toEqual({
      code: 'rest-note-not-found',
      message: 'There is no note with ID 999999 on this event.',
      data: { status: 404 },
    });
    expectError(await t.http().get(notes('abc')), 404, 'rest_no_route');
    expectError(await t.http().put(notes()), 404, 'rest_no_route');
  });

  it('speaks every edition: German messages from its own catalogue and from the core', async () => {
    const de = {
      errors: readCatalogue('de')?.errors as Record<string, string>,
      params: readCatalogue('de')?.params as Record<string, string>,
    };
    const unknownNote = await t.http().get(`${notes(eventId, 'de')}/999999`);
    expect(unknownNote.body).toEqual({
      code: 'rest-note-not-found',
      message: 'Diese Veranstaltung hat keine Notiz mit der ID 999999.',
      data: { status: 404 },
    });
    expect(unknownNote.headers['content-language']).toBe('de');
    const invalid = await t.http().post(notes(eventId, 'de')).set('Authorization', ADMIN_AUTH).send({ body: '' });
    expect(invalid.body.message).toBe(de.errors.rest_invalid_param.replace('{{params}}', 'body'));
    expect(invalid.body.data.params.body).toBe(de.params.not_empty);
    const created = await t.http().post(notes(eventId, 'de')).set('Authorization', ADMIN_AUTH).send({ body: 'Laternen mitbringen.' });
    expect(created.headers.location).toBe(`${PUBLIC_URL}/de${API}/events/${eventId}/notes/${created.body.id}`);
    for (const lang of OTHERS) {
      const res = await t.http().get(`${notes(eventId, lang)}/999999`);
      expect({ lang, message: res.body.message }).toEqual({
        lang,
        message: (notesCatalogue(lang).errors as Record<string, string>)['rest-note-not-found'].replace('{{id}}', '999999'),
      });
    }
  });

  it('gets query-style addressing, OPTIONS and Allow from the core route table', async () => {
    const query = await t.http().get(`/?rest_route=/tribe/events/v1/events/${eventId}/notes`);
    expect(query.status).toBe(200);
    expect(Array.isArray(query.body.notes)).toBe(true);
    const options = await t.http().options(notes()).set('Authorization', ADMIN_AUTH);
    expect(options.status).toBe(200);
    expect(options.headers.allow).toBe('GET, POST');
    expect(options.body.methods).toEqual(['GET', 'POST']);
    const note = await t.http().post(notes()).set('Authorization', ADMIN_AUTH).send({ body: 'Allow' });
    expect((await t.http().get(`${notes()}/${note.body.id}`).set('Authorization', basic(subscriber))).headers.allow).toBe('GET');
    expect((await t.http().get(`${notes()}/${note.body.id}`).set('Authorization', ADMIN_AUTH)).headers.allow).toBe('GET, DELETE');
  });

  it('keeps cached anonymous reads fresh: a note written is visible on the next read', async () => {
    const own = await eventClient(t).make(eventBody({ title: 'Cached event' }));
    const first = await t.http().get(notes(own.id));
    expect(first.headers['x-cache']).toBe('MISS');
    expect((await t.http().get(notes(own.id))).headers['x-cache']).toBe('HIT');
    await t.http().post(notes(own.id)).set('Authorization', ADMIN_AUTH).send({ body: 'Fresh' });
    const after = await t.http().get(notes(own.id));
    expect(after.body.notes.map((note: { body: string }) => note.body)).toEqual(['Fresh']);
  });

  describe('documentation', () => {
    const documents = new Map<string, Record<string, any>>();
    const indexes = new Map<string, Record<string, any>>();

    beforeAll(async () => {
      for (const lang of EDITIONS) {
        documents.set(lang, (await t.http().get(`${prefix(lang)}${API}/doc`)).body);
        indexes.set(lang, (await t.http().get(`${prefix(lang)}${API}`)).body);
      }
    });

    it('lists its routes in the namespace index after the contract routes', () => {
      const routes = Object.keys(indexes.get('en')?.routes);
      const ns = '/tribe/events/v1';
      expect(routes.slice(-2)).toEqual([`${ns}/events/(?P<id>\\d+)/notes`, `${ns}/events/(?P<id>\\d+)/notes/(?P<note_id>\\d+)`]);
      expect(routes.slice(0, 3)).toEqual([ns, `${ns}/doc`, `${ns}/events`]);
      const collection = indexes.get('en')?.routes[`${ns}/events/(?P<id>\\d+)/notes`];
      expect(collection.methods).toEqual(['GET', 'POST']);
      expect(collection.endpoints[1]).toEqual({
        methods: ['POST'],
        args: {
          id: { type: 'integer', description: 'ID of the event.', required: true },
          body: { type: 'string', description: 'Text of the note (plain text, at most 2000 characters).', required: true },
        },
      });
      expect(collection._links).toBeUndefined();
    });

    it('describes its routes in /doc after the 14 paths of the contract', () => {
      const document = documents.get('en') as Record<string, any>;
      // the contract's 14 paths first, the core's own additions (e.g. the .ics routes) next, the extension's last
      const paths = Object.keys(document.paths);
      expect(paths.slice(0, DOCUMENT_PATHS.length)).toEqual([...DOCUMENT_PATHS]);
      expect(paths.slice(-NOTE_PATHS.length)).toEqual([...NOTE_PATHS]);
      expect(paths.filter((path) => path.includes('/notes'))).toEqual([...NOTE_PATHS]);
      expect(Object.keys(document.paths['/events/{id}/notes'])).toEqual(['get', 'post']);
      expect(Object.keys(document.paths['/events/{id}/notes/{note_id}'])).toEqual(['get', 'delete']);
      expect(document.paths['/events/{id}/notes'].post.requestBody.required).toBe(true);
      expect(document.paths['/events/{id}/notes/{note_id}'].delete.responses['404'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/Error',
      });
    });

    it('has a catalogue entry for each of its prose strings that the core does not translate, and no stale one', () => {
      const core = readCatalogue('en')?.openapi as Record<string, string>;
      const own = (document: Record<string, any> | undefined) => ({
        paths: Object.fromEntries(NOTE_PATHS.map((path) => [path, document?.paths[path]])),
      });
      const english = new Set(proseStrings(own(documents.get('en'))));
      const catalogue = Object.keys(notesCatalogue('en').openapi ?? {});
      expect([...english].filter((text) => !(text in core) && !catalogue.includes(text))).toEqual([]);
      expect(catalogue.filter((text) => !english.has(text))).toEqual([]);
      for (const lang of OTHERS) {
        const leftovers = proseStrings(own(documents.get(lang))).filter((text) => english.has(text));
        expect({ lang, leftovers }).toEqual({ lang, leftovers: [] });
      }
    });

    it.each(OTHERS)('%s: its catalogue has every English key, the same placeholders and no English leftover', (lang) => {
      const english = notesCatalogue('en');
      const translated = notesCatalogue(lang);
      expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
      for (const [namespace, texts] of Object.entries(english)) {
        const own = translated[namespace] as Record<string, string>;
        expect(Object.keys(own).sort()).toEqual(Object.keys(texts).sort());
        for (const [key, text] of Object.entries(texts as Record<string, string>)) {
          const placeholders = (value: string) => (value.match(/\{\{\w+\}\}/g) ?? []).sort();
          expect({ key, placeholders: placeholders(own[key]), same: own[key] === text }).toEqual({
            key,
            placeholders: placeholders(text),
            same: false,
          });
        }
      }
    });

    it('passes the spectral:oas ruleset with no errors and no warnings', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
      try {
        const file = join(dir, 'en.json');
        writeFileSync(file, JSON.stringify(documents.get('en')));
        const result = await promisify(execFile)(
          'node_modules/.bin/spectral',
          ['lint', file, '--ruleset', '.spectral.yaml', '--fail-severity', 'warn', '--format', 'json', '--quiet'],
          { maxBuffer: 64 * 1024 * 1024 },
        ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
        const findings = JSON.parse(result.stdout || '[]') as Array<{ severity: number; code: string; message: string; path: string[] }>;
        const errors = findings.filter((finding) => finding.severity <= 1).map((finding) => `${finding.code} ${finding.path.join('.')}`);
        expect(errors).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
