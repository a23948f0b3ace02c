import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { map, type Observable } from 'rxjs';
import { siteDay } from '../common/dates/site-day.js';
import type { LimitsConfig, SiteConfig } from '../config/app-config.js';
import { TextAnswer } from '../common/http/text-answer.js';
import { JSON_CONTENT_TYPE, SerializedJson, sendBytes } from '../http/api-express.adapter.js';
import { DataVersionService } from './data-version.service.js';

interface Entry {
  version: string;
  body: Buffer;
  contentType: string;
  headers: Array<[string, string]>;
}

/** Work that must happen before any cached read is answered (publishing scheduled items). */
export interface BeforeCachedRead {
  beforeRead(): Promise<void>;
}
export const BEFORE_CACHED_READ = Symbol('before-cached-read');

const KEPT_HEADERS = ['x-tec-total', 'x-tec-totalpages', 'x-wp-total', 'x-wp-totalpages', 'link', 'x-ics-truncated', 'allow'];
const MAX_BYTES = 64 * 1024 * 1024;

/** A miss being built: the interceptor hands it the serialized body. */
interface Build {
  body: Buffer | null;
  contentType: string;
}
const BUILD = Symbol('response-cache-build');
type CachedRequest = Request & { [BUILD]?: Build };

/**
 * Answers anonymous reads from memory while the data version they were built from is current.
 * Only anonymous requests without a `password` are cached, so no requester ever sees what another
 * may see; answers that depend on the clock beyond the day (`only_with_upcoming`) are not cached.
 * Requests that miss on the same answer at the same version while it is being built wait for it
 * (`X-Cache: SHARED`) instead of building it again, so a write under load costs one rebuild per
 * answer, not one per waiting request. Runs as the last middleware, after routing and parsing.
 */
@Injectable()
export class ResponseCacheMiddleware implements NestMiddleware {
  private readonly cache: LRUCache<string, Entry>;
  private readonly building = new Map<string, Promise<Entry | null>>();
  private readonly today: () => string;

  constructor(
    private readonly version: DataVersionService,
    @Inject(BEFORE_CACHED_READ) private readonly hooks: BeforeCachedRead,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.today = siteDay(config.getOrThrow<SiteConfig>('site').timezone);
    const entries = config.getOrThrow<LimitsConfig>('limits').responseCacheEntries;
    this.cache = new LRUCache<string, Entry>({ max: entries, maxSize: MAX_BYTES, sizeCalculation: (entry) => entry.body.length + 64 });
  }

  async use(req: CachedRequest, res: Response, next: NextFunction): Promise<void> {
    if (req.method !== 'GET' || !req.ctx.route || req.ctx.user || /[?&](password|only_with_upcoming)=/.test(req.url)) return next();
    const key = `${req.ctx.edition}|${this.today()}|${req.url}`;
    await this.hooks.beforeRead();
    const version = await this.version.current();
    const hit = this.cache.get(key);
    if (hit && hit.version === version) return send(res, hit, 'HIT');
    const pending = this.building.get(`${version}|${key}`);
    const shared = pending ? await pending : null;
    if (shared) return send(res, shared, 'SHARED');
    this.build(req, res, key, version);
    next();
  }

  private build(req: CachedRequest, res: Response, key: string, version: string): void {
    const flight = `${version}|${key}`;
    const build: Build = { body: null, contentType: JSON_CONTENT_TYPE };
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
      if (res.statusCode !== 200 || !build.body) return finish(null);
      const headers = KEPT_HEADERS.filter((name) => res.getHeader(name) !== undefined).map(
        (name) => [name, String(res.getHeader(name))] as [string, string],
      );
      const entry = { version, body: build.body, contentType: build.contentType, headers };
      this.cache.set(key, entry);
      finish(entry);
    });
    res.once('close', () => finish(null));
  }
}

/** Serializes the answer of a request the cache is building once, for the client and the cache alike. */
@Injectable()
export class ResponseCacheInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const build = context.switchToHttp().getRequest<CachedRequest>()[BUILD];
    if (!build) return next.handle();
    return next.handle().pipe(
      map((body: unknown) => {
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

function send(res: Response, entry: Entry, state: 'HIT' | 'SHARED'): void {
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader('X-Cache', state);
  res.status(200);
  sendBytes(res, entry.body, entry.contentType);
}
