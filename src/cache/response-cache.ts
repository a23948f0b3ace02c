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

/**
 * Answers anonymous reads from memory while the data version they were built from is current.
 * Only anonymous requests without a `password` are cached, so no requester ever sees what another
 * may see; answers that depend on the clock beyond the day (`only_with_upcoming`) are not cached.
 */
export function responseCache(deps: ResponseCacheDeps): RequestHandler {
  const cache = new LRUCache<string, Entry>({ max: deps.entries, maxSize: MAX_BYTES, sizeCalculation: (entry) => entry.body.length + 64 });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || !req.ctx?.route || req.ctx.user || /[?&](password|only_with_upcoming)=/.test(req.url)) return next();
    const key = `${req.ctx.edition}|${deps.today()}|${req.url}`;
    deps
      .beforeRead()
      .then(() => deps.version.current())
      .then((version) => {
        const hit = cache.get(key);
        if (hit && hit.version === version) {
          for (const [name, value] of hit.headers) res.setHeader(name, value);
          res.setHeader('X-Cache', 'HIT');
          res.status(200).type('application/json').end(hit.body);
          return;
        }
        res.setHeader('X-Cache', 'MISS');
        const json = res.json.bind(res);
        res.json = (body: unknown) => {
          if (res.statusCode === 200) {
            const text = JSON.stringify(body);
            const headers = KEPT_HEADERS.filter((name) => res.getHeader(name) !== undefined).map((name) => [name, String(res.getHeader(name))] as [string, string]);
            cache.set(key, { version, body: text, headers });
            res.type('application/json');
            return res.send(text);
          }
          return json(body);
        };
        next();
      })
      .catch(next);
  };
}
