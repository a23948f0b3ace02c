import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LRUCache } from 'lru-cache';
import { siteDay } from '../common/dates/site-day.js';
import { onPrimary } from '../common/sql/read-routing.js';
import type { DatabaseConfig, HttpConfig, LimitsConfig, SiteConfig } from '../config/app-config.js';
import { sizeProblem } from '../http/client-errors.js';
import { BODY_HEADERS, isNotModified, publicRead, READ_VARY, type ReadCaching } from '../http/conditional-reads.js';
import { DataVersionService } from './data-version.service.js';
import type { Entry } from './cache-entry.js';
import { SharedAnswers } from './shared-answers.js';

export type { Entry } from './cache-entry.js';

/**
 * What the request pipeline decided for one request as sent (target and `Origin`): the edition
 * and canonical URL of its cache key, and the headers the steps before the cache had set (edition,
 * security, CORS), names spelled as they were set.
 */
export interface Shortcut {
  edition: string;
  url: string;
  headers: Array<[string, OutgoingHttpHeader]>;
}

/** Work that must happen before any cached read is answered (publishing scheduled items). */
export interface BeforeCachedRead {
  beforeRead(): Promise<void>;
}
export const BEFORE_CACHED_READ = Symbol('before-cached-read');

const MAX_BYTES = 64 * 1024 * 1024;

/**
 * The response cache's memory, shared by the cache middleware (which builds and stores answers)
 * and the server's own request handler (which answers repeated anonymous reads before the
 * framework runs, `reads-first.ts`). An entry is current only while the shared data
 * version it was built at is the database's; the version is read for every answer.
 */
@Injectable()
export class ResponseCacheStore implements OnApplicationShutdown {
  readonly entries: LRUCache<string, Entry>;
  /** Answers shared with the other app replicas through Redis (`REDIS_URL`), or null. */
  readonly shared: SharedAnswers | null;
  /** Answers being built, by version and key: concurrent misses wait for them. */
  private readonly building = new Map<string, Promise<Entry | null>>();
  readonly caching: ReadCaching;
  private readonly shortcuts: LRUCache<string, Shortcut>;
  private readonly today: () => string;
  private readonly limits: HttpConfig;

  constructor(
    private readonly version: DataVersionService,
    @Inject(BEFORE_CACHED_READ) private readonly hooks: BeforeCachedRead,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.today = siteDay(config.getOrThrow<SiteConfig>('site').timezone);
    this.limits = config.getOrThrow<HttpConfig>('http');
    this.caching = { maxAgeSeconds: this.limits.cacheMaxAgeSeconds };
    const limits = config.getOrThrow<LimitsConfig>('limits');
    const max = limits.responseCacheEntries;
    const database = config.getOrThrow<DatabaseConfig>('database');
    this.shared =
      limits.responseCache && limits.redisUrl
        ? new SharedAnswers(limits.redisUrl, limits.redisKeyPrefix, database.kind === 'mysql' ? database.url : resolve(database.path))
        : null;
    this.entries = new LRUCache<string, Entry>({ max, maxSize: MAX_BYTES, sizeCalculation: (entry) => entry.body.length + 64 });
    this.shortcuts = new LRUCache<string, Shortcut>({ max });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.shared?.close();
  }

  /** The key of an answer: edition, the site's day (relative dates), the canonical URL. */
  key(edition: string, url: string): string {
    return `${edition}|${this.today()}|${url}`;
  }

  /** Scheduled items published, then the shared data version, read after this call began. */
  async currentVersion(): Promise<string> {
    await onPrimary(() => this.hooks.beforeRead());
    return this.version.current();
  }

  /** The entry under `key` when it was built at `version`. */
  fresh(key: string, version: string): Entry | undefined {
    const entry = this.entries.get(key);
    return entry?.version === version ? entry : undefined;
  }

  /**
   * After a miss on this process's entries: the entry another request is building under `key` at
   * `version` (`SHARED`, once built), else one another app replica built (Redis, kept here too),
   * else null: the caller builds it ({@link startBuild}).
   */
  async elsewhere(key: string, version: string): Promise<{ entry: Entry; state: 'HIT' | 'SHARED' } | null> {
    const pending = this.building.get(flightOf(key, version));
    const shared = pending ? await pending : null;
    if (shared) return { entry: shared, state: 'SHARED' };
    const remote = await this.shared?.get(key, version);
    if (!remote) return null;
    if (!this.fresh(key, version)) this.entries.set(key, remote);
    return { entry: remote, state: 'HIT' };
  }

  /**
   * Announces that the answer under `key` is being built at `version`, so that concurrent misses
   * wait for it ({@link elsewhere}). The result ends the build: with the entry, which is kept here
   * and shared with the other replicas, or with null (nothing to keep); calls after the first do
   * nothing.
   */
  startBuild(key: string, version: string): (entry: Entry | null) => void {
    const flight = flightOf(key, version);
    let resolve: (entry: Entry | null) => void = () => undefined;
    const promise = new Promise<Entry | null>((done) => (resolve = done));
    this.building.set(flight, promise);
    let ended = false;
    return (entry) => {
      if (ended) return;
      ended = true;
      if (this.building.get(flight) === promise) this.building.delete(flight);
      if (entry) {
        this.entries.set(key, entry);
        this.shared?.set(key, entry);
      }
      resolve(entry);
    };
  }

