import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import { REPRESENTATION_HEADERS } from '../common/http/entity-tags.js';
import { TextAnswer } from '../common/http/text-answer.js';
import { requireDataVersion } from '../common/sql/read-routing.js';
import { JSON_CONTENT_TYPE, SerializedJson } from '../http/api-express.adapter.js';
import { answerFromEntry, type Entry, headersSoFar, ResponseCacheStore, type Shortcut } from './response-cache-store.js';

/**
 * A miss being built: the interceptor hands it the serialized body and the representation headers
 * the handler set (taken then, because a 304 leaves them out of the answer itself).
 */
interface Build {
  body: Buffer | null;
  contentType: string;
  headers: Entry['headers'];
  lastModified: string | undefined;
}
const BUILD = Symbol('response-cache-build');
const REPRESENTATION = new Set<string>(REPRESENTATION_HEADERS);
type CachedRequest = Request & { [BUILD]?: Build };

/**
 * Answers anonymous reads from memory while the data version they were built from is current.
 * Only anonymous requests without a `password` are cached, so no requester ever sees what another
 * may see; answers that depend on the clock beyond the day (`only_with_upcoming`) are not cached.
 * Requests that miss on the same answer at the same version while it is being built wait for it
 * (`X-Cache: SHARED`) instead of building it again, so a write under load costs one rebuild per
 * answer, not one per waiting request. Entries keep their entity tag: a revalidation
 * (`If-None-Match`) that matches is answered 304 from the entry without hashing or writing the body.
 * Runs as the last middleware, after routing and parsing; what it learns about a request (edition,
 * canonical URL, headers of the steps before it) lets the server answer the next identical one
 * before the framework runs (`reads-first.ts`).
 */
@Injectable()
export class ResponseCacheMiddleware implements NestMiddleware {
  constructor(private readonly store: ResponseCacheStore) {}

  async use(req: CachedRequest, res: Response, next: NextFunction): Promise<void> {
    if (req.method !== 'GET' || !req.ctx.route || req.ctx.user || /[?&](password|only_with_upcoming)=/.test(req.url)) return next();
    const shortcut: Shortcut = { edition: req.ctx.edition, url: req.url, headers: headersSoFar(res) };
    const key = this.store.key(shortcut.edition, shortcut.url);
    const version = await this.store.currentVersion();
    const hit = this.store.fresh(key, version);
    if (hit) return this.send(req, res, hit, 'HIT', shortcut);
    // another request of this process, or another app replica (Redis), may have built it at this version
    const found = await this.store.elsewhere(key, version);
    if (found) return this.send(req, res, found.entry, found.state, shortcut);
    // A client that went away while this waited gets nothing; no build either: its end (the response's
    // `finish` or `close`) has passed already, so it would never end and the next misses would wait for it.
    if (res.destroyed) return;
    // an entry current at this version is built from a server that holds it (a lagging replica does not)
    requireDataVersion(version);
    this.build(req, res, key, version, shortcut);
    next();
  }

  private build(req: CachedRequest, res: Response, key: string, version: string, shortcut: Shortcut): void {
    const build: Build = { body: null, contentType: JSON_CONTENT_TYPE, headers: [], lastModified: undefined };
    const finish = this.store.startBuild(key, version);
    req[BUILD] = build;
    res.setHeader('X-Cache', 'MISS');
    res.once('finish', () => {
      // a 304 to a revalidating client is built from the whole answer too: keep it
      const etag = res.getHeader('ETag');
      if ((res.statusCode !== 200 && res.statusCode !== 304) || !build.body || typeof etag !== 'string') return finish(null);
      const allow = res.getHeader('Allow');
      this.store.remember(req, req.originalUrl, shortcut);
      finish({
        version,
        body: build.body,
        contentType: build.contentType,
        etag,
        lastModified: build.lastModified,
        headers: build.headers,
        allow: allow === undefined ? undefined : String(allow),
      });
    });
    res.once('close', () => finish(null));
  }

  private send(req: Request, res: Response, entry: Entry, state: 'HIT' | 'SHARED', shortcut: Shortcut): void {
    this.store.remember(req, req.originalUrl, shortcut);
    answerFromEntry(req, res, entry, state, this.store.caching);
  }
}

/** Serializes the answer of a request the cache is building once, for the client and the cache alike. */
@Injectable()
export class ResponseCacheInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const build = context.switchToHttp().getRequest<CachedRequest>()[BUILD];
    if (!build) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((body: unknown) => {
        build.headers = headersSoFar(res).filter(([name]) => REPRESENTATION.has(name.toLowerCase()));
        const lastModified = res.getHeader('Last-Modified');
        build.lastModified = lastModified === undefined ? undefined : String(lastModified);
        if (body instanceof TextAnswer) {
          build.body = Buffer.from(body.text);
          build.contentType = body.contentType;
          return body;
        }
        build.body = Buffer.from(JSON.stringify(body));
        return new SerializedJson(build.body);
      }),
    );
  }
}
