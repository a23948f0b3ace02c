import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { entityTag, REPRESENTATION_HEADERS } from '../common/http/entity-tags.js';
import { singleItemLastModified } from '../common/http/last-modified.interceptor.js';
import type { LimitsConfig } from '../config/app-config.js';
import { answerWrite, type ItemWritesFirst, type WritesFirstDeps } from '../http/item-writes-first.js';
import { allowedMethods } from '../http/allow.js';
import { JSON_CONTENT_TYPE } from '../http/api-express.adapter.js';
import type { ReadCaching } from '../http/conditional-reads.js';
import { contextFor, type ItemReadsFirst, type ItemTemplate } from './item-reads-first.js';
import { cachedAnswerHeaders, type Entry, flatHeaders, ResponseCacheStore, type Shortcut, writeEntry } from './response-cache-store.js';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
type OnAnswer = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Whether the server's own request handler answers reads before the framework: not with a request
 * limit, which must count every request in the pipeline.
 */
export function answersBeforeFramework(limits: Pick<LimitsConfig, 'requestsPerMinute'>): boolean {
  return limits.requestsPerMinute === 0;
}

export interface ReadsFirstOptions {
  /** The response cache, or null when it is off. */
  store: ResponseCacheStore | null;
  items: ItemReadsFirst;
  caching: ReadCaching;
  /** Authenticated writes of single items made here too (`http/item-writes-first.ts`), or null. */
  writes?: (WritesFirstDeps & { items: ItemWritesFirst }) | null;
  /** Called for each request answered here (the request log). */
  onAnswer?: OnAnswer;
}

/**
 * Puts two kinds of anonymous reads in front of the framework, in the server's own request
 * handler; every other request, and any of these whose check fails, goes to the framework
 * unchanged.
 *
 * - Cached answers: a request identical to one answered from the response cache before (same
 *   target, same `Origin`, anonymous, no body) whose entry is still current at the shared data
 *   version, read for this request as the cache middleware reads it (after publishing due
 *   scheduled items).
 * - Single items by id (`ItemReadsFirst`): a request of the same shape as one that went through
 *   the pipeline, with another id; its reader's `200` is built here (and kept in the response
 *   cache when it is on, as a miss of the pipeline would be), anything else goes to the framework.
 *
 * Either writes what the whole pipeline would have written: the headers the steps before the
 * handler set for that request shape, then the answer's validators, caching and representation
 * headers and bytes, or a `304` when the requester's copy is current.
 *
 * With `writes`, authenticated writes of single items of a learned shape are made here too
 * (`http/item-writes-first.ts`).
 */
export function answerReadsFirst(server: Server, options: ReadsFirstOptions): void {
  const { store, items, writes, onAnswer = () => undefined } = options;
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) throw new Error(`Expected one request handler on the server, found ${listeners.length}.`);
  const [framework] = listeners;
  server.removeListener('request', framework);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const write = writes?.items.templateFor(req);
    if (write) {
      void answerWrite(req, res, write, writes as WritesFirstDeps, onAnswer).then(
        (answered) => answered || framework.call(server, req, res),
        () => res.destroy(),
      );
      return;
    }
    const item = items.templateFor(req);
    const shortcut = item || !store ? undefined : store.shortcutFor(req);
    if (!item && !shortcut) return framework.call(server, req, res);
    const work = item
      ? answerItem(req, res, item.template, item.id, options)
      : answerCached(req, res, store as ResponseCacheStore, shortcut as Shortcut, onAnswer);
    void work.then(
      (answered) => answered || framework.call(server, req, res),
      // only a fault while writing gets here, with the answer begun: the connection cannot be reused
      () => res.destroy(),
    );
  });
}

type Flat = ReturnType<typeof flatHeaders>;
const MAX_SHAPES_PER_ENTRY = 16;

/** The headers of each entry's answers per request shape, worked out once: `[200, 304]`. */
const prepared = new WeakMap<Entry, Map<object, Flat[]>>();