  /**
   * Keeps what the pipeline decided for a request that a cached answer served, when the request
   * is one the server's own handler may answer next time (see `shortcutFor`).
   */
  remember(req: IncomingMessage, target: string, shortcut: Shortcut): void {
    if (isPlainAnonymousGet(req, target, this.limits)) this.shortcuts.set(shortcutKey(req, target), shortcut);
  }

  /**
   * The pipeline's decision for a request as sent, when an identical one (same target, same
   * `Origin`) was an anonymous cached read before: a `GET` without credentials, without a body and
   * within the size limits. Anything else takes the whole pipeline.
   */
  shortcutFor(req: IncomingMessage): Shortcut | undefined {
    const target = req.url ?? '';
    return isPlainAnonymousGet(req, target, this.limits) ? this.shortcuts.get(shortcutKey(req, target)) : undefined;
  }
}

/**
 * A `GET` the server's own request handler may answer before the framework: no credentials, no
 * body, within the size limits (`target`: the request target as sent; the pipeline rewrites
 * `req.url` on its way).
 */
export function isPlainAnonymousGet(req: IncomingMessage, target: string, limits: HttpConfig): boolean {
  const headers = req.headers;
  return (
    req.method === 'GET' &&
    headers.authorization === undefined &&
    headers['content-length'] === undefined &&
    headers['transfer-encoding'] === undefined &&
    sizeProblem(target, req.rawHeaders, limits) === null
  );
}

function flightOf(key: string, version: string): string {
  return `${version}|${key}`;
}

function shortcutKey(req: IncomingMessage, target: string): string {
  const origin = req.headers.origin;
  return `${origin === undefined ? '-' : `+${origin}`}\n${target}`;
}

/** The headers set on an answer so far, with their names spelled as they were set. */
export function headersSoFar(res: ServerResponse): Array<[string, OutgoingHttpHeader]> {
  // `getRawHeaderNames` (Node ≥ 15.13) is missing from the installed type definitions
  const names = (res as ServerResponse & { getRawHeaderNames(): string[] }).getRawHeaderNames();
  return names.map((name) => [name, res.getHeader(name) as OutgoingHttpHeader]);
}

export type HeaderList = Array<[string, OutgoingHttpHeader]>;
const NOT_MODIFIED_OMITS = new Set(BODY_HEADERS);

/** `name` set in `list` as `setHeader` sets it on an answer: a header of the same name is replaced. */
function put(list: HeaderList, name: string, value: OutgoingHttpHeader): void {
  const lower = name.toLowerCase();
  const at = list.findIndex(([other]) => other.toLowerCase() === lower);
  if (at === -1) list.push([name, value]);
  else list[at] = [name, value];
}

/**
 * The headers of a cached answer: `base` (what the steps before the cache set), then the entry's
 * validators and caching headers, and for a `200` its representation headers and the body's type
 * and length; a `304` leaves out what describes a body (RFC 9110 §15.4.5). `state`: the `X-Cache`
 * report, none for an answer built while the cache is off.
 */
export function cachedAnswerHeaders(
  base: HeaderList,
  entry: Entry,
  state: 'HIT' | 'SHARED' | 'MISS' | null,
  caching: ReadCaching,
  notModified: boolean,
): HeaderList {
  const list: HeaderList = [...base];
  if (state !== null) put(list, 'X-Cache', state);
  put(list, 'ETag', entry.etag);
  put(list, 'Cache-Control', publicRead(caching));
  put(list, 'Vary', READ_VARY);
  if (entry.lastModified !== undefined) put(list, 'Last-Modified', entry.lastModified);
  if (entry.allow !== undefined) put(list, 'Allow', entry.allow);
  if (notModified) return list.filter(([name]) => !NOT_MODIFIED_OMITS.has(name.toLowerCase()));
  for (const [name, value] of entry.headers) put(list, name, value);
  put(list, 'Content-Type', entry.contentType);
  put(list, 'Content-Length', String(entry.body.length));
  return list;
}

/** Headers as `writeHead` takes them fastest: names and values in one flat list. */
export type FlatHeaders = Array<string | number | string[]>;

/** {@link FlatHeaders} of a list of pairs. */
export function flatHeaders(list: HeaderList): FlatHeaders {
  return list.flatMap(([name, value]) => [name, value]);
}

/**
 * Writes a cached answer: `304` with its validators when the requester's copy is current, else the
 * stored bytes; `headersFor` gives the headers of either (`notModified`).
 */
export function writeEntry(
  req: IncomingMessage,
  res: ServerResponse,
  entry: Entry,
  headersFor: (notModified: boolean) => Array<string | number | string[]>,
): void {
  const notModified = isNotModified(req, entry.etag, entry.lastModified);
  res.writeHead(notModified ? 304 : 200, headersFor(notModified));
  res.end(notModified ? undefined : entry.body);
}

/**
 * A cached answer from the cache middleware: `304` when the requester's copy is current
 * (validators only), else the stored bytes; the headers set so far are kept.
 */
export function answerFromEntry(
  req: IncomingMessage,
  res: ServerResponse,
  entry: Entry,
  state: 'HIT' | 'SHARED',
  caching: ReadCaching,
): void {
  const base = headersSoFar(res);
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  writeEntry(req, res, entry, (notModified) => flatHeaders(cachedAnswerHeaders(base, entry, state, caching, notModified)));
}
