import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { map, type Observable } from 'rxjs';
import { siteDay } from '../common/dates/site-day.js';
import type { HttpConfig, LimitsConfig, SiteConfig } from '../config/app-config.js';
import { REPRESENTATION_HEADERS } from '../common/http/entity-tags.js';
import { TextAnswer } from '../common/http/text-answer.js';
import { JSON_CONTENT_TYPE, SerializedJson, writeBytes } from '../http/api-express.adapter.js';
import { endNotModified, isNotModified, type ReadCaching, setReadHeaders } from '../http/conditional-reads.js';
import { DataVersionService } from './data-version.service.js';

interface Entry {
  version: string;
  body: Buffer;
  contentType: string;
  /** The answer's entity tag, computed once when it was built: a hit or a revalidation never hashes. */
  etag: string;
  lastModified: string | undefined;
  /** Representation headers (totals, links, truncation), replayed on a 200. */
  headers: Array<[string, string]>;
  allow: string | undefined;
}

/** Work that must happen before any cached read is answered (publishing scheduled items). */
export interface BeforeCachedRead {
  beforeRead(): Promise<void>;
}
export const BEFORE_CACHED_READ = Symbol('before-cached-read');

const MAX_BYTES = 64 * 1024 * 1024;

/**
 * A miss being built: the interceptor hands it the serialized body and the representation headers
 * the handler set (taken then, because a 304 leaves them out of the answer itself).
 */
interface Build {
  body: Buffer | null;
  contentType: string;
  headers: Array<[string, string]>;
  lastModified: string | undefined;
}
const BUILD = Symbol('response-cache-build');
type CachedRequest = Request & { [BUILD]?: Build };

/**
 * Answers anonymous reads from memory while the data version they were built from is current.
 * Only anonymous requests without a `password` are cached, so no requester ever sees what another
 * may see; answers that depend on the clock beyond the day (`only_with_upcoming`) are not cached.
 * Requests that miss on the same answer at the same version while it is being built wait for it
 * (`X-Cache: SHARED`) instead of building it again, so a write under load costs one rebuild per
 * answer, not one per waiting request. Entries keep their entity tag: a revalidation
 * (`If-None-Match`) that matches is answered 304 from the entry without hashing or writing the body.
 * Runs as the last middleware, after routing and parsing.
 */
@Injectable()
export class ResponseCacheMiddleware implements NestMiddleware {
  private readonly cache: LRUCache<string, Entry>;
  private readonly building = new Map<string, Promise<Entry | null>>();
  private readonly today: () => string;
  private readonly caching: ReadCaching;

  constructor(
    private readonly version: DataVersionService,
    @Inject(BEFORE_CACHED_READ) private readonly hooks: BeforeCachedRead,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.today = siteDay(config.getOrThrow<SiteConfig>('site').timezone);
    this.caching = { maxAgeSeconds: config.getOrThrow<HttpConfig>('http').cacheMaxAgeSeconds };
    const entries = config.getOrThrow<LimitsConfig>('limits').responseCacheEntries;
    this.cache = new LRUCache<string, Entry>({ max: entries, maxSize: MAX_BYTES, sizeCalculation: (entry) => entry.body.length + 64 });
  }

  async use(req: CachedRequest, res: Response, next: NextFunction): Promise<void> {
    if (req.method !== 'GET' || !req.ctx.route || req.ctx.user || /[?&](password|only_with_upcoming)=/.test(req.url)) return next();
    const key = `${req.ctx.edition}|${this.today()}|${req.url}`;
    await this.hooks.beforeRead();
    const version = await this.version.current();
    const hit = this.cache.get(key);
    if (hit && hit.version === version) return this.send(req, res, hit, 'HIT');
    const pending = this.building.get(`${version}|${key}`);
    const shared = pending ? await pending : null;
    if (shared) return this.send(req, res, shared, 'SHARED');
    this.build(req, res, key, version);
    next();
  }

  private build(req: CachedRequest, res: Response, key: string, version: string): void {
    const flight = `${version}|${key}`;
    const build: Build = { body: null, contentType: JSON_CONTENT_TYPE, headers: [], lastModified: undefined };
    let finish: (entry: Entry | null) => void = () => undefined;
    const promise = new Promise<Entry | null>((resolve) => {
      finish = (entry) => {
        if (this.building.get(flight) === promise) this.building.delete(flight);
        resolve(entry);
      };
    });
    this.building.set(flight, promise);
    req[BUILD] = build;
    res.setHeader('X-Cache', 'MISS');
    res.once('finish', () => {
      // a 304 to a revalidating client is built from the whole answer too: keep it
      const etag = res.getHeader('ETag');
      if ((res.statusCode !== 200 && res.statusCode !== 304) || !build.body || typeof etag !== 'string') return finish(null);
      const allow = res.getHeader('Allow');
      const entry: Entry = {
        version,
        body: build.body,
        contentType: build.contentType,
        etag,
        lastModified: build.lastModified,
        headers: build.headers,
        allow: allow === undefined ? undefined : String(allow),
      };
      this.cache.set(key, entry);
      finish(entry);
    });
    res.once('close', () => finish(null));
  }

  /** A cached answer: 304 when the requester's copy is current (validators only), else the stored bytes. */
  private send(req: Request, res: Response, entry: Entry, state: 'HIT' | 'SHARED'): void {
    res.setHeader('X-Cache', state);
    res.status(200);
    setReadHeaders(res, entry.etag, this.caching);
    if (entry.lastModified !== undefined) res.setHeader('Last-Modified', entry.lastModified);
    if (entry.allow !== undefined) res.setHeader('Allow', entry.allow);
    if (isNotModified(req, entry.etag, entry.lastModified)) return endNotModified(res);
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    writeBytes(res, entry.body, entry.contentType);
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
        build.headers = REPRESENTATION_HEADERS.filter((name) => res.getHeader(name) !== undefined).map(
          (name) => [name, String(res.getHeader(name))] as [string, string],
        );
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
