import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeServer, type FakeServer } from './import-sources.js';

export const FIXTURES = '/work/shared/fixtures/tec-samples';

/** When the reference site was recorded (UTC): what it called "upcoming" then. */
const RECORDED_AT = '2026-11-23 11:12:00';

interface FixtureEntry {
  name: string;
  method: string;
  url_path_and_query: string;
  auth: 'anon' | 'admin';
  status: number;
}

type Json = Record<string, any>;

const readJson = (name: string): Json => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8'));

/** The request as the fixtures key it: path without trailing slash, parameters sorted, the event window left out. */
function fixtureKey(method: string, pathAndQuery: string, auth: string, dropStatus = false): string {
  const url = new URL(pathAndQuery, 'http://fixture');
  const path = decodeURIComponent(url.pathname).replace(/\/+$/, '').toLowerCase();
  const params = [...url.searchParams]
    // the recordings ask for 2000-01-01 … 2100-01-01; every recorded event lies in 2024-2029
    .filter(([name]) => name !== 'start_date' && name !== 'end_date' && !(dropStatus && name === 'status'))
    .map(([name, value]) => [name, name === 'status' ? value.split(',').sort().join(',') : value])
    .sort(([a], [b]) => a.localeCompare(b));
  return `${method} ${path}?${params.map(([name, value]) => `${name}=${value}`).join('&')} ${auth}`;
}

/** The status line and headers of a recording, as the reference sent them. */
function recordedHeaders(name: string): { status: number; headers: Record<string, string> } {
  const lines = readFileSync(join(FIXTURES, `${name}.headers`), 'utf8').split('\r\n');
  const status = Number(/^HTTP\/[\d.]+ (\d+)/.exec(lines[0])?.[1] ?? 200);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (['transfer-encoding', 'connection', 'content-length', 'date', 'server'].includes(name)) continue;
    headers[name] = line.slice(colon + 1).trim();
  }
  return { status, headers };
}

/** A fake site of the reference plugin; `trash` and `deleteForGood` change it as an editor would at the source. */
export interface FixtureSource extends FakeServer {
  /** The event, venue or organizer goes to the trash at the source (events keep linking to a trashed venue). */
  trash: (id: number) => void;
  /** The event is deleted for good at the source: gone from every list, its id unknown. */
  deleteForGood: (id: number) => void;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json; charset=UTF-8', ...headers },
  body: JSON.stringify(body),
});

/**
 * A fake site of the reference plugin that answers the recorded requests of
 * `/work/shared/fixtures/tec-samples/` with the recorded bodies and headers (byte for byte) and
 * `404 rest_no_route` otherwise, whatever the password (the recordings hold none). Helps beyond the
 * recordings, stated here:
 * - the venue and organizer lists were recorded without a `status` filter (the reference's admin
 *   default there already shows every status but the trash);
 * - with `withWpV2`, the `wp/v2` answers WordPress core gives and the recordings lack are built from
 *   the recorded data: `tribe_events` lists, as on the reference, only events that had not ended when
 *   the site was recorded (so the hidden past event 60 is in no list at all), published ones for a
 *   visitor and the `status` asked for with credentials; the protected event's password
 *   `peer-secret` (seed-requests.json); the admin user;
 * - a visitor's read of a published record that was recorded for the administrator only is answered
 *   as the administrator's was (both views of a published, unprotected record are the same in the
 *   recordings, apart from the scrambled e-mail copies in `json_ld`);
 * - after `trash` or `deleteForGood`, answers are the recorded ones with the record left out of the
 *   lists, its single read answered as the reference answers a trashed record (the recorded answers of
 *   the trashed event 50 and the draft venue 10) or an unknown id, and a trashed venue shown with
 *   `"status": "trash"` where events embed it.
 */
