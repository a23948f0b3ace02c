import { normalizeTimezone } from '../common/dates/zones.js';
import { errorSummary, SourceError, type SourceAnswer, type SourceClient } from './source-client.js';

/** The five lists of REST API v1 the importer reads, in the order it writes them. */
export const RESOURCES = ['categories', 'tags', 'venues', 'organizers', 'events'] as const;
export type Resource = (typeof RESOURCES)[number];

/**
 * What the importer learned about the source before reading any record: where its API lives,
 * which flavour of the API it is, and what its lists accept.
 */
export interface SourceSite {
  /** The REST root, e.g. `https://example.org/wp-json` (no trailing slash). */
  root: string;
  /** `tribe/events/v1` (or another vendor's `<vendor>/events/v1`). */
  namespace: string;
  /** `{root}/{namespace}`: the identity of the source in the import state. */
  api: string;
  /**
   * `wordpress`: the reference plugin on WordPress (`wp/v2` next to it): titles and names come
   * entity-encoded and typographic, `wp/v2` lists every event id and the post passwords.
   * `plain`: another implementation of the contract (such as this service): text is plain.
   */
  flavor: 'wordpress' | 'plain';
  /** Arguments each list route declares, from the namespace index. */
  listArgs: Record<Resource, Set<string>>;
  /** Routes of the namespace, relative (`events`, `events/(?P<id>\d+)`, `changes`...). */
  routes: Set<string>;
  /** Every route of the REST root (WordPress lists other namespaces there: `/wp/v2/tribe_events`). */
  rootRoutes: Set<string>;
  /** The source's site time zone in our notation, when its index says (`timezone_string`, `gmt_offset`). */
  siteTimezone: string | null;
  /** The site's public URL (`home`/`url` of the index), for telling a stored website from the fallback. */
  home: string | null;
}

function stripSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

function parseUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new SourceError(`--from must be an http(s) URL, such as https://example.org: "${input}" is not one`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceError(`--from must be an http(s) URL, not ${url.protocol}`);
  if (url.username || url.password) throw new SourceError('--from must not carry credentials: use --user and --password');
  url.hash = '';
  url.search = '';
  return url;
}

function describe(answer: SourceAnswer): string {
  return errorSummary(answer);
}

/** Throws the one-line error of an answer that cannot be an index of the REST API. */
function refuse(answer: SourceAnswer, what: string, authenticated: boolean): never {
  if (answer.status === 401 || answer.status === 403) {
    const hint = authenticated
      ? 'check --user and --password (an application password)'
      : 'this API needs credentials: give --user and --password';
    throw new SourceError(`${answer.url} refused the request (${describe(answer)}): ${hint}`);
  }
  if (answer.html) throw new SourceError(`${answer.url} answered an HTML page instead of JSON: ${what} is not there (is --from right?)`);
  throw new SourceError(`${answer.url} answered ${describe(answer)}, not ${what}`);
}

function isIndex(answer: SourceAnswer): answer is SourceAnswer & { json: { namespaces: unknown[]; routes?: Record<string, unknown> } } {
  const body = answer.json as { namespaces?: unknown } | undefined;
  return answer.status === 200 && !!body && typeof body === 'object' && Array.isArray(body.namespaces);
}

/** The REST root that `Link: <…>; rel="https://api.w.org/"` names, as WordPress sends on every page. */
function apiLink(answer: SourceAnswer): string | null {
  const link = answer.headers.get('link') ?? '';
  const match = /<([^>]+)>\s*;\s*rel="https:\/\/api\.w\.org\/"/.exec(link);
  return match ? stripSlashes(match[1]) : null;
}

/**
 * Finds the source's REST API from what the operator gave: a site (`https://example.org`), its REST
 * root (`https://example.org/wp-json`) or the events namespace itself. Fails with one line when
 * the site does not answer, answers HTML, refuses the credentials or has no events namespace.
 */
