import type { ImportKind } from './import-mapping.entity.js';
import { SourceError, type SourceClient } from './source-client.js';
import { CREDENTIAL_STATUSES, readList } from './source-reader.js';
import type { Resource, SourceSite } from './source-site.js';
import { isRowId } from '../common/sql/row-id.js';

/**
 * What the importer learns about the source beyond its five lists: logins and passwords WordPress
 * tells editors (`wp/v2`), which records a visitor sees redacted, the highest id in use, and the
 * events no list shows (hidden from listings).
 */

/** Source user id → login, where WordPress lists its users (`username` in edit context, else the nicename). */
export async function sourceLogins(client: SourceClient, site: SourceSite): Promise<Map<number, string>> {
  const logins = new Map<number, string>();
  if (!site.rootRoutes.has('/wp/v2/users')) return logins;
  for (let page = 1; page <= 20; page++) {
    const context = client.authenticated ? '&context=edit' : '';
    let answer = await client.get(`${site.root}/wp/v2/users?per_page=100&page=${page}${context}`).catch(() => null);
    if (answer && answer.status !== 200 && context)
      answer = await client.get(`${site.root}/wp/v2/users?per_page=100&page=${page}`).catch(() => null);
    if (!answer || answer.status !== 200 || !Array.isArray(answer.json)) break;
    for (const user of answer.json as Array<{ id?: unknown; username?: unknown; slug?: unknown }>) {
      const login = typeof user.username === 'string' ? user.username : typeof user.slug === 'string' ? user.slug : null;
      if (typeof user.id === 'number' && login) logins.set(user.id, login);
    }
    if (page >= Number(answer.headers.get('x-wp-totalpages') ?? 1)) break;
  }
  return logins;
}

/** The password of a protected record, where the source tells it (WordPress, `wp/v2` in edit context). */
export async function sourcePassword(
  client: SourceClient,
  site: SourceSite,
  kind: 'event' | 'venue' | 'organizer',
  sourceId: number,
): Promise<string | null> {
  const postType = { event: 'tribe_events', venue: 'tribe_venue', organizer: 'tribe_organizer' }[kind];
  if (!client.authenticated || !site.rootRoutes.has(`/wp/v2/${postType}`)) return null;
  const answer = await client.get(`${site.root}/wp/v2/${postType}/${sourceId}?context=edit&_fields=id,password`).catch(() => null);
  const password = (answer?.json as { password?: unknown } | undefined)?.password;
  return answer?.status === 200 && typeof password === 'string' && password !== '' ? password : null;
}

export interface ProtectionScan {
  /** Records a visitor sees redacted in the lists (events and venues show it by `null` flags). */
  ids: Map<ImportKind, Set<number>>;
  /** The visitor's view of published organizers: their redaction shows only by comparison. */
  anonymousOrganizers: Map<number, unknown>;
  warnings: string[];
}

/**
 * With credentials the importer sees protected records in full; an anonymous pass over the
 * published records of each list tells which ones a visitor sees redacted, so they stay protected here.
 */
export async function scanProtection(client: SourceClient, site: SourceSite): Promise<ProtectionScan> {
  const scan: ProtectionScan = { ids: new Map(), anonymousOrganizers: new Map(), warnings: [] };
  const kinds = { venues: 'venue', organizers: 'organizer', events: 'event' } as const;
  for (const resource of ['venues', 'organizers', 'events'] as const) {
    const ids = new Set<number>();
    try {
      for await (const page of readList(client, site, resource, { anonymous: true })) {
        for (const item of page.records) {
          const raw = item as Record<string, unknown>;
          const id = Number(raw.id);
          if (!Number.isSafeInteger(id)) continue;
          if (raw.all_day === null || raw.show_map === null) ids.add(id);
          else if (resource === 'organizers') scan.anonymousOrganizers.set(id, raw);
        }
      }
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      scan.warnings.push(
        `the anonymous view of ${resource} could not be read (${error.message}): password protection is taken from the credentials' view only`,
      );
    }
    scan.ids.set(kinds[resource], ids);
  }
  return scan;
}

/**
 * The highest item id the source shows (events, venues, organizers, images): from `wp/v2` on
 * WordPress, from the lists sorted by id on this service. Records renumbered here get ids above it.
 */
