import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { importTec, listen, summaryRow } from './support/import-sources.js';
import { seedRichCalendar, SHARED_SETTINGS, type RichCalendar } from './support/rich-calendar.js';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app.js';

/**
 * `import:tec` from a second instance of this service over real HTTP: a rich calendar lands in an
 * empty target and in one that already holds records, and every record then reads the same on
 * both (anonymously and as administrator), apart from the base URL and the ids that had to change.
 */

const SOURCE_URL = 'http://source.test';
const SOURCE_ADMIN = { login: 'admin', password: 'admin-password-1' };

type Json = Record<string, unknown>;

/** Every read that shows a record, by source id: single reads, by-slug reads and the lists. */
async function readPaths(source: TestApp, calendar: RichCalendar): Promise<string[]> {
  const paths: string[] = [];
  for (const id of Object.values(calendar.events)) paths.push(`/events/${id}`);
  for (const id of Object.values(calendar.venues)) paths.push(`/venues/${id}`);
  for (const id of Object.values(calendar.organizers)) paths.push(`/organizers/${id}`);
  for (const id of Object.values(calendar.categories)) paths.push(`/categories/${id}`);
  for (const id of Object.values(calendar.tags)) paths.push(`/tags/${id}`);
  for (const [kind, ids] of [
    ['events', calendar.events],
    ['venues', calendar.venues],
    ['organizers', calendar.organizers],
  ] as const) {
    for (const id of Object.values(ids)) {
      const res = await source.http().get(`${API}/${kind}/${id}`).set('Authorization', basic(SOURCE_ADMIN));
      if (res.status === 200) paths.push(`/${kind}/by-slug/${encodeURIComponent(res.body.slug)}`);
    }
  }
  paths.push(
    '/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01',
    '/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01&status=trash',
    '/venues?per_page=50',
    '/venues?per_page=50&status=any',
    '/venues?per_page=50&status=trash',
    '/organizers?per_page=50&status=any',
    '/categories?per_page=50&hide_empty=0',
    '/categories?per_page=50',
    '/tags?per_page=50&hide_empty=0',
    `/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01&categories=${calendar.categories.jazz}`,
  );
  return paths;
}

interface IdMaps {
  items: Map<number, number>;
  terms: Map<number, number>;
  /** Local slug → source slug of records whose slug was taken here. */
  slugs: Map<string, string>;
}

async function localToSource(target: TestApp): Promise<IdMaps> {
  const dataSource = target.app.get<DataSource>(getDataSourceToken());
  const rows: Array<{ kind: string; source_record_id: number; local_id: number; source_slug: string }> = await dataSource.query(
    'SELECT kind, source_record_id, local_id, source_slug FROM import_mappings',
  );
  const maps: IdMaps = { items: new Map(), terms: new Map(), slugs: new Map() };
  for (const row of rows) {
    (['category', 'tag'].includes(row.kind) ? maps.terms : maps.items).set(Number(row.local_id), Number(row.source_record_id));
    if (row.kind === 'event' || row.kind === 'venue' || row.kind === 'organizer') {
      const [local] = await dataSource.query(`SELECT slug FROM ${row.kind}s WHERE id = ?`, [row.local_id]);
      if (local && local.slug !== row.source_slug && row.source_slug !== '') maps.slugs.set(local.slug, row.source_slug);
    }
  }
  return maps;
}

