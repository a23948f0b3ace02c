import type { Request, RequestHandler, Response } from 'express';
import getRawBody from 'raw-body';
import type { AppConfig } from '../../config/app-config.js';
import type { Editions } from '../../editions/editions.js';
import type { Translator } from '../../i18n/translator.js';
import { parseBasicAuthorization } from '../../users/auth.service.js';
import { ApiError } from '../errors/api-error.js';
import { toApiError } from '../errors/api-exception.filter.js';
import { sendError } from '../errors/error-renderer.js';
import { parseBody, parseQueryString } from './body.js';
import type { AuthUser, RequestContext } from './request-context.js';
import type { RegisteredRoute, RouteRegistry } from './route-registry.js';
import { allowedMethods } from './allow.js';
import type { RateLimits } from './rate-limits.js';
import { ErrorCode } from '../errors/error-codes.js';

export interface PipelineDeps {
  config: AppConfig;
  editions: Editions;
  registry: RouteRegistry;
  translator: Translator;
  authenticate: (login: string, password: string) => Promise<AuthUser>;
  limits: RateLimits;
  /** Body of `GET {base}/` (spec §13.3). */
  apiIndex: (ctx: RequestContext) => unknown;
  /** Body of `OPTIONS` on a known route: its entry of the namespace index (spec §2.3 item 8). */
  routeEntry: (ctx: RequestContext, route: RegisteredRoute) => unknown;
}

type Target = { kind: 'pass' } | { kind: 'none' } | { kind: 'index' } | { kind: 'api'; path: string; search: string };

interface PipelineState {
  target: Target;
  rawBody?: Buffer;
}

const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);
const PASS_THROUGH = /^\/(health(\/ready)?|docs(\/.*)?)\/?$/;

/**
 * The request pipeline in front of the controllers. It applies the order of checks of spec §4.6:
 * body size, credentials, route and method, then body parsing; validation and permissions follow
 * in the controllers and services.
 */
