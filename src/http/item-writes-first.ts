import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { type FlatHeaders, flatHeaders, headersSoFar } from '../cache/response-cache-store.js';
import { isJsonMediaType, parseBody } from '../common/http/body.js';
import type { RequestContext } from '../common/http/request-context.js';
import { MAX_TEMPLATES, originKey, PATH_ID, splitAtId, type TemplateContext } from '../cache/item-reads-first.js';
import type { AppConfig, HttpConfig } from '../config/app-config.js';
import { Translator } from '../i18n/translator.js';
import { BasicAuthMiddleware, keepCredentialsOutcome } from '../users/basic-auth.middleware.js';
import { parseBasicAuthorization } from '../users/auth.service.js';
import { allowField } from './allow.js';
import { JSON_CONTENT_TYPE } from './api-express.adapter.js';
import { errorAnswer, toApiError } from './api-exception.filter.js';
import { keepRawBody, readRawBody } from './body.middleware.js';
import { sizeProblem } from './client-errors.js';
import type { ApiError } from '../common/errors/api-error.js';

/**
 * A write as its route's handler makes it, split where the route's parameter checks end: `prepare`
 * makes the checks the route's pipes make of the request's input (the body merged over the query
 * string, spec §7.1) and gives the write, or throws when they fail (the framework then answers the
 * request, and its pipes fail the same way). `id` is the path's id on a `…/:id` route, null on a
 * collection route. The write answers the route's payload ({@link Created} for a `201`), or throws
 * what the handler would throw.
 */
export interface ItemWriter {
  prepare(id: number | null, input: Record<string, unknown>): Promise<(ctx: RequestContext) => Promise<unknown>>;
}

/** What a collection route's create answers: `201` with the new item's address in `Location`. */
export class Created {
  constructor(
    readonly location: string,
    readonly payload: unknown,
  ) {}
}

type WriteMethod = 'POST' | 'DELETE';

/**
 * What the pipeline decided for the authenticated writes of one single-item or collection route
 * through one edition, one spelling of the path, one method and one `Origin`, learned from a request
 * that went through it: the headers its steps set before the handler (edition, security, CORS, the
 * caching header of authenticated answers), which depend neither on the id nor on the user, and the
 * request context the handler got, without the id and the user.
 */
interface WriteTemplate {
  edition: string;
  /** The headers as `writeHead` takes them, names and values in turn (flattened once, not per answer). */
  headers: FlatHeaders;
  context: TemplateContext;
  writer: ItemWriter;
}

/** Marks the keys of collection routes' templates, whose key holds the whole path. */
const COLLECTION = 'collection ';

function templateKey(method: string, origin: string | undefined, prefix: string): string {
  return `${method}\n${originKey(origin)}\n${prefix}`;
}

/**
 * Whether a write has the plain shape answered before the framework: Basic credentials, no
 * `If-Match`, no method override, within the size limits, a JSON body of a declared length (`POST`) or no body at all
 * (`DELETE`).
 */