/** The target's answer written with source ids and slugs, so it can be compared with the source's. */
function canonical(value: unknown, maps: IdMaps, inTerm = false): unknown {
  const item = (id: number) => maps.items.get(id) ?? id;
  const term = (id: number) => maps.terms.get(id) ?? id;
  if (typeof value === 'string') {
    let text = value
      .replace(/\/(events|venues|organizers)\/(\d+)/g, (_all, kind: string, id: string) => `/${kind}/${item(Number(id))}`)
      .replace(/\/(categories|tags)\/(\d+)/g, (_all, kind: string, id: string) => `/${kind}/${term(Number(id))}`)
      .replace(/([?&]p=)(\d+)/g, (_all, key: string, id: string) => `${key}${item(Number(id))}`)
      .replace(/(\?id=)(\d+)/g, (_all, key: string, id: string) => `${key}${item(Number(id))}`);
    for (const [local, source] of maps.slugs) text = text.replace(new RegExp(`/(event|venue|organizer)/${local}/`, 'g'), `/$1/${source}/`);
    return text;
  }
  if (Array.isArray(value)) return value.map((element) => canonical(element, maps, inTerm));
  if (value && typeof value === 'object') {
    const object = value as Json;
    const isTerm = 'taxonomy' in object;
    const result: Json = {};
    for (const [key, element] of Object.entries(object)) {
      if (typeof element === 'number' && (key === 'id' || key === 'term_taxonomy_id' || (key === 'parent' && isTerm))) {
        result[key] = isTerm ? term(element) : item(element);
      } else if (key === 'slug' && typeof element === 'string') {
        result[key] = maps.slugs.get(element) ?? element;
      } else result[key] = canonical(element, maps, isTerm);
    }
    return result;
  }
  return value;
}

/** Replaces each edition's base URL by one placeholder. */
function rebased(body: unknown, publicUrl: string): unknown {
  const host = new URL(publicUrl).host;
  return JSON.parse(JSON.stringify(body).split(publicUrl).join('{public_url}').split(`"${host}?id=`).join('"{host}?id='));
}

/** The first few JSON paths where two values differ. */
function diffPaths(a: unknown, b: unknown, path = '', found: string[] = []): string[] {
  if (found.length >= 6) return found;
  if (JSON.stringify(a) === JSON.stringify(b)) return found;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) diffPaths((a as Json)[key], (b as Json)[key], `${path}.${key}`, found);
    if (Array.isArray(a) && JSON.stringify(Object.keys(a)) !== JSON.stringify(Object.keys(b)))
      found.push(`${path}: length ${a.length} vs ${(b as unknown[]).length}`);
    return found;
  }
  found.push(`${path}: ${JSON.stringify(a)?.slice(0, 160)} vs ${JSON.stringify(b)?.slice(0, 160)}`);
  return found;
}

const sorted = (list: unknown) => (Array.isArray(list) ? [...(list as Json[])].sort((a, b) => Number(a.id) - Number(b.id)) : list);