export function httpPipeline(deps: PipelineDeps): RequestHandler[] {
  const { config, editions, registry, translator } = deps;
  const ns = config.api.namespace;
  const root = config.api.root;
  const prefix = `${root}/${ns}`;
  const state = new WeakMap<Request, PipelineState>();

  const fail = (req: Request, res: Response, error: unknown) =>
    sendError(res, toApiError(error), translator, req.ctx?.edition ?? editions.defaultEdition);

  /** Works out the edition and the addressed route, and sets the headers every answer carries. */
  const context: RequestHandler = (req, res, next) => {
    const [rawPath, search = ''] = splitUrl(req.url);
    if (PASS_THROUGH.test(rawPath)) {
      state.set(req, { target: { kind: 'pass' } });
      req.ctx = {
        edition: editions.defaultEdition,
        base: editions.base(editions.defaultEdition),
        api: editions.api(editions.defaultEdition),
        user: null,
        route: null,
        routeParams: {},
        subject: null,
      };
      return next();
    }
    const { edition, rest } = editions.resolve(rawPath);
    const base = editions.base(edition);
    req.ctx = { edition, base, api: `${base}/${ns}`, user: null, route: null, routeParams: {}, subject: null };
    state.set(req, { target: resolveTarget(rest, search) });
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader('Link', `<${base}/>; rel="https://api.w.org/"`);
    res.setHeader('Content-Language', edition);
    res.setHeader('Vary', 'Origin');
    finalizeHeaders(req, res);
    next();
  };

  const resolveTarget = (rest: string, search: string): Target => {
    let path = rest;
    let query = search;
    if ((path === '' || path === '/' || /^\/index\.php$/i.test(path)) && /(^|&)rest_route=/.test(query)) {
      const parsed = new URLSearchParams(query);
      path = `${root}${(parsed.get('rest_route') ?? '').replace(/^(?!\/)/, '/')}`;
      parsed.delete('rest_route');
      query = parsed.toString();
    }
    const lowered = path.toLowerCase();
    if (!lowered.startsWith(root.toLowerCase())) return { kind: 'none' };
    const afterRoot = path.slice(root.length);
    if (afterRoot === '' || afterRoot === '/') return { kind: 'index' };
    const nsMatch = new RegExp(`^/${escapeRegExp(ns)}(?=/|$)`, 'i').exec(afterRoot);
    if (!nsMatch) return { kind: 'none' };
    const within = afterRoot.slice(nsMatch[0].length).replace(/^\//, '').replace(/\/$/, '');
    return { kind: 'api', path: within, search: query };
  };

  /** 413 before anything else; the body is kept for parsing once the route is known. */
  const readBody: RequestHandler = (req, res, next) => {
    const current = state.get(req);
    if (current?.target.kind === 'pass') return next();
    const declared = Number(req.headers['content-length'] ?? 0);
    const tooLarge = () => new ApiError(413, ErrorCode.PayloadTooLarge, { limit: config.http.maxBodyBytes });
    if (declared > config.http.maxBodyBytes) return fail(req, res, tooLarge());
    if (!req.headers['content-length'] && !req.headers['transfer-encoding']) {
      if (current) current.rawBody = Buffer.alloc(0);
      return next();
    }
    getRawBody(req, { limit: config.http.maxBodyBytes, length: req.headers['content-length'] })
      .then((raw) => {
        if (current) current.rawBody = raw;
        next();
      })
      .catch((error: { type?: string }) => {
        fail(req, res, error.type === 'entity.too.large' ? tooLarge() : new ApiError(400, ErrorCode.InvalidJson));
      });
  };

  const tooMany = (seconds: number) => new ApiError(429, ErrorCode.TooManyRequests, {}, { retryAfterSeconds: seconds });

  /** The general request limit (off unless `RATE_LIMIT_PER_MINUTE` is set). */
  const limitRequests: RequestHandler = (req, res, next) => {
    deps.limits
      .request(req.ip ?? 'unknown')
      .then((wait) => (wait === null ? next() : fail(req, res, tooMany(wait))))
      .catch((error) => fail(req, res, error));
  };

  /**
   * Failed credentials are refused on every route, before route matching (spec §4.2); repeated
   * failures from one client or for one login are slowed down with 429.
   */
  const authenticate: RequestHandler = (req, res, next) => {
    if (state.get(req)?.target.kind === 'pass') return next();
    const credentials = parseBasicAuthorization(req.headers.authorization);
    if (!credentials) return next();
    const client = req.ip ?? 'unknown';
    const check = async () => {
      const wait = await deps.limits.loginBlocked(client, credentials.login);
      if (wait !== null) throw tooMany(wait);
      try {
        return await deps.authenticate(credentials.login, credentials.password);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) await deps.limits.loginFailed(client, credentials.login);
        throw error;
      }
    };
    check()
      .then((user) => {
        req.ctx.user = user;
        res.setHeader('Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private');
        next();
      })
      .catch((error) => fail(req, res, error));
  };

  const route: RequestHandler = (req, res, next) => {
    const current = state.get(req);
    const target = current?.target ?? { kind: 'none' };
    if (target.kind === 'pass') return next();
    const method = effectiveMethod(req);
    if (target.kind === 'index') {
      if (method !== 'GET' && method !== 'HEAD') return fail(req, res, ApiError.noRoute());
      res.status(200).json(deps.apiIndex(req.ctx));
      return;
    }
    if (target.kind === 'none') return fail(req, res, ApiError.noRoute());
    const match = registry.match(target.path);
    if (!match) return fail(req, res, ApiError.noRoute());
    const lookup = method === 'HEAD' ? 'GET' : method;
    if (method !== 'OPTIONS' && !match.route.methods.includes(lookup)) return fail(req, res, ApiError.noRoute());
    req.ctx.route = match.route;
    req.ctx.routeParams = match.params;
    if (method === 'OPTIONS') {
      res.status(200).json(deps.routeEntry(req.ctx, match.route));
      return;
    }
    req.method = method;
    const canonical = match.route.path
      .split('/')
      .map((segment) => (segment.startsWith(':') ? match.params[segment.slice(1)] : segment))
      .join('/');
    req.url = `${prefix}${canonical ? `/${canonical}` : ''}${target.search ? `?${target.search}` : ''}`;
    next();
  };

  const parse: RequestHandler = (req, res, next) => {
    const current = state.get(req);
    if (current?.target.kind === 'pass') return next();
    parseBody(current?.rawBody ?? Buffer.alloc(0), req.headers['content-type'])
      .then((body) => {
        // Parameters come from the query string and the body, the body winning (spec §7.1).
        const merged = { ...(req.query as Record<string, unknown>), ...body };
        Object.defineProperty(req, 'query', { value: merged, writable: true, configurable: true });
        req.body = merged;
        next();
      })
      .catch((error) => fail(req, res, error));
  };

  return [context, limitRequests, readBody, authenticate, route, parse];
}

/** `POST` with `_method` or `X-HTTP-Method-Override` is handled as PUT, PATCH or DELETE (spec §2.3 item 9). */
function effectiveMethod(req: Request): string {
  const method = req.method.toUpperCase();
  if (method !== 'POST') return method;
  const [, search = ''] = splitUrl(req.url);
  const fromQuery = search.includes('_method=') ? parseQueryString(search)._method : undefined;
  const requested = String(
    (typeof fromQuery === 'string' ? fromQuery : undefined) ?? req.headers['x-http-method-override'] ?? '',
  ).toUpperCase();
  return OVERRIDABLE.has(requested) ? requested : method;
}

function splitUrl(url: string): [string, string?] {
  const index = url.indexOf('?');
  return index === -1 ? [url] : [url.slice(0, index), url.slice(index + 1)];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Headers that depend on what happened while answering: `Allow` is computed from the requester and
 * the addressed record as known when the answer is written; the contract spells the charset `UTF-8`.
 */
function finalizeHeaders(req: Request, res: Response): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    const type = this.getHeader('Content-Type');
    if (typeof type === 'string' && type.startsWith('application/json')) this.setHeader('Content-Type', 'application/json; charset=UTF-8');
    const { route, user, subject } = req.ctx;
    if (route) this.setHeader('Allow', allowedMethods(route, user, subject).join(', '));
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as Response['writeHead'];
}