function headersOf(entry: Entry, shape: Shortcut | ItemTemplate, caching: ReadCaching, notModified: boolean): Flat {
  let perShape = prepared.get(entry);
  if (!perShape) prepared.set(entry, (perShape = new Map<object, Flat[]>()));
  let both = perShape.get(shape);
  if (!both) {
    // a few request shapes share an entry (origins, spellings of the target): keep the memo small
    if (perShape.size >= MAX_SHAPES_PER_ENTRY) perShape.clear();
    both = [false, true].map((revalidated) => flatHeaders(cachedAnswerHeaders(shape.headers, entry, 'HIT', caching, revalidated)));
    perShape.set(shape, both);
  }
  return both[notModified ? 1 : 0];
}

/** Writes `entry` as a `HIT` (headers from the memo), or in another state (`SHARED`, `MISS`, none). */
function send(
  req: IncomingMessage,
  res: ServerResponse,
  entry: Entry,
  shape: Shortcut | ItemTemplate,
  state: 'HIT' | 'SHARED' | 'MISS' | null,
  caching: ReadCaching,
): void {
  writeEntry(req, res, entry, (notModified) =>
    state === 'HIT'
      ? headersOf(entry, shape, caching, notModified)
      : flatHeaders(cachedAnswerHeaders(shape.headers, entry, state, caching, notModified)),
  );
}

/**
 * Answers from the cache entry of a request seen before, when it is current; false when the
 * framework must answer (no current entry, or a failed check, which the framework reports as it
 * would any other, e.g. 503 while the database is down).
 */
async function answerCached(
  req: IncomingMessage,
  res: ServerResponse,
  store: ResponseCacheStore,
  shortcut: Shortcut,
  onAnswer: OnAnswer,
): Promise<boolean> {
  let version: string;
  try {
    version = await store.currentVersion();
  } catch {
    return false;
  }
  const entry = store.fresh(store.key(shortcut.edition, shortcut.url), version);
  if (!entry) return false;
  onAnswer(req, res);
  send(req, res, entry, shortcut, 'HIT', store.caching);
  return true;
}

const REPRESENTATION = new Set<string>(REPRESENTATION_HEADERS);

/**
 * The answer of a single item read as the pipeline builds it: the payload serialized once, its
 * entity tag over the representation headers and the bytes, `Last-Modified` and `Allow` as the
 * interceptors set them. Null when the reader has no `200` (or fails): the framework answers.
 */
async function buildItem(template: ItemTemplate, id: string, version: string): Promise<Entry | null> {
  const ctx = contextFor(template, id);
  const read = await template.read(Number(id), ctx).catch(() => null);
  if (!read) return null;
  const body = Buffer.from(JSON.stringify(read.body));
  const headers = template.headers.filter(([name]) => REPRESENTATION.has(name.toLowerCase()));
  const valueOf = (name: string) => headers.find(([other]) => other.toLowerCase() === name)?.[1];
  return {
    version,
    body,
    contentType: JSON_CONTENT_TYPE,
    etag: entityTag(body, valueOf),
    lastModified: singleItemLastModified(read.body),
    headers,
    allow: allowedMethods(template.context.route, null, read.subject).join(', '),
  };
}

/**
 * Answers a single item read of a learned shape. With the response cache on, as the cache
 * middleware would: a current entry (`HIT`), one being built by another request (`SHARED`), one
 * another app replica built (Redis), else a new one built from data at least as new as the
 * version read first (`MISS`), kept for the next requests. False when the framework must answer.
 */
async function answerItem(
  req: IncomingMessage,
  res: ServerResponse,
  template: ItemTemplate,
  id: string,
  options: ReadsFirstOptions,
): Promise<boolean> {
  const { store, caching, onAnswer = () => undefined } = options;
  if (!store) {
    const entry = await buildItem(template, id, '');
    if (!entry) return false;
    onAnswer(req, res);
    send(req, res, entry, template, null, caching);
    return true;
  }
  let version: string;
  try {
    version = await store.currentVersion();
  } catch {
    return false;
  }
  const key = store.key(template.edition, template.url + id);
  const hit = store.fresh(key, version);
  const found = hit ? { entry: hit, state: 'HIT' as const } : await store.elsewhere(key, version);
  if (found) {
    onAnswer(req, res);
    send(req, res, found.entry, template, found.state, store.caching);
    return true;
  }
  const finish = store.startBuild(key, version);
  let entry: Entry | null = null;
  try {
    entry = await buildItem(template, id, version);
  } finally {
    finish(entry);
  }
  if (!entry) return false;
  onAnswer(req, res);
  send(req, res, entry, template, 'MISS', store.caching);
  return true;
}
