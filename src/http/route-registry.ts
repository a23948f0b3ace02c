import { Injectable, type OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { API_ROUTES } from '../common/http/api-routes.js';
import { ACCEPTS_FEED_TOKEN } from '../common/http/feed-token.js';
import type { RegisteredRoute } from '../common/http/request-context.js';

export interface RouteMatch {
  route: RegisteredRoute;
  params: Record<string, string>;
}

/** `:id` and any `:…_id` segment are digits; every other parameter is one segment of anything. */
function paramPattern(name: string): { regex: string; index: string } {
  const value = name === 'id' || name.endsWith('_id') ? '\\d+' : '[^/]+';
  return { regex: `(${value})`, index: `(?P<${name}>${value})` };
}

const METHOD_NAMES: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'GET',
  [RequestMethod.POST]: 'POST',
  [RequestMethod.PUT]: 'PUT',
  [RequestMethod.PATCH]: 'PATCH',
  [RequestMethod.DELETE]: 'DELETE',
};

/**
 * The routes of the API namespace, read from the controllers themselves so the table cannot drift
 * from the code. The route middleware uses it to answer unknown routes and `OPTIONS`; `Allow` and the
 * namespace index read it too.
 */
@Injectable()
export class RouteRegistry implements OnApplicationBootstrap {
  private routes: RegisteredRoute[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onApplicationBootstrap(): void {
    const byPath = new Map<string, string[]>();
    const feedTokens = new Map<string, string[]>();
    for (const wrapper of this.discovery.getControllers()) {
      const type = wrapper.metatype as (new (...args: never[]) => object) | undefined;
      if (!type || !Reflect.getMetadata(API_ROUTES, type)) continue;
      const base = normalize(String(Reflect.getMetadata(PATH_METADATA, type) ?? ''));
      for (const name of this.scanner.getAllMethodNames(type.prototype as object)) {
        const handler = (type.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function') continue;
        const method = METHOD_NAMES[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const ownPath = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (!method || ownPath === undefined) continue;
        const path = [base, normalize(String(ownPath))].filter(Boolean).join('/');
        const methods = byPath.get(path) ?? [];
        if (!methods.includes(method)) methods.push(method);
        byPath.set(path, methods);
        if (Reflect.getMetadata(ACCEPTS_FEED_TOKEN, handler)) feedTokens.set(path, [...(feedTokens.get(path) ?? []), method]);
      }
    }
    this.routes = [...byPath].map(([path, methods]) => buildRoute(path, methods, feedTokens.get(path) ?? []));
  }

  all(): readonly RegisteredRoute[] {
    return this.routes;
  }

  /** `path` is relative to the namespace, without leading or trailing slash; fixed segments match in any case. */
  match(path: string): RouteMatch | null {
    for (const route of this.routes) {
      const found = route.matcher.exec(path);
      if (found) {
        const params = Object.fromEntries(route.paramNames.map((name, index) => [name, found[index + 1]]));
        return { route, params };
      }
    }
    return null;
  }
}

function normalize(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/**
 * A parameter segment: `:id`, or `:id.ics` (a parameter followed by a fixed suffix, e.g. a file type).
 * Null for a fixed segment.
 */
export function paramSegment(segment: string): { name: string; suffix: string } | null {
  const found = /^:([A-Za-z_]\w*)(.*)$/.exec(segment);
  return found ? { name: found[1], suffix: found[2] } : null;
}

function buildRoute(path: string, methods: string[], feedTokenMethods: string[]): RegisteredRoute {
  const segments = path === '' ? [] : path.split('/');
  const paramNames: string[] = [];
  const regex = segments.map((segment) => {
    const param = paramSegment(segment);
    if (!param) return escapeRegExp(segment);
    paramNames.push(param.name);
    return paramPattern(param.name).regex + escapeRegExp(param.suffix);
  });
  const pattern = segments.map((segment) => {
    const param = paramSegment(segment);
    return param ? paramPattern(param.name).index + escapeRegExp(param.suffix) : segment;
  });
  // a route ending in a parameter addresses one record; one ending in a name (other than `doc`) a collection
  const last = segments.at(-1);
  const scope = last === undefined || last === 'doc' ? 'other' : last.startsWith(':') ? 'item' : 'collection';
  return {
    path,
    pattern: pattern.length ? `/${pattern.join('/')}` : '',
    methods,
    scope,
    paramNames,
    matcher: new RegExp(`^${regex.join('/')}$`, 'i'),
    feedTokenMethods,
  };
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
