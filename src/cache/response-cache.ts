import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { DataVersionService } from './data-version.service.js';

interface Entry {
  version: string;
  body: string;
  headers: Array<[string, string]>;
}

const KEPT_HEADERS = ['x-tec-total', 'x-tec-totalpages'];
const MAX_BYTES = 64 * 1024 * 1024;

export interface ResponseCacheDeps {
  version: DataVersionService;
  /** Work that must happen before any read (publishing scheduled items). */
  beforeRead: () => Promise<void>;
  /** The site's current date: default date windows move with it. */
  today: () => string;
  entries: number;
}

function send(res: Response, entry: Entry, state: 'HIT' | 'SHARED'): void {
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader('X-Cache', state);
  res.status(200).type('application/json').end(entry.body);
}

/**
 * Answers anonymous reads from memory while the data version they were built from is current.
 * Only anonymous requests without a `password` are cached, so no requester ever sees what another
 * may see; answers that depend on the clock beyond the day (`only_with_upcoming`) are not cached.
 * Requests that miss on the same answer at the same version while it is being built wait for it
 * (`X-Cache: SHARED`) instead of building it again, so a write under load costs one rebuild per
 * answer, not one per waiting request.
 */
export function responseCache(deps: ResponseCacheDeps): RequestHandler {
  const cache = new LRUCache<string, Entry>({ max: deps.entries, maxSize: MAX_BYTES, sizeCalculation: (entry) => entry.body.length + 64 });
  const building = new Map<string, Promise<Entry | null>>();

  const build = (res: Response, next: NextFunction, key: string, version: string) => {
    let finish: (entry: Entry | null) => void = () => undefined;
    const flight = `${version}|${key}`;
    const promise = new Promise<Entry | null>((resolve) => {
      finish = (entry) => {
        if (building.get(flight) === promise) building.delete(flight);
        resolve(entry);
      };
    });
    building.set(flight, promise);
    res.on('close', () => finish(null));
    res.setHeader('X-Cache', 'MISS');
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode !== 200) {
        finish(null);
        return json(body);
      }
      const text = JSON.stringify(body);
      const headers = KEPT_HEADERS.filter((name) => res.getHeader(name) !== undefined).map(
        (name) => [name, String(res.getHeader(name))] as [string, string],
      );
      const entry = { version, body: text, headers };
      cache.set(key, entry);
      finish(entry);
      res.type('application/json');
      return res.send(text);
    };
    next();
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || !req.ctx?.route || req.ctx.user || /[?&](password|only_with_upcoming)=/.test(req.url)) return next();
    const key = `${req.ctx.edition}|${deps.today()}|${req.url}`;
    deps
      .beforeRead()
      .then(() => deps.version.current())
      .then(async (version) => {
        const hit = cache.get(key);
        if (hit && hit.version === version) return send(res, hit, 'HIT');
        const pending = building.get(`${version}|${key}`);
        const shared = pending ? await pending : null;
        if (shared) return send(res, shared, 'SHARED');
        build(res, next, key, version);
      })
      .catch(next);
  };
}