function isPlainWrite(req: IncomingMessage, target: string, limits: HttpConfig): boolean {
  const headers = req.headers;
  if (headers.authorization === undefined || headers['if-match'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
  // a `POST` the route step handles as another method (spec §2.3 item 9)
  if (headers['x-http-method-override'] !== undefined) return false;
  const length = headers['content-length'];
  const fits =
    req.method === 'POST'
      ? length !== undefined && Number(length) <= limits.maxBodyBytes && isJsonMediaType(headers['content-type'])
      : length === undefined || length === '0';
  return fits && sizeProblem(target, req.rawHeaders, limits) === null;
}

/**
 * Whether the server's own handler may make writes before the framework: not with a request limit
 * (it counts every request in the pipeline), not behind a trusted proxy (the client's address, which
 * the login locks count by, is then the framework's to work out), not with read replicas (a write's
 * answer then carries the consistency token the pipeline adds).
 */
export function writesBeforeFramework(config: Pick<AppConfig, 'limits' | 'database'>): boolean {
  const { limits, database } = config;
  const replicas = 'replicaUrls' in database ? database.replicaUrls.length : 0;
  return limits.requestsPerMinute === 0 && (limits.trustProxy === false || limits.trustProxy === 0) && replicas === 0;
}

/**
 * Authenticated writes of single items made before the framework (`cache/reads-first.ts` puts them
 * in the server's own request handler): a resource registers the writer of its `…/:id` route or of
 * its collection route (creates) for a method; once a write of that route has gone through the
 * pipeline, later writes of the same shape (method, path up to the id or the whole path, `Origin`, no
 * query, the plain shape of `isPlainWrite`), with another id on an item route, are made here, with
 * the pipeline's checks in its order: the body within its limit, the
 * credentials (a lock, a refusal or failures to clear go to the framework with what was found), the
 * body parsed and checked by the route's pipes (failures go to the framework), then the write, whose
 * answer or error answer is written as the handler and the exception filter would write it.
 */
@Injectable()
export class ItemWritesFirst {
  private readonly writers = new Map<string, ItemWriter>();
  private readonly templates = new LRUCache<string, WriteTemplate>({ max: MAX_TEMPLATES });
  private readonly limits: HttpConfig;

  constructor(@Inject(ConfigService) config: ConfigService) {
    this.limits = config.getOrThrow<HttpConfig>('http');
  }

  /** `writer` makes the `method` writes of the route `routePath` (`events/:id`, `events`) before the framework. */
  register(method: WriteMethod, routePath: string, writer: ItemWriter): void {
    this.writers.set(`${method} ${routePath}`, writer);
  }

  /** Learns the template of a request that reached the end of the lifecycle, before its handler. */
  learn(req: Request, res: Response): void {
    const ctx = req.ctx;
    const route = ctx.route;
    const target = req.originalUrl;
    if ((req.method !== 'POST' && req.method !== 'DELETE') || !route || !ctx.user || !ctx.target || ctx.target.search !== '') return;
    const writer = this.writers.get(`${req.method} ${route.path}`);
    if (!writer || !isPlainWrite(req, target, this.limits)) return;
    const template = (path: string): WriteTemplate => ({
      edition: ctx.edition,
      headers: flatHeaders(headersSoFar(res)),
      context: { base: ctx.base, api: ctx.api, route, path },
      writer,
    });
    if (route.scope === 'collection') {
      this.templates.set(templateKey(COLLECTION + req.method, req.headers.origin, target), template(ctx.target.path));
      return;
    }
    const id = ctx.routeParams.id;
    const suffix = `/${id}`;
    if (id === undefined || !PATH_ID.test(id) || !target.endsWith(suffix) || !ctx.target.path.endsWith(suffix)) return;
    const cut = (text: string) => text.slice(0, text.length - id.length);
    this.templates.set(templateKey(req.method, req.headers.origin, cut(target)), template(cut(ctx.target.path)));
  }

  /**
   * The template of a request as sent, when one was learned for its shape, with the path's id (null
   * on a collection route).
   */
  templateFor(req: IncomingMessage): { template: WriteTemplate; id: string | null } | undefined {
    if (this.templates.size === 0 || (req.method !== 'POST' && req.method !== 'DELETE')) return undefined;
    const target = req.url ?? '';
    let found: { template: WriteTemplate; id: string | null } | undefined;
    const collection = this.templates.get(templateKey(COLLECTION + req.method, req.headers.origin, target));
    if (collection) found = { template: collection, id: null };
    else {
      const split = splitAtId(target);
      const template = split && this.templates.get(templateKey(req.method, req.headers.origin, split.prefix));
      if (template) found = { template, id: (split as { id: string }).id };
    }
    return found && isPlainWrite(req, target, this.limits) ? found : undefined;
  }
}

/** What making writes before the framework needs from the app. */
export interface WritesFirstDeps {
  credentials: BasicAuthMiddleware;
  translator: Translator;
  maxBodyBytes: number;
}

const logger = new Logger('ApiExceptionFilter');

/**
 * Makes a write of a learned shape. False when the framework must answer, before anything was
 * written: the body read and the credentials' outcome are then kept on the request for its steps.
 */
export async function answerWrite(
  req: IncomingMessage,
  res: ServerResponse,
  found: { template: WriteTemplate; id: string | null },
  deps: WritesFirstDeps,
  onAnswer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<boolean> {
  const { template, id } = found;
  const credentials = parseBasicAuthorization(req.headers.authorization);
  if (!credentials) return false;
  let raw: Buffer;
  try {
    raw = await readRawBody(req, deps.maxBodyBytes);
  } catch (error) {
    keepRawBody(req, error as ApiError);
    return false;
  }
  keepRawBody(req, raw);
  // without a trusted proxy, the address Express gives the framework's steps
  const outcome = await deps.credentials.check(req.socket.remoteAddress ?? 'unknown', credentials).catch(() => null);
  if (!outcome) return false;
  keepCredentialsOutcome(req, outcome);
  const user = outcome.user;
  if (!user || outcome.lock.pairFailures > 0) return false;
  let write: (ctx: RequestContext) => Promise<unknown>;
  try {
    write = await template.writer.prepare(id === null ? null : Number(id), await parseBody(raw, req.headers['content-type']));
  } catch {
    return false;
  }
  const { base, api, route, path } = template.context;
  const ctx: RequestContext = {
    edition: template.edition,
    base,
    api,
    target: { path: id === null ? path : path + id, search: '' },
    user,
    route,
    routeParams: id === null ? {} : { id },
    subject: null,
    ifMatch: null,
  };
  onAnswer(req, res);
  const headers = template.headers.slice();
  let status = 200;
  // the JSON text as it is: `end` encodes it into the socket's write, with no copy of its own
  let body: string;
  try {
    const answer = await write(ctx);
    let payload = answer;
    if (answer instanceof Created) {
      // as `created` and the `Allow` step set them
      status = 201;
      headers.push('Location', answer.location);
      payload = answer.payload;
    }
    body = JSON.stringify(payload);
    headers.push('Allow', allowField(ctx) as string);
  } catch (thrown) {
    // what the exception filter answers
    const error = toApiError(thrown, logger, (req as IncomingMessage & { id?: unknown }).id);
    const answer = errorAnswer(error, ctx, deps.translator, ctx.edition);
    status = error.status;
    for (const [name, value] of answer.headers) headers.push(name, value);
    body = JSON.stringify(answer.payload);
  }
  headers.push('Content-Type', JSON_CONTENT_TYPE, 'Content-Length', String(Buffer.byteLength(body)));
  res.writeHead(status, headers);
  res.end(body, 'utf8');
  return true;
}

/** The last lifecycle step before the response cache: learns the templates of {@link ItemWritesFirst}. */
@Injectable()
export class ItemWritesFirstMiddleware implements NestMiddleware {
  constructor(private readonly writes: ItemWritesFirst) {}

  use(req: Request, res: Response, next: NextFunction): void {
    this.writes.learn(req, res);
    next();
  }
}