export async function fixtureSource(options: { withWpV2?: boolean } = {}): Promise<FixtureSource> {
  const index = readJson('index') as unknown as FixtureEntry[];
  const byKey = new Map<string, FixtureEntry>();
  for (const entry of index) byKey.set(fixtureKey(entry.method, entry.url_path_and_query, entry.auth), entry);
  /** Every event the reference showed its administrator in full (the protected one through context=edit). */
  const events = index
    .filter((entry) => /^event-\d+-admin(-context-edit)?$/.test(entry.name) && entry.status === 200)
    .map((entry) => readJson(entry.name));
  const trashed = new Set<number>();
  const deleted = new Set<number>();
  const gone = (id: unknown) => trashed.has(Number(id)) || deleted.has(Number(id));

  /** `wp/v2/tribe_events` as WordPress answers it on the reference: upcoming events only, paged, sorted. */
  const wpEvents = (url: URL, admin: boolean) => {
    const statuses = (url.searchParams.get('status') ?? 'publish').split(',');
    if (!admin && statuses.some((status) => status !== 'publish'))
      return json(400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): status', data: { status: 400 } });
    const perPage = Number(url.searchParams.get('per_page') ?? 10);
    const page = Number(url.searchParams.get('page') ?? 1);
    const listed = events
      .filter((event) => event.utc_end_date >= RECORDED_AT && statuses.includes(event.status) && !gone(event.id))
      .map((event) => Number(event.id))
      .sort((a, b) => (url.searchParams.get('order') === 'desc' ? b - a : a - b));
    const total = listed.length;
    return json(
      200,
      listed.slice((page - 1) * perPage, page * perPage).map((id) => ({ id })),
      { 'x-wp-total': String(total), 'x-wp-totalpages': String(Math.max(1, Math.ceil(total / perPage))) },
    );
  };

  /** A recorded answer as the site answers it after the changes made with `trash` and `deleteForGood`. */
  const changed = (path: string, admin: boolean, status: number, body: string): { status: number; body: string } | null => {
    if (trashed.size === 0 && deleted.size === 0) return null;
    const single = /\/(events|venues|organizers)\/(\d+)$/.exec(path);
    if (single && deleted.has(Number(single[2]))) {
      const unknown = single[1] === 'events' ? readJson('error-event-unknown-id-admin') : readJson('error-venue-unknown-id-anon');
      return { status: unknown.data.status, body: JSON.stringify(unknown).replace('999999', single[2]) };
    }
    if (single && trashed.has(Number(single[2]))) {
      if (single[1] === 'events') return { status: 403, body: JSON.stringify(readJson('event-50-admin')) };
      if (!admin) return { status: 403, body: JSON.stringify(readJson('venue-10-anon')).replaceAll('venue', single[1].slice(0, -1)) };
    }
    if (status !== 200) return null;
    const parsed = JSON.parse(body) as Json;
    const patch = (item: Json): Json => {
      const copy = { ...item };
      if (trashed.has(Number(copy.id))) Object.assign(copy, { status: 'trash', slug: `${copy.slug}__trashed` });
      if (copy.venue && typeof copy.venue === 'object' && !Array.isArray(copy.venue))
        copy.venue = deleted.has(Number(copy.venue.id)) ? [] : patch(copy.venue);
      if (Array.isArray(copy.organizer))
        copy.organizer = copy.organizer.filter((organizer: Json) => !deleted.has(Number(organizer.id))).map(patch);
      return copy;
    };
    for (const list of ['events', 'venues', 'organizers']) {
      if (Array.isArray(parsed[list])) parsed[list] = (parsed[list] as Json[]).filter((item) => !gone(item.id)).map(patch);
    }
    return { status: 200, body: JSON.stringify(single ? patch(parsed) : parsed) };
  };

  /** A published record read alone by a visitor where only the administrator's read was recorded: the same answer. */
  const publicRecord = (method: string, raw: string): FixtureEntry | undefined => {
    const entry = /\/(events|venues|organizers)\/\d+$/.test(new URL(raw, 'http://fixture').pathname.replace(/\/+$/, ''))
      ? byKey.get(fixtureKey(method, raw, 'admin'))
      : undefined;
    return entry?.status === 200 && readJson(entry.name).status === 'publish' ? entry : undefined;
  };

  const server = await fakeServer((req) => {
    const admin = req.headers.authorization !== undefined;
    const auth = admin ? 'admin' : 'anon';
    const url = new URL(req.url ?? '/', 'http://fixture');
    const path = url.pathname.replace(/\/+$/, '');
    if (options.withWpV2 && path === '/wp-json/wp/v2/tribe_events') return wpEvents(url, admin);
    if (options.withWpV2 && path === '/wp-json/wp/v2/tribe_events/49' && admin) return json(200, { id: 49, password: 'peer-secret' });
    if (options.withWpV2 && path === '/wp-json/wp/v2/users')
      return json(200, [{ id: 1, username: 'admin', slug: 'admin' }], { 'x-wp-totalpages': '1' });
    const method = req.method ?? 'GET';
    const raw = req.url ?? '/';
    const listWithStatus = /\/(venues|organizers)\?/.test(raw) && /status=(publish|future|draft|pending|private)(%2C|,)/.test(raw);
    const entry =
      byKey.get(fixtureKey(method, raw, auth)) ??
      (admin && listWithStatus ? byKey.get(fixtureKey(method, raw, auth, true)) : undefined) ??
      // public routes answer credentials as they answer a visitor (the index, the namespace)
      (admin && !/\/(events|venues|organizers|categories|tags)/.test(path) ? byKey.get(fixtureKey(method, raw, 'anon')) : undefined) ??
      (!admin ? publicRecord(method, raw) : undefined);
    if (!entry)
      return json(404, {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    const { status, headers } = recordedHeaders(entry.name);
    const body = readFileSync(join(FIXTURES, `${entry.name}.json`), 'utf8');
    const after = changed(path, admin, status, body);
    return after ? { status: after.status, headers, body: after.body } : { status, headers, body };
  });
  return {
    ...server,
    trash: (id) => void trashed.add(id),
    deleteForGood: (id) => void deleted.add(id),
  };
}