export async function discoverSource(client: SourceClient, from: string): Promise<SourceSite> {
  const url = parseUrl(from);
  const given = stripSlashes(url.toString());
  const namespaceMatch = /^(.*?)\/([a-z0-9-]+\/events\/v1)$/.exec(given);
  const candidates = namespaceMatch ? [namespaceMatch[1]] : /\/wp-json$/.test(given) ? [given] : [`${given}/wp-json`, given];

  let root: string | null = null;
  let index: SourceAnswer | null = null;
  let first: SourceAnswer | null = null;
  for (const candidate of candidates) {
    const answer = await client.get(`${candidate}/`);
    first ??= answer;
    if (answer.status === 401 || answer.status === 403) refuse(answer, 'a REST API', client.authenticated);
    if (isIndex(answer)) {
      root = candidate;
      index = answer;
      break;
    }
  }
  if (!root) {
    // a site whose REST root lives elsewhere says where on its home page
    const home = await client.get(given);
    const linked = apiLink(home);
    if (linked) {
      const answer = await client.get(`${linked}/`);
      if (isIndex(answer)) {
        root = linked;
        index = answer;
      } else refuse(answer, 'a REST API index', client.authenticated);
    } else refuse(first ?? home, 'the index of a WordPress REST API', client.authenticated);
  }
  const body = (index as SourceAnswer).json as {
    namespaces: unknown[];
    routes?: Record<string, unknown>;
    timezone_string?: unknown;
    gmt_offset?: unknown;
    home?: unknown;
    url?: unknown;
  };
  const namespaces = body.namespaces.filter((name): name is string => typeof name === 'string');
  const wanted = namespaceMatch?.[2];
  const namespace =
    (wanted && namespaces.includes(wanted) ? wanted : undefined) ??
    (namespaces.includes('tribe/events/v1') ? 'tribe/events/v1' : namespaces.find((name) => /^[a-z0-9-]+\/events\/v1$/.test(name)));
  if (!namespace) {
    throw new SourceError(
      `${root}/ has no tribe/events/v1 namespace: The Events Calendar is not active there (namespaces: ${namespaces.join(', ') || 'none'})`,
    );
  }
  const api = `${root}/${namespace}`;
  const nsAnswer = await client.get(api);
  const nsBody = nsAnswer.json as { routes?: Record<string, { endpoints?: Array<{ methods?: string[]; args?: unknown }> }> } | undefined;
  if (nsAnswer.status !== 200 || !nsBody || typeof nsBody.routes !== 'object')
    refuse(nsAnswer, `the ${namespace} namespace index`, client.authenticated);
  const routes = new Set<string>();
  const listArgs = Object.fromEntries(RESOURCES.map((resource) => [resource, new Set<string>()])) as Record<Resource, Set<string>>;
  for (const [path, route] of Object.entries(nsBody.routes ?? {})) {
    const relative = path.replace(/^\/+/, '').slice(namespace.length).replace(/^\/+/, '');
    routes.add(relative);
    if ((RESOURCES as readonly string[]).includes(relative)) {
      for (const endpoint of route.endpoints ?? []) {
        if (!endpoint.methods?.includes('GET')) continue;
        const args = endpoint.args && typeof endpoint.args === 'object' && !Array.isArray(endpoint.args) ? Object.keys(endpoint.args) : [];
        for (const arg of args) listArgs[relative as Resource].add(arg);
      }
    }
  }
  const missing = RESOURCES.filter((resource) => !routes.has(resource));
  if (missing.length > 0) throw new SourceError(`${api} lacks the routes ${missing.join(', ')}: not REST API v1 of The Events Calendar`);
  return {
    root: root,
    namespace,
    api,
    flavor: namespaces.includes('wp/v2') ? 'wordpress' : 'plain',
    listArgs,
    routes,
    rootRoutes: new Set(Object.keys(body.routes ?? {})),
    siteTimezone: siteTimezoneOf(body.timezone_string, body.gmt_offset),
    home: typeof body.home === 'string' ? stripSlashes(body.home) : typeof body.url === 'string' ? stripSlashes(body.url) : null,
  };
}

/** `timezone_string` when named, else `UTC±H` from `gmt_offset` (WordPress sends it as a string). */
export function siteTimezoneOf(name: unknown, offset: unknown): string | null {
  if (typeof name === 'string' && name.trim() !== '') return normalizeTimezone(name.trim());
  const hours = typeof offset === 'number' ? offset : typeof offset === 'string' && offset.trim() !== '' ? Number(offset) : NaN;
  if (!Number.isFinite(hours)) return null;
  return normalizeTimezone(`UTC${hours < 0 ? '-' : '+'}${Math.abs(hours)}`);
}
