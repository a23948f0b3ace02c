import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, type Observable, of } from 'rxjs';
import { entityTag, REPRESENTATION_HEADERS } from '../common/http/entity-tags.js';
import { carriesPassword } from '../common/http/password-param.js';
import { TextAnswer } from '../common/http/text-answer.js';
import { requireDataVersion } from '../common/sql/read-routing.js';
import { JSON_CONTENT_TYPE, PreparedAnswer } from '../http/api-express.adapter.js';
import type { Entry } from './cache-entry.js';
import { ResponseCacheStore } from './response-cache-store.js';

/** Answers to `only_with_upcoming` are never cached: they depend on the clock. (Nor are those to a `password`: it opens one requester's view.) */
const CLOCK_PARAMETER = /[?&]only_with_upcoming=/;

/**
 * The response cache: answers anonymous reads from memory while the data version they were built
 * at is current. It is the innermost global interceptor (`createApp` adds it after every module's
 * `APP_INTERCEPTOR`), so the middleware, every guard and every other global interceptor see each
 * request, cached or not; a hit skips only the route's own interceptors, the pipes and the handler.
 * Only requests without a user (from Basic credentials or a feed token), without a `password` and
 * not marked `unshared` (an answer that a header changes) are cached, so no requester sees what another may see. Requests that miss on the same answer at
 * the same version while it is being built wait for it (`X-Cache: SHARED`) instead of building it
 * again. An entry keeps its entity tag, so a matching revalidation is a 304 without hashing.
 */
@Injectable()
export class ResponseCacheInterceptor implements NestInterceptor {
  constructor(private readonly store: ResponseCacheStore) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    if (req.method !== 'GET' || !req.ctx?.route || req.ctx.user || req.ctx.unshared || CLOCK_PARAMETER.test(req.url)) return next.handle();
    if (carriesPassword(req.ctx.target?.search ?? '')) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    const key = this.store.key(req.ctx.edition, req.url);
    const found = await this.lookUp(key);
    if ('entry' in found) return of(answerOf(found.entry, found.state));
    // a client that went away while this waited gets nothing, and starts no build that would never end
    if (res.destroyed) return of(undefined);
    // an entry current at this version is built from a server that holds it (a lagging replica does not)
    requireDataVersion(found.version);
    const finish = this.store.startBuild(key, found.version);
    res.once('close', () => finish(null));
    res.setHeader('X-Cache', 'MISS');
    return next.handle().pipe(
      map((body: unknown) => {
        const entry = res.statusCode === 200 && !res.headersSent ? entryOf(body, res, found.version) : null;
        finish(entry);
        return entry ? answerOf(entry, 'MISS') : body;
      }),
    );
  }

  /** The entry current at the data version read now, from this process, a build under way or Redis; else that version. */
  private async lookUp(key: string): Promise<{ entry: Entry; state: 'HIT' | 'SHARED' } | { version: string }> {
    const version = await this.store.currentVersion();
    const lookups = this.store.lookups;
    const hit = this.store.fresh(key, version);
    if (hit) {
      lookups.hit++;
      return { entry: hit, state: 'HIT' };
    }
    const found = await this.store.elsewhere(key, version);
    if (found) lookups[found.state === 'SHARED' ? 'shared' : 'redis']++;
    else lookups.miss++;
    return found ?? { version };
  }
}

/** The entry of a handler's answer: its bytes, their tag, and the headers that describe them. */
function entryOf(body: unknown, res: Response, version: string): Entry | null {
  if (body === undefined || body === null) return null;
  const text = body instanceof TextAnswer;
  const bytes = Buffer.from(text ? body.text : JSON.stringify(body));
  const headers: Entry['headers'] = [];
  for (const name of REPRESENTATION_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers.push([name, value]);
  }
  const lastModified = res.getHeader('Last-Modified');
  return {
    version,
    body: bytes,
    contentType: text ? body.contentType : JSON_CONTENT_TYPE,
    etag: entityTag(bytes, (name) => res.getHeader(name)),
    lastModified: lastModified === undefined ? undefined : String(lastModified),
    headers,
  };
}

type CacheState = 'HIT' | 'SHARED' | 'MISS';

/** The answers made of an entry, one per state: what a hit writes is made once, not per request. */
const answersOf = new WeakMap<Entry, Partial<Record<CacheState, PreparedAnswer>>>();

function answerOf(entry: Entry, state: CacheState): PreparedAnswer {
  let answers = answersOf.get(entry);
  if (!answers) answersOf.set(entry, (answers = {}));
  let answer = answers[state];
  if (!answer) {
    const headers: Entry['headers'] = [['X-Cache', state], ...entry.headers];
    if (entry.lastModified !== undefined) headers.push(['Last-Modified', entry.lastModified]);
    answer = answers[state] = new PreparedAnswer(entry.body, entry.contentType, entry.etag, headers);
  }
  return answer;
}
