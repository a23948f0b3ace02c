import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { parseQueryString } from '../common/http/body.js';
import type { ApiConfig } from '../config/app-config.js';
import { INTERNAL_PATHS } from './internal-paths.js';
import { escapeRegExp, paramSegment, RouteRegistry } from './route-registry.js';

const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);

/** `namespace`: null for the configured namespace, else the name of another one (`tec/v1`). */
type Target = { kind: 'none' } | { kind: 'index' } | { kind: 'api'; namespace: string | null; path: string; search: string };

/**
 * Step 3 of the order of checks (spec §4.6), after credentials: works out which route of the
 * namespace a request addresses (spec §2.3: query-style `?rest_route=`, case-insensitive fixed
 * segments, one trailing slash, method override), refuses what no route serves (404
 * `rest_no_route`), and rewrites the URL to the route's canonical path (or, for the API index, the
 * bare origin and `OPTIONS`, to one of `INTERNAL_PATHS`) so that Nest's router serves it. It stays
 * a middleware because all of this must happen before routing.
 */
@Injectable()
export class RouteMiddleware implements NestMiddleware {
  private readonly root: string;
  private readonly namespacePattern: RegExp;

  constructor(
    private readonly registry: RouteRegistry,
    @Inject(ConfigService) config: ConfigService,
  ) {
    const api = config.getOrThrow<ApiConfig>('api');
    this.root = api.root;
    this.namespacePattern = new RegExp(`^/${escapeRegExp(api.namespace)}(?=/|$)`, 'i');
  }

  use(req: Request, res: Response, next: NextFunction): void {
    const addressed = req.ctx.target;
    if (!addressed) return next();
    const target = this.resolve(addressed.path, addressed.search);
    const method = effectiveMethod(req);
    const bareOrigin = (addressed.path === '/' || addressed.path === '') && !/(^|&)rest_route=/.test(addressed.search);
    if (target.kind === 'none' && bareOrigin && (method === 'GET' || method === 'HEAD'))
      return this.forward(req, next, INTERNAL_PATHS.origin);
    if (target.kind === 'none') throw ApiError.noRoute();
    if (target.kind === 'index') {
      if (method !== 'GET' && method !== 'HEAD') throw ApiError.noRoute();
      return this.forward(req, next, INTERNAL_PATHS.apiIndex);
    }
    const match = this.registry.match(target.path, target.namespace);
    if (!match) throw ApiError.noRoute();
    if (method !== 'OPTIONS' && !match.route.methods.includes(method === 'HEAD' ? 'GET' : method)) throw ApiError.noRoute();
    req.ctx.route = match.route;
    req.ctx.routeParams = match.params;
    const prefix = target.namespace === null ? '' : `/${target.namespace}`;
    if (method === 'OPTIONS')
      return this.forward(req, next, `${INTERNAL_PATHS.options}${prefix}${match.route.path ? `/${match.route.path}` : ''}`);
    req.method = method;
    // Controllers read path values from `ctx.routeParams`; the router gets them re-encoded so it
    // never has to decode what the client sent.
    const canonical = match.route.path
      .split('/')
      .map((segment) => {
        const param = paramSegment(segment);
        return param ? encodeURIComponent(match.params[param.name]) + param.suffix : segment;
      })
      .join('/');
    req.url = `${prefix}/${canonical}${target.search ? `?${target.search}` : ''}`;
    next();
  }

  /** Hands the request on to a path of `INTERNAL_PATHS`, without its query. */
  private forward(req: Request, next: NextFunction, path: string): void {
    req.url = path;
    next();
  }

  private resolve(rest: string, search: string): Target {
    let path = rest;
    let query = search;
    if ((path === '' || path === '/' || /^\/index\.php$/i.test(path)) && /(^|&)rest_route=/.test(query)) {
      const parsed = new URLSearchParams(query);
      path = `${this.root}${(parsed.get('rest_route') ?? '').replace(/^(?!\/)/, '/')}`;
      parsed.delete('rest_route');
      query = parsed.toString();
    }
    if (!path.toLowerCase().startsWith(this.root.toLowerCase())) return { kind: 'none' };
    const afterRoot = path.slice(this.root.length);
    if (afterRoot === '' || afterRoot === '/') return { kind: 'index' };
    const within = (prefix: string) => afterRoot.slice(prefix.length).replace(/^\//, '').replace(/\/$/, '');
    const namespace = this.namespacePattern.exec(afterRoot);
    if (namespace) return { kind: 'api', namespace: null, path: within(namespace[0]), search: query };
    // the other namespaces served (tec/v1): their names as registered, case included
    const other = this.registry.otherNamespaces().find((name) => afterRoot === `/${name}` || afterRoot.startsWith(`/${name}/`));
    if (other !== undefined) return { kind: 'api', namespace: other, path: within(`/${other}`), search: query };
    return { kind: 'none' };
  }
}

/** `POST` with `_method` or `X-HTTP-Method-Override` is handled as PUT, PATCH or DELETE (spec §2.3 item 9). */
function effectiveMethod(req: Request): string {
  const method = req.method.toUpperCase();
  if (method !== 'POST') return method;
  const search = req.ctx.target?.search ?? '';
  const fromQuery = search.includes('_method=') ? parseQueryString(search)._method : undefined;
  const requested = String(
    (typeof fromQuery === 'string' ? fromQuery : undefined) ?? req.headers['x-http-method-override'] ?? '',
  ).toUpperCase();
  return OVERRIDABLE.has(requested) ? requested : method;
}