export async function highestItemId(client: SourceClient, site: SourceSite): Promise<number> {
  const found: number[] = [];
  const consider = (value: unknown) => {
    const id = Number(value);
    if (isRowId(id)) found.push(id);
  };
  const everyStatus = `&status=${[...CREDENTIAL_STATUSES, 'trash'].join(',')}`;
  for (const postType of ['tribe_events', 'tribe_venue', 'tribe_organizer', 'media']) {
    if (!site.rootRoutes.has(`/wp/v2/${postType}`)) continue;
    const status = postType !== 'media' && client.authenticated ? everyStatus : '';
    const answer = await client
      .get(`${site.root}/wp/v2/${postType}?per_page=1&orderby=id&order=desc&_fields=id${status}`)
      .catch(() => null);
    if (answer?.status === 200 && Array.isArray(answer.json))
      for (const entry of answer.json as Array<{ id?: unknown }>) consider(entry.id);
  }
  for (const resource of ['events', 'venues', 'organizers'] as const) {
    if (!site.listArgs[resource].has('orderby')) continue;
    const status = client.authenticated && site.listArgs[resource].has('status') ? everyStatus : '';
    const window = resource === 'events' ? '&start_date=1900-01-01&end_date=2199-12-31' : '';
    const answer = await client.get(`${site.api}/${resource}?per_page=1&orderby=id&order=desc${status}${window}`).catch(() => null);
    const list = (answer?.json as Record<string, unknown> | undefined)?.[resource];
    if (answer?.status === 200 && Array.isArray(list)) {
      // an image registered with the newest record may have the highest id of all
      for (const entry of list as Array<{ id?: unknown; image?: { id?: unknown } }>) {
        consider(entry.id);
        consider(entry.image?.id);
      }
    }
  }
  return found.reduce((highest, id) => Math.max(highest, id), 0);
}

/**
 * Ids of events no list shows (hidden from listings), as far as the source names them: on
 * WordPress the events of `wp/v2/tribe_events` (which lists only upcoming ones: the others are
 * found by reading ids one by one, `import-probes.ts`); on this service the events of its change
 * feed (as far back as it keeps changes). `known` gains the item ids the feed names.
 */
export async function unlistedEventIds(client: SourceClient, site: SourceSite, known: Set<number>): Promise<Set<number>> {
  const events = new Set<number>();
  if (site.rootRoutes.has('/wp/v2/tribe_events')) {
    const statuses = client.authenticated ? `&status=${[...CREDENTIAL_STATUSES].join(',')}` : '';
    for (let page = 1; page <= 10_000; page++) {
      let answer = await client.get(`${site.root}/wp/v2/tribe_events?per_page=100&page=${page}&_fields=id${statuses}`).catch(() => null);
      if (answer && answer.status === 400 && statuses && page === 1)
        answer = await client.get(`${site.root}/wp/v2/tribe_events?per_page=100&page=1&_fields=id`).catch(() => null);
      if (!answer || answer.status !== 200 || !Array.isArray(answer.json)) break;
      for (const entry of answer.json as Array<{ id?: unknown }>) if (typeof entry.id === 'number') events.add(entry.id);
      if (page >= Number(answer.headers.get('x-wp-totalpages') ?? 1)) break;
    }
    return events;
  }
  if (!site.routes.has('changes')) return events;
  let cursor: string | null = null;
  for (let guard = 0; guard < 100_000; guard++) {
    const url = `${site.api}/changes?per_page=500${cursor ? `&since=${encodeURIComponent(cursor)}` : ''}`;
    const answer = await client.get(url).catch(() => null);
    const body = answer?.json as
      { changes?: Array<{ type?: string; id?: number; action?: string }>; next_cursor?: string; has_more?: boolean } | undefined;
    if (!answer || answer.status !== 200 || !body || !Array.isArray(body.changes)) break;
    for (const change of body.changes) {
      if (!['event', 'venue', 'organizer'].includes(change.type ?? '') || typeof change.id !== 'number') continue;
      known.add(change.id);
      if (change.type === 'event' && change.action !== 'deleted') events.add(change.id);
    }
    if (!body.has_more || !body.next_cursor || body.next_cursor === cursor) break;
    cursor = body.next_cursor;
  }
  return events;
}

export type { Resource };

/**
 * The source's default page size (the reference: the site's "posts per page" setting, 10 unless
 * changed): what a list answers when `per_page` is not given, read from one list of venues. The
 * reference echoes it in `rest_url`; else a list longer than one page tells it by the length of its
 * first page. Null when the answer does not tell.
 */
export async function defaultPageSize(client: SourceClient, site: SourceSite): Promise<number | null> {
  const answer = await client.get(`${site.api}/venues`).catch(() => null);
  const body = answer?.status === 200 ? (answer.json as Record<string, unknown> | undefined) : undefined;
  if (!body || typeof body !== 'object') return null;
  for (const link of [body.rest_url, body.next_rest_url]) {
    if (typeof link !== 'string') continue;
    const perPage = Number(new URL(link, site.api).searchParams.get('per_page'));
    if (Number.isSafeInteger(perPage) && perPage > 0) return perPage;
  }
  const list = body.venues;
  return Array.isArray(list) && Number(body.total_pages) > 1 && list.length > 0 ? list.length : null;
}