describe('import:tec from another instance of this service', () => {
  let source: TestApp;
  let sourceOrigin: string;
  let calendar: RichCalendar;
  let paths: string[];

  beforeAll(async () => {
    source = await startTestApp({ ...SHARED_SETTINGS, PUBLIC_URL: SOURCE_URL }, { database: 'source' });
    sourceOrigin = await listen(source);
    calendar = await seedRichCalendar(source);
    paths = await readPaths(source, calendar);
  }, 60_000);
  afterAll(() => source.close());

  /** The same GET on source and target, anonymously and as administrator; differences are listed. */
  async function differences(target: TestApp, maps: IdMaps | null, options: { listsAsSets?: boolean } = {}): Promise<string[]> {
    const found: string[] = [];
    const toLocal = new Map([...(maps?.items ?? new Map<number, number>())].map(([local, sourceId]) => [sourceId, local]));
    const termToLocal = new Map([...(maps?.terms ?? new Map<number, number>())].map(([local, sourceId]) => [sourceId, local]));
    for (const path of paths) {
      const localPath = path
        .replace(/^\/(events|venues|organizers)\/(\d+)$/, (_all, kind: string, id: string) => `/${kind}/${toLocal.get(Number(id)) ?? id}`)
        .replace(/^\/(categories|tags)\/(\d+)$/, (_all, kind: string, id: string) => `/${kind}/${termToLocal.get(Number(id)) ?? id}`)
        .replace(/categories=(\d+)$/, (_all, id: string) => `categories=${termToLocal.get(Number(id)) ?? id}`)
        .replace(/by-slug\/(.+)$/, (_all, slug: string) => {
          const local = [...(maps?.slugs ?? new Map<string, string>())].find(
            ([, sourceSlug]) => sourceSlug === decodeURIComponent(slug),
          )?.[0];
          return `by-slug/${local ? encodeURIComponent(local) : slug}`;
        });
      for (const who of ['anonymous', 'administrator'] as const) {
        const sourceReq = source.http().get(`${API}${path}`);
        const targetReq = target.http().get(`${API}${localPath}`);
        if (who === 'administrator') {
          sourceReq.set('Authorization', basic(SOURCE_ADMIN));
          targetReq.set('Authorization', basic(ADMIN));
        }
        const [a, b] = await Promise.all([sourceReq, targetReq]);
        let expected = rebased(a.body, SOURCE_URL) as Json;
        let targetBody = b.body as Json;
        if (options.listsAsSets && !/\/\d+$|by-slug/.test(path)) {
          // the target's own records are in its lists too: compare the imported ones, in id order
          const key = Object.keys(expected).find((name) => Array.isArray(expected[name]));
          if (key) {
            const imported = key === 'categories' || key === 'tags' ? (maps?.terms ?? new Map()) : (maps?.items ?? new Map());
            expected = { [key]: sorted(expected[key]) };
            targetBody = { [key]: ((targetBody[key] as Json[]) ?? []).filter((element) => imported.has(Number(element.id))) };
          }
        }
        let actual = rebased(maps ? canonical(targetBody, maps) : targetBody, PUBLIC_URL) as Json;
        if (options.listsAsSets && Object.keys(actual).length === 1)
          actual = { [Object.keys(actual)[0]]: sorted(Object.values(actual)[0]) };
        if (a.status !== b.status) found.push(`${who} GET ${path} → ${localPath}: ${a.status} vs ${b.status}`);
        else if (JSON.stringify(expected) !== JSON.stringify(actual))
          found.push(`${who} GET ${path} → ${localPath}: ${diffPaths(expected, actual).join('; ')}`);
      }
    }
    return found;
  }

  describe('into an empty target', () => {
    let target: TestApp;
    let run: Awaited<ReturnType<typeof importTec>>;

    beforeAll(async () => {
      target = await startTestApp(SHARED_SETTINGS);
      run = await importTec(target, ['--from', sourceOrigin, '--user', SOURCE_ADMIN.login, '--password', SOURCE_ADMIN.password]);
    }, 60_000);
    afterAll(() => target.close());

    it('exits 0 with a summary that counts every record', () => {
      expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
      const row = (name: string) => summaryRow(run.lines, name);
      // created, updated, unchanged, kept, trashed, deleted, skipped
      expect(row('categories')).toEqual([6, 0, 0, 0, 0, 0, 0]);
      expect(row('tags')).toEqual([4, 0, 0, 0, 0, 0, 0]);
      expect(row('venues')).toEqual([5, 0, 0, 0, 0, 0, 0]);
      expect(row('organizers')).toEqual([4, 0, 0, 0, 0, 0, 0]);
      expect(row('events')).toEqual([Object.keys(calendar.events).length, 0, 0, 0, 0, 0, 0]);
      expect(run.lines.some((line) => line.startsWith('Renumbered'))).toBe(false);
    });

    it('reads the same on source and target: every record, by id and by slug, every list, anonymous and administrator', async () => {
      expect(await differences(target, null)).toEqual([]);
    });

    it('keeps protected records protected: a visitor is refused, the administrator reads them', async () => {
      const anonymous = await target.http().get(`${API}/events/${calendar.events.protected}`);
      expect(anonymous.status).toBe(403);
      expect(anonymous.body.code).toBe('event-password-protected');
      const venue = await target.http().get(`${API}/venues/${calendar.venues.locked}`);
      expect(venue.body.city).toBe('');
    });

    it('continues the id sequences above the highest imported id', async () => {
      const highestItem = Math.max(
        ...Object.values(calendar.events),
        ...Object.values(calendar.venues),
        ...Object.values(calendar.organizers),
      );
      const event = await target
        .http()
        .post(`${API}/events`)
        .set('Authorization', basic(ADMIN))
        .send({ title: 'Made here after the import', start_date: '2027-06-01 10:00', end_date: '2027-06-01 11:00' });
      expect(event.status).toBe(201);
      expect(event.body.id).toBeGreaterThan(highestItem);
      const tag = await target.http().post(`${API}/tags`).set('Authorization', basic(ADMIN)).send({ name: 'after the import' });
      expect(tag.body.id).toBeGreaterThan(Math.max(...Object.values(calendar.categories), ...Object.values(calendar.tags)));
    });

    it('records the imported writes in the change feed', async () => {
      const feed = await target.http().get(`${API}/changes?per_page=500`).set('Authorization', basic(ADMIN));
      expect(feed.status).toBe(200);
      const events = new Set((feed.body.changes as Json[]).filter((change) => change.type === 'event').map((change) => change.id));
      // created in the trash, the cancelled event was never readable: the feed does not show it
      for (const [key, id] of Object.entries(calendar.events))
        expect({ key, listed: events.has(id) }).toEqual({ key, listed: key !== 'trashed' });
    });
  });

  describe('into a target that already holds records', () => {
    let target: TestApp;
    let run: Awaited<ReturnType<typeof importTec>>;
    let maps: IdMaps;

    beforeAll(async () => {
      target = await startTestApp(SHARED_SETTINGS);
      const admin = basic(ADMIN);
      // ids 1-3 of the item sequence, 1-2 of the terms, and the slug of the source's lantern walk are taken here
      await target.http().post(`${API}/venues`).set('Authorization', admin).send({ venue: 'Local Hall' });
      await target.http().post(`${API}/organizers`).set('Authorization', admin).send({ organizer: 'Local Club' });
      await target
        .http()
        .post(`${API}/events`)
        .set('Authorization', admin)
        .send({ title: 'Harbour Lantern Walk', start_date: '2026-01-01 10:00', end_date: '2026-01-01 11:00' });
      await target.http().post(`${API}/categories`).set('Authorization', admin).send({ name: 'Local category' });
      await target.http().post(`${API}/tags`).set('Authorization', admin).send({ name: 'local-tag' });
      run = await importTec(target, [
        '--from',
        `${sourceOrigin}/wp-json`,
        '--user',
        SOURCE_ADMIN.login,
        '--password',
        SOURCE_ADMIN.password,
      ]);
      maps = await localToSource(target);
    }, 60_000);
    afterAll(() => target.close());

    it('renumbers what is taken, shows the mapping and keeps the rest', () => {
      expect({ code: run.code, error: run.error }).toEqual({ code: 0, error: null });
      const renumbered = run.lines
        .slice(run.lines.findIndex((line) => line.startsWith('Renumbered')) + 1)
        .filter((line) => /^ {2}\w+ \d+ -> \d+/.test(line));
      expect(renumbered).toEqual(
        expect.arrayContaining([
          expect.stringMatching(new RegExp(`^  category ${calendar.categories.music} -> \\d+$`)),
          expect.stringMatching(new RegExp(`^  venue ${calendar.venues.pier} -> \\d+$`)),
        ]),
      );
      expect(run.lines).toContain('Slugs taken here (source slug -> slug here):');
      expect(run.lines.some((line) => /harbour-lantern-walk -> harbour-lantern-walk-2$/.test(line))).toBe(true);
      // ids above what the target had are kept; new ids go above every source id
      expect(maps.items.get(calendar.events.literal)).toBe(calendar.events.literal);
      expect(maps.items.get(calendar.events.lantern)).toBe(calendar.events.lantern);
      const highestSourceItem = Math.max(
        ...Object.values(calendar.events),
        ...Object.values(calendar.venues),
        ...Object.values(calendar.organizers),
      );
      const moved = [...maps.items].filter(([local, sourceId]) => local !== sourceId).map(([local]) => local);
      expect(moved.length).toBeGreaterThan(0);
      for (const local of moved) expect(local).toBeGreaterThan(highestSourceItem);
    });

    it('reads the same as the source, with the renumbered ids and slugs mapped back', async () => {
      expect(await differences(target, maps, { listsAsSets: true })).toEqual([]);
    });

    it('leaves the records that were there alone', async () => {
      const hall = await target.http().get(`${API}/venues/1`);
      expect(hall.body.venue).toBe('Local Hall');
      const walk = await target.http().get(`${API}/events/3`);
      expect(walk.body.slug).toBe('harbour-lantern-walk');
    });
  });
});
