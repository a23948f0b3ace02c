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
  /** Routes of the namespaces other than the configured one, by namespace. */
  private readonly others = new Map<string, RegisteredRoute[]>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onApplicationBootstrap(): void {
    const byPath = new Map<string, string[]>();
    const feedTokens = new Map<string, string[]>();
    const namespaceOf = new Map<string, string | null>();
    for (const wrapper of this.discovery.getControllers()) {
      const type = wrapper.metatype as (new (...args: never[]) => object) | undefined;
      const marked = type ? (Reflect.getMetadata(API_ROUTES, type) as string | true | undefined) : undefined;
      if (!type || !marked) continue;
      const namespace = marked === true ? null : marked;
      const declared = normalize(String(Reflect.getMetadata(PATH_METADATA, type) ?? ''));
      // a route of another namespace is kept by the namespace's name and its path inside it
      const base = namespace === null ? declared : normalize(declared.slice(namespace.length));
      for (const name of this.scanner.getAllMethodNames(type.prototype as object)) {
        const handler = (type.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function') continue;
        const method = METHOD_NAMES[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const ownPath = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (!method || ownPath === undefined) continue;
        const path = [base, normalize(String(ownPath))].filter(Boolean).join('/');
        const key = namespace === null ? path : `${namespace}\n${path}`;
        namespaceOf.set(key, namespace);
        const methods = byPath.get(key) ?? [];
        if (!methods.includes(method)) methods.push(method);
        byPath.set(key, methods);
        if (Reflect.getMetadata(ACCEPTS_FEED_TOKEN, handler)) feedTokens.set(key, [...(feedTokens.get(key) ?? []), method]);
      }
    }
    this.routes = [];
    this.others.clear();
    for (const [key, methods] of byPath) {
      const namespace = namespaceOf.get(key) ?? null;
      const path = namespace === null ? key : key.slice(namespace.length + 1);
      const route = buildRoute(namespace, path, methods, feedTokens.get(key) ?? []);
      if (namespace === null) this.routes.push(route);
      else this.others.set(namespace, [...(this.others.get(namespace) ?? []), route]);
    }
  }

  /** The routes of the configured namespace, or of `namespace`. */
  all(namespace: string | null = null): readonly RegisteredRoute[] {
    return namespace === null ? this.routes : (this.others.get(namespace) ?? []);
  }

  /** The namespaces besides the configured one, in the order their first controller was registered. */
  otherNamespaces(): string[] {
    return [...this.others.keys()];
  }

  /**
   * `path` is relative to the namespace (the configured one, or `namespace`), without leading or
   * trailing slash; fixed segments match in any case.
   */
  match(path: string, namespace: string | null = null): RouteMatch | null {
    for (const route of this.all(namespace)) {
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

function buildRoute(namespace: string | null, path: string, methods: string[], feedTokenMethods: string[]): RegisteredRoute {
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
  // a route ending in a parameter addresses one record; one ending in a name (other than `doc`, `docs`) a collection
  const last = segments.at(-1);
  const scope = last === undefined || last === 'doc' || last === 'docs' ? 'other' : last.startsWith(':') ? 'item' : 'collection';
  return {
    namespace,
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
