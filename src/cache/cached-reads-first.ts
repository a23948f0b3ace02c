import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isNotModified } from '../http/conditional-reads.js';
import { cachedAnswerHeaders, type Entry, flatHeaders, ResponseCacheStore, type Shortcut } from './response-cache-store.js';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts the response cache in front of the framework: the server's own request handler answers a
 * request itself when an identical one (same target, same `Origin`, anonymous, no body) was answered
 * from the cache before and the entry is still current at the shared data version, read for this
 * request as the cache middleware reads it (after publishing due scheduled items). It writes what
 * the whole pipeline would have written: the headers the steps before the cache set for that
 * request, then the entry's validators, caching and representation headers and bytes, or a `304`
 * when the requester's copy is current. Every other request, and any request whose check fails,
 * goes to the framework unchanged. `onAnswer` is called for each request answered here (the
 * request log).
 */
export function answerCachedReadsFirst(
  server: Server,
  store: ResponseCacheStore,
  onAnswer: (req: IncomingMessage, res: ServerResponse) => void = () => undefined,
): void {
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) throw new Error(`Expected one request handler on the server, found ${listeners.length}.`);
  const [framework] = listeners;
  server.removeListener('request', framework);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const shortcut = store.shortcutFor(req);
    if (!shortcut) return framework.call(server, req, res);
    void answer(req, res, store, store.key(shortcut.edition, shortcut.url), shortcut, onAnswer).then(
      (answered) => answered || framework.call(server, req, res),
      // only a fault while writing gets here, with the answer begun: the connection cannot be reused
      () => res.destroy(),
    );
  });
}

type Flat = ReturnType<typeof flatHeaders>;
const MAX_SHAPES_PER_ENTRY = 16;

/** The headers of each entry's answers per shortcut, worked out once: `[200, 304]`. */
const prepared = new WeakMap<Entry, Map<Shortcut, Flat[]>>();

function headersOf(entry: Entry, shortcut: Shortcut, store: ResponseCacheStore, notModified: boolean): Flat {
  let perShortcut = prepared.get(entry);
  if (!perShortcut) prepared.set(entry, (perShortcut = new Map<Shortcut, Flat[]>()));
  let both = perShortcut.get(shortcut);
  if (!both) {
    // a few request shapes share an entry (origins, spellings of the target): keep the memo small
    if (perShortcut.size >= MAX_SHAPES_PER_ENTRY) perShortcut.clear();
    both = [false, true].map((revalidated) => flatHeaders(cachedAnswerHeaders(shortcut.headers, entry, 'HIT', store.caching, revalidated)));
    perShortcut.set(shortcut, both);
  }
  return both[notModified ? 1 : 0];
}

/**
 * Answers from the entry under `key` when it is current; false when the framework must answer
 * (no current entry, or a failed check, which the framework reports as it would any other, e.g.
 * 503 while the database is down).
 */
async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  store: ResponseCacheStore,
  key: string,
  shortcut: Shortcut,
  onAnswer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<boolean> {
  let version: string;
  try {
    version = await store.currentVersion();
  } catch {
    return false;
  }
  const entry = store.fresh(key, version);
  if (!entry) return false;
  onAnswer(req, res);
  const notModified = isNotModified(req, entry.etag, entry.lastModified);
  res.writeHead(notModified ? 304 : 200, headersOf(entry, shortcut, store, notModified));
  res.end(notModified ? undefined : entry.body);
  return true;
}
