import { errorSummary, SourceError, type SourceAnswer, type SourceClient } from './source-client.js';
import type { Resource, SourceSite } from './source-site.js';

/** Records per page: the most REST API v1 hands out. */
export const PER_PAGE = 50;
/** Event lists are asked for this window: wide enough for every event, narrow enough for every source's date checks. */
const EVENT_WINDOW = { start_date: '1900-01-01 00:00:00', end_date: '2199-12-31 23:59:59' };
/** Statuses asked for with credentials: everything but the trash (which is a pass of its own). */
export const CREDENTIAL_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;

export interface ListPage {
  page: number;
  totalPages: number;
  total: number | null;
  records: unknown[];
}

/** A list's query: the filters of one pass (`status`), always with paging and the full event window. */
export function listUrl(site: SourceSite, resource: Resource, page: number, status?: string): string {
  const args = site.listArgs[resource];
  const params = new URLSearchParams();
  params.set('per_page', String(PER_PAGE));
  params.set('page', String(page));
  if (resource === 'events') for (const [key, value] of Object.entries(EVENT_WINDOW)) params.set(key, value);
  if (resource === 'categories' || resource === 'tags') params.set('hide_empty', '0');
  if (status !== undefined) params.set('status', status);
  // a stable order where the source's item lists offer one (this service's do): pages do not shift while read
  if (resource !== 'categories' && resource !== 'tags' && args.has('orderby') && args.has('order')) {
    params.set('orderby', 'id');
    params.set('order', 'asc');
  }
  return `${site.api}/${resource}?${params.toString().replace(/%2C/g, ',')}`;
}

function totalsOf(answer: SourceAnswer): { total: number | null; totalPages: number | null } {
  const body = answer.json as { total?: unknown; total_pages?: unknown } | undefined;
  const number = (...values: unknown[]) => {
    for (const value of values) {
      const parsed = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (Number.isSafeInteger(parsed) && parsed >= 0) return parsed;
    }
    return null;
  };
  return {
    total: number(answer.headers.get('x-tec-total'), body?.total, answer.headers.get('x-wp-total')),
    totalPages: number(answer.headers.get('x-tec-totalpages'), body?.total_pages, answer.headers.get('x-wp-totalpages')),
  };
}

/** Why a list answer cannot be used; undefined when it can. */
export function listProblem(answer: SourceAnswer, resource: Resource): string | undefined {
  const body = answer.json as Record<string, unknown> | undefined;
  if (answer.status === 200 && body && Array.isArray(body[resource])) return undefined;
  if (answer.status === 200) return answer.html ? 'an HTML page instead of JSON' : `no "${resource}" list in the answer`;
  return errorSummary(answer);
}

/**
 * Reads one list, page after page, from `fromPage` on: the pages after the first are fetched
 * ahead (the client bounds how many at once) and handed over in order. `total_pages` (body or
 * `X-TEC-TotalPages`) says where it ends; a page past the end (404 on item lists) ends it too, and
 * so does a page without `next_rest_url` when the body has that key.
 */
export async function* readList(
  client: SourceClient,
  site: SourceSite,
  resource: Resource,
  options: { status?: string; fromPage?: number; anonymous?: boolean } = {},
): AsyncGenerator<ListPage> {
  const get = (page: number) => client.get(listUrl(site, resource, page, options.status), { anonymous: options.anonymous });
  const firstPage = Math.max(1, options.fromPage ?? 1);
  const first = await get(firstPage);
  if (first.status === 404 && firstPage > 1) return;
  const problem = listProblem(first, resource);
  if (problem) throw new ListRefused(first, `GET ${first.url}: ${problem}`);
  const { total, totalPages } = totalsOf(first);
  const pages = totalPages ?? firstPage;
  const ahead = new Map<number, Promise<SourceAnswer>>();
  const window = client.options.concurrency;
  let answer: SourceAnswer | undefined = first;
  for (let page = firstPage; page <= pages; page++) {
    for (let next = page + 1; next <= Math.min(pages, page + window); next++) {
      if (ahead.has(next)) continue;
      const fetching = get(next);
      // a page fetched ahead may fail before it is awaited: its error is taken when its turn comes
      fetching.catch(() => undefined);
      ahead.set(next, fetching);
    }
    if (!answer) {
      const fetched = await (ahead.get(page) ?? get(page));
      ahead.delete(page);
      if (fetched.status === 404) break;
      const pageProblem = listProblem(fetched, resource);
      if (pageProblem) {
        await Promise.allSettled(ahead.values());
        throw new SourceError(`GET ${fetched.url}: ${pageProblem}`);
      }
      answer = fetched;
    }
    const body = answer.json as Record<string, unknown>;
    const records = body[resource] as unknown[];
    yield { page, totalPages: pages, total, records };
    answer = undefined;
    if (records.length === 0 && (resource === 'categories' || resource === 'tags')) break;
  }
  await Promise.allSettled(ahead.values());
}

/** A list the source refused as a whole (a status filter these credentials may not use, say). */
export class ListRefused extends SourceError {
  constructor(
    readonly answer: SourceAnswer,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Why a record could not be read for this reader: `absent` (no such record of the kind: unknown id,
 * deleted for good, or another kind's id), `trashed` (in the trash at the source), `hidden` (it
 * exists, but these credentials may not read it: a draft for a visitor, a password).
 */
export type GoneWhy = 'absent' | 'trashed' | 'hidden';

export type SingleResult =
  { kind: 'found'; body: Record<string, unknown> } | { kind: 'gone'; why: GoneWhy; reason: string } | { kind: 'failed'; reason: string };

function goneWhy(answer: SourceAnswer): GoneWhy {
  const code = (answer.json as { code?: unknown } | undefined)?.code;
  if ([400, 404, 410].includes(answer.status)) return 'absent';
  return typeof code === 'string' && /no-longer-available|is-in-trash/.test(code) ? 'trashed' : 'hidden';
}

const SINGLE_PATH: Record<Resource, string> = {
  events: 'events',
  venues: 'venues',
  organizers: 'organizers',
  categories: 'categories',
  tags: 'tags',
};

/**
 * One record by id. An event the source keeps behind its password is asked for again with
 * `context=edit` (how the reference lets editors read it). Answers that mean "no such record for
 * this reader" (404, 400, 401, 403, 410) are `gone`, with why; a source that keeps failing is `failed`.
 */
export async function readSingle(
  client: SourceClient,
  site: SourceSite,
  resource: Resource,
  id: number,
  anonymous = false,
): Promise<SingleResult> {
  const url = `${site.api}/${SINGLE_PATH[resource]}/${id}`;
  let answer: SourceAnswer;
  try {
    answer = await client.get(url, { anonymous });
    const code = (answer.json as { code?: unknown } | undefined)?.code;
    if (answer.status === 403 && code === 'event-password-protected' && client.authenticated && !anonymous) {
      answer = await client.get(`${url}?context=edit`);
    }
  } catch (error) {
    if (error instanceof SourceError) return { kind: 'failed', reason: error.message };
    throw error;
  }
  const body = answer.json as Record<string, unknown> | undefined;
  if (answer.status === 200 && body && typeof body === 'object' && !Array.isArray(body) && body.id !== undefined)
    return { kind: 'found', body };
  if ([400, 401, 403, 404, 410].includes(answer.status)) return { kind: 'gone', why: goneWhy(answer), reason: errorSummary(answer) };
  return { kind: 'failed', reason: `GET ${url}: ${errorSummary(answer)}` };
}
