import ICAL from 'ical.js';
import { DataSource } from 'typeorm';
import { DataVersionService } from '../src/cache/data-version.service.js';
import { ContentTranslationsService } from '../src/translations/content-translations.service.js';
import { ADMIN_AUTH } from './support/events.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';
import { API, startTestApp, type TestApp } from './support/test-app.js';

/** Content in every edition (issue 48): translations read through editions' paths, written three ways. */
describe('content in every edition', () => {
  let t: TestApp;
  let rx: Receiver;
  let records: { event: number; venue: number; organizer: number; category: number; tag: number };

  const post = (path: string, body: Record<string, unknown>) => t.http().post(path).set('Authorization', ADMIN_AUTH).send(body);
  const get = (path: string) => t.http().get(path);

  beforeAll(async () => {
    t = await startTestApp({ CONTENT_FALLBACKS: 'pt-br:es', OUTBOUND_ALLOW_PRIVATE: 'true', CHANGES_POLL_INTERVAL_MS: '100' });
    rx = await startReceiver();
    const category = (await post(`${API}/categories`, { name: 'Outdoor', description: 'Outside.' })).body;
    const tag = (await post(`${API}/tags`, { name: 'Lanterns' })).body;
    const venue = (await post(`${API}/venues`, { venue: 'Harbour Pavilion', description: '<p>On the pier.</p>' })).body;
    const organizer = (await post(`${API}/organizers`, { organizer: 'Harbour Friends' })).body;
    const event = (
      await post(`${API}/events`, {
        title: 'Lantern Walk',
        description: '<p>An evening walk.</p>',
        excerpt: 'Walk.',
        start_date: '2027-04-02 18:00:00',
        end_date: '2027-04-02 20:00:00',
        venue: venue.id,
        organizer: [organizer.id],
        categories: [category.id],
        tags: [tag.id],
      })
    ).body;
    records = { event: event.id, venue: venue.id, organizer: organizer.id, category: category.id, tag: tag.id };
  });
  afterAll(async () => {
    await t.close();
    await rx.close();
  });

  it('answers the default path byte for byte as before translations exist', async () => {
    const paths = [
      `${API}/events/${records.event}`,
      `${API}/events`,
      `${API}/venues/${records.venue}`,
      `${API}/venues`,
      `${API}/organizers/${records.organizer}`,
      `${API}/categories/${records.category}`,
      `${API}/tags`,
    ];
    const before = await Promise.all(paths.map((path) => get(path)));
    // translations stored beside the records, the records themselves untouched
    const translations = t.app.get(ContentTranslationsService);
    await t.app.get(DataSource).transaction(async (manager) => {
      await translations.write(manager, 'event', records.event, { de: { title: 'Laternenweg', description: '<p>Abends.</p>' } });
      await translations.write(manager, 'venue', records.venue, { de: { name: 'Hafenpavillon' } });
      await translations.write(manager, 'organizer', records.organizer, { fr: { name: 'Amis du port' } });
      await translations.write(manager, 'category', records.category, { de: { name: 'Draußen' } });
      await translations.write(manager, 'tag', records.tag, { de: { name: 'Laternen' } });
    });
    await t.app.get(DataVersionService).bump();
    const after = await Promise.all(paths.map((path) => get(path)));
    for (const [index, path] of paths.entries()) {
      expect({ path, text: after[index].text, etag: after[index].headers.etag }).toEqual({
        path,
        text: before[index].text,
        etag: before[index].headers.etag,
      });
      expect(after[index].text).not.toContain('"language"');
    }
    // the German edition answers the translations
    const de = await get(`/de${API}/events/${records.event}`);
    expect(de.body.title).toBe('Laternenweg');
    expect(de.headers['content-language']).toBe('de');
    expect(de.headers.etag).not.toBe(after[0].headers.etag);
  });

  it('answers each field in the edition, else along its fallback chain, with a language key', async () => {
    await post(`${API}/events/${records.event}`, { translations: { es: { title: 'Paseo de faroles', excerpt: 'Paseo.' } } }).expect(200);
    const ptBr = (await get(`/pt-br${API}/events/${records.event}`)).body;
    expect(ptBr.title).toBe('Paseo de faroles');
    expect(ptBr.excerpt).toBe('<p>Paseo.</p>');
    expect(ptBr.description).toBe('<p>An evening walk.</p>');
    expect(ptBr.language).toEqual({
      original: 'en',
      answered: 'es',
      fields: { title: 'es', description: 'en', excerpt: 'es' },
      translations: ['de', 'es'],
    });
    const de = (await get(`/de${API}/events/${records.event}`)).body;
    expect(de.description).toBe('<p>Abends.</p>');
    expect(de.excerpt).toBe('<p>Walk.</p>');
    expect(de.venue.venue).toBe('Hafenpavillon');
    expect(de.venue.language.answered).toBe('de');
    expect(de.organizer[0].organizer).toBe('Harbour Friends');
    expect(de.organizer[0].language).toMatchObject({ answered: 'en', translations: ['fr'] });
    expect(de.categories[0]).toMatchObject({ name: 'Draußen', description: 'Outside.' });
    expect(de.tags[0].name).toBe('Laternen');
    expect(de.json_ld.name).toBe('Laternenweg');
    // by slug, lists and the records' own routes
    expect((await get(`/de${API}/events/by-slug/lantern-walk`)).body.title).toBe('Laternenweg');
    expect((await get(`/de${API}/venues/by-slug/harbour-pavilion`)).body.venue).toBe('Hafenpavillon');
    const list = (await get(`/de${API}/events`)).body;
    expect(list.events[0].title).toBe('Laternenweg');
    expect((await get(`/de${API}/venues`)).body.venues[0].venue).toBe('Hafenpavillon');
    expect((await get(`/fr${API}/organizers/${records.organizer}`)).body.organizer).toBe('Amis du port');
    expect((await get(`/de${API}/categories`)).body.categories[0].name).toBe('Draußen');
    expect((await get(`/de${API}/tags/${records.tag}`)).body.language.fields).toEqual({ name: 'de', description: 'en' });
    // schema.org and iCalendar say the language of the text
    expect(de.json_ld.inLanguage).toBe('de');
    expect((await get(`${API}/events/${records.event}`)).body.json_ld.inLanguage).toBeUndefined();
    for (const path of [`/pt-br${API}/events/${records.event}.ics`, `/pt-br${API}/events.ics`]) {
      const ics = await get(path);
      const vevent = new ICAL.Component(ICAL.parse(ics.text)).getFirstSubcomponent('vevent')!;
      expect(vevent.getFirstPropertyValue('summary')).toBe('Paseo de faroles');
      expect(vevent.getFirstProperty('summary')!.getParameter('language')).toBe('es');
      expect(vevent.getFirstProperty('description')!.getParameter('language')).toBe('en');
    }
    const plainIcs = (await get(`${API}/events/${records.event}.ics`)).text;
    expect(plainIcs).toContain('SUMMARY:Lantern Walk');
    expect(plainIcs).not.toContain('LANGUAGE=');
    // an edition without translations answers the original, and says so
    const sv = (await get(`/sv${API}/events/${records.event}`)).body;
    expect(sv.title).toBe('Lantern Walk');
    expect(sv.language.answered).toBe('en');
  });

  it("writes through an edition's path to that edition's translation, leaving the original alone", async () => {
    const res = await post(`/fr${API}/events/${records.event}`, { title: '<b>Promenade</b> aux lanternes', excerpt: 'Balade.' }).expect(
      200,
    );
    expect(res.body.title).toBe('Promenade aux lanternes');
    expect(res.body.language.fields).toMatchObject({ title: 'fr', excerpt: 'fr' });
    expect((await get(`${API}/events/${records.event}`)).body.title).toBe('Lantern Walk');
    await post(`/fr${API}/venues/${records.venue}`, { venue: 'Pavillon du port' }).expect(200);
    expect((await get(`${API}/venues/${records.venue}`)).body.venue).toBe('Harbour Pavilion');
    expect((await get(`/fr${API}/venues/${records.venue}`)).body.venue).toBe('Pavillon du port');
    await post(`/fr${API}/categories/${records.category}`, { name: 'Plein air' }).expect(200);
    expect((await get(`${API}/categories/${records.category}`)).body.name).toBe('Outdoor');
    expect((await get(`/fr${API}/events/${records.event}`)).body.categories[0].name).toBe('Plein air');
    // an occurrence of a series: its own translation, the series' originals alone
    const series = (
      await post(`${API}/events`, {
        title: 'Weekly Walk',
        start_date: '2027-05-04 18:00:00',
        end_date: '2027-05-04 19:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      })
    ).body;
    await post(`/de${API}/events/${series.id}`, { title: 'Wöchentlicher Spaziergang' }).expect(200);
    expect((await get(`/de${API}/events/${series.id}`)).body.title).toBe('Wöchentlicher Spaziergang');
    const originals = (await get(`${API}/events?start_date=2027-05-01&end_date=2027-05-31`)).body.events;
    expect(originals.map((event: { title: string }) => event.title)).toEqual(['Weekly Walk', 'Weekly Walk', 'Weekly Walk']);
    // the same validation as the original fields
    const empty = await post(`/fr${API}/events/${records.event}`, { title: '' });
    expect(empty.status).toBe(400);
  });

  it("searches the text an edition's path answers, along its chain", async () => {
    const titles = async (path: string) => ((await get(path)).body.events ?? []).map((event: { title: string }) => event.title);
    expect(await titles(`/de${API}/events?search=laternenweg`)).toEqual(['Laternenweg']);
    // pt-br answers the Spanish title: the Spanish word is found, the English one no more
    expect(await titles(`/pt-br${API}/events?search=faroles`)).toEqual(['Paseo de faroles']);
    expect(await titles(`/pt-br${API}/events?search=lantern`)).toEqual([]);
    expect(await titles(`${API}/events?search=faroles`)).toEqual([]);
    expect(await titles(`${API}/events?search=lantern`)).toEqual(['Lantern Walk']);
    expect((await get(`/de${API}/venues?search=hafenpavillon`)).body.venues.map((venue: { venue: string }) => venue.venue)).toEqual([
      'Hafenpavillon',
    ]);
    expect((await get(`${API}/venues?search=hafenpavillon`)).status).toBe(200);
    expect((await get(`/de${API}/categories?search=drau`)).body.categories.map((term: { name: string }) => term.name)).toEqual(['Draußen']);
  });

  it('lists the records that lack a translation of their title or name in an edition', async () => {
    const ids = async (path: string, key: string) => ((await get(path)).body[key] as Array<{ id: number }>).map((record) => record.id);
    const all = await ids(`${API}/events?per_page=50&start_date=2027-01-01`, 'events');
    const missingDe = await ids(`${API}/events?per_page=50&start_date=2027-01-01&missing_translation=de`, 'events');
    expect(missingDe).not.toContain(records.event);
    expect(missingDe.length).toBe(all.length - 2); // the walk and the series' main event have German titles
    expect(await ids(`/de${API}/events?per_page=50&start_date=2027-01-01&missing_translation=sv`, 'events')).toEqual(all);
    expect(await ids(`${API}/venues?missing_translation=fr`, 'venues')).toEqual([]);
    expect(await ids(`${API}/venues?missing_translation=ja`, 'venues')).toEqual([records.venue]);
    expect(await ids(`${API}/categories?missing_translation=de`, 'categories')).toEqual([]);
    expect(await ids(`${API}/tags?missing_translation=fr`, 'tags')).toEqual([records.tag]);
    const next = (await get(`${API}/events?per_page=1&start_date=2027-01-01&missing_translation=de`)).body.next_rest_url as string;
    expect(next).toContain('missing_translation=de');
    for (const value of ['en', 'xx']) {
      const res = await get(`${API}/events?missing_translation=${value}`);
      expect({ status: res.status, params: Object.keys(res.body.data.params) }).toEqual({ status: 400, params: ['missing_translation'] });
    }
  });

  it('sets, removes and refuses translations given as an object', async () => {
    const feed = async (since: string) => (await t.http().get(`${API}/changes?since=${since}`).set('Authorization', ADMIN_AUTH)).body;
    const cursor = (await feed('now')).next_cursor as string;
    await post(`${API}/tags/${records.tag}`, { translations: { it: { name: 'Lanterne' }, de: null } }).expect(200);
    expect((await get(`/de${API}/tags/${records.tag}`)).body.name).toBe('Lanterns');
    expect((await get(`/it${API}/tags/${records.tag}`)).body.name).toBe('Lanterne');
    await post(`${API}/events/${records.event}`, { translations: { es: { excerpt: null } } }).expect(200);
    expect((await get(`/es${API}/events/${records.event}`)).body).toMatchObject({ title: 'Paseo de faroles', excerpt: '<p>Walk.</p>' });
    const created = await post(`${API}/organizers`, { organizer: 'Lamp Club', translations: { ja: { organizer: 'ランプクラブ' } } }).expect(
      201,
    );
    expect((await get(`/ja${API}/organizers/${created.body.id}`)).body.organizer).toBe('ランプクラブ');
    for (const translations of [{ en: { title: 'x' } }, { xx: { title: 'x' } }, { de: { slug: 'x' } }, { de: 'x' }, ['de']]) {
      const res = await post(`${API}/events/${records.event}`, { translations });
      expect({ translations, status: res.status, params: Object.keys(res.body.data?.params ?? {}) }).toEqual({
        translations,
        status: 400,
        params: ['translations'],
      });
    }
    // a write of translations is an update of the record in the change feed
    const changes = (await feed(encodeURIComponent(cursor))).changes as Array<Record<string, unknown>>;
    expect(changes[0]).toMatchObject({ type: 'tag', id: records.tag, action: 'updated', languages: ['de', 'it'] });
    expect(changes.find((change) => change.type === 'organizer')).toMatchObject({ action: 'created', languages: ['ja'] });
    // webhooks name the editions too; a change without translations names none
    await post(`${API}/webhooks`, { url: rx.url('/hook'), events: ['tag.*'] }).expect(201);
    await post(`${API}/webhooks`, { url: rx.url('/italian'), events: ['tag.*'], edition: 'it' }).expect(201);
    await post(`/ko${API}/tags/${records.tag}`, { description: '랜턴' }).expect(200);
    await post(`${API}/tags/${records.tag}`, { slug: 'lanterns-2' }).expect(200);
    await rx.waitFor(() => rx.received.length >= 4);
    const hook = rx.received.filter((entry) => entry.path === '/hook');
    expect(hook.map((entry) => (entry.json as { languages?: string[] }).languages)).toEqual([['ko'], undefined]);
    // each subscription gets the record as its edition's path answers it
    expect(hook[0].json.data).toMatchObject({ name: 'Lanterns', description: '' });
    expect(hook[0].json.data.language).toBeUndefined();
    const italian = rx.received.filter((entry) => entry.path === '/italian');
    expect(italian[0].json.data).toMatchObject({ name: 'Lanterne', language: { answered: 'it', translations: ['it', 'ko'] } });
    expect(italian[0].json.data.urls.self).toContain(`/it${API}/tags/`);
    expect((await get(`${API}/tags/${records.tag}`)).body.description).toBe('');
  });
  it('caches answers per edition and moves them on with a translation write', async () => {
    const path = (prefix: string) => `${prefix}${API}/organizers/${records.organizer}`;
    await get(path('/fr'));
    const fr = await get(path('/fr'));
    expect(fr.headers['x-cache']).toBe('HIT');
    expect(fr.body.organizer).toBe('Amis du port');
    const de = await get(path('/de'));
    expect(de.body.organizer).toBe('Harbour Friends');
    expect(de.headers.etag).not.toBe(fr.headers.etag);
    expect((await get(path('/fr')).set('If-None-Match', fr.headers.etag)).status).toBe(304);
    await post(`/fr${API}/organizers/${records.organizer}`, { organizer: 'Les amis du port' }).expect(200);
    const after = await get(path('/fr'));
    expect(after.headers['x-cache']).not.toBe('HIT');
    expect(after.body.organizer).toBe('Les amis du port');
    expect((await get(path('/fr')).set('If-None-Match', fr.headers.etag)).status).toBe(200);
  });

  it("documents translations, missing_translation and the language key in /doc, in the edition's language", async () => {
    const doc = JSON.stringify((await get(`/de${API}/doc`)).body);
    expect(doc).toContain('Übersetzungen der Textfelder nach Ausgabe');
    expect(doc).toContain('Nur Einträge ohne Übersetzung ihres Titels oder Namens');
    expect(doc).toContain('Nur über den Pfad einer Ausgabe');
    expect(doc).toContain('missing_translation');
  });

  it('orders the terms embedded in an event by the names the edition answers', async () => {
    const event = (
      await post(`${API}/events`, {
        title: 'Two tags',
        start_date: '2027-06-01 10:00:00',
        end_date: '2027-06-01 11:00:00',
        tags: ['Alpha', 'Beta'],
      }).expect(201)
    ).body;
    const alpha = event.tags.find((tag: { name: string }) => tag.name === 'Alpha');
    await post(`${API}/tags/${alpha.id}`, { translations: { de: { name: 'Zeta' } } }).expect(200);
    const names = async (prefix: string) =>
      (await get(`${prefix}${API}/events/${event.id}`)).body.tags.map((tag: { name: string }) => tag.name);
    expect(await names('/de')).toEqual(['Beta', 'Zeta']);
    expect(await names('')).toEqual(['Alpha', 'Beta']);
  });
});

describe('content in every edition, originals in a language other than the default edition', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CONTENT_LANGUAGE: 'de', CONTENT_FALLBACKS: 'nl:de' });
  });
  afterAll(() => t.close());

  it('answers the originals through the default path and the content language, translations elsewhere', async () => {
    const post = (path: string, body: Record<string, unknown>) => t.http().post(path).set('Authorization', ADMIN_AUTH).send(body);
    const created = await post(`${API}/events`, {
      title: 'Laternenweg',
      start_date: '2027-04-02 18:00:00',
      end_date: '2027-04-02 20:00:00',
      translations: { fr: { title: 'Promenade' } },
    }).expect(201);
    const id = created.body.id as number;
    expect(created.body.language).toBeUndefined();
    expect((await t.http().get(`${API}/events/${id}`)).body.title).toBe('Laternenweg');
    const de = (await t.http().get(`/de${API}/events/${id}`)).body;
    expect(de).toMatchObject({ title: 'Laternenweg', language: { original: 'de', answered: 'de', translations: ['fr'] } });
    // a write through the content language's path changes the original
    await post(`/de${API}/events/${id}`, { title: 'Laternenweg am Hafen' }).expect(200);
    expect((await t.http().get(`${API}/events/${id}`)).body.title).toBe('Laternenweg am Hafen');
    expect((await t.http().get(`/fr${API}/events/${id}`)).body.title).toBe('Promenade');
    expect((await t.http().get(`/nl${API}/events/${id}`)).body.language.answered).toBe('de');
    // the default edition answers the originals only: no translation into it
    const refused = await post(`${API}/events/${id}`, { translations: { en: { title: 'Lantern walk' } } });
    expect(refused.status).toBe(400);
  });
});
