import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { OwnedItem } from '../common/auth/owned-item.js';
import type { RegisteredRoute, RequestContext } from '../common/http/request-context.js';
import type { HttpConfig } from '../config/app-config.js';
import { type HeaderList, headersSoFar, isPlainAnonymousGet } from './response-cache-store.js';

/** An item as its single read shows it to an anonymous requester, and the item (for `Allow`). */
export interface ItemRead {
  body: unknown;
  subject: OwnedItem;
}

/**
 * Reads an item for an anonymous `GET` of its single route without a query: the `200`'s payload,
 * or null for every other outcome (not found, not public, protected), which the route answers.
 */
export type ItemReader = (id: number, ctx: RequestContext) => Promise<ItemRead | null>;

/**
 * What the pipeline decided for the anonymous reads of one single-item route through one edition,
 * one spelling of the path and one `Origin`, learned from a request that went through it: the
 * headers its steps set before the handler (edition, security, CORS), which do not depend on the
 * id, and the request context the handler got, without the id.
 */
export interface ItemTemplate {
  edition: string;
  /** The route's canonical URL up to the id (`/events/`): with the id, the response cache's key. */
  url: string;
  headers: HeaderList;
  context: TemplateContext;
  read: ItemReader;
}

/** The request context a learned route's handler got, without the id and the user. */
export interface TemplateContext {
  base: string;
  api: string;
  route: RegisteredRoute;
  path: string;
}

/** A path id as the single-item routes take it: a positive integer without leading zeros. */
export const PATH_ID = /^[1-9]\d{0,14}$/;
/** Most request shapes kept, per kind of template. */
export const MAX_TEMPLATES = 256;

/** The part of a template's key the `Origin` makes (answers differ by it: CORS). */
export function originKey(origin: string | undefined): string {
  return origin === undefined ? '-' : `+${origin}`;
}

/** A request target split before its last segment, when that is an item id: `/…/events/` and `42`. */
export function splitAtId(target: string): { prefix: string; id: string } | null {
  const slash = target.lastIndexOf('/');
  const id = target.slice(slash + 1);
  return PATH_ID.test(id) ? { prefix: target.slice(0, slash + 1), id } : null;
}

function templateKey(origin: string | undefined, prefix: string): string {
  return `${originKey(origin)}\n${prefix}`;
}

/**
 * Anonymous reads of single items answered before the framework (`reads-first.ts`): a resource
 * registers the reader of its `…/:id` route; once a request of that route has gone through the
 * pipeline, later requests of the same shape with another id (same path up to the id, same
 * `Origin`, no query) are answered with the headers the pipeline set for it and the reader's
 * payload, or go to the framework when the reader has no `200` for them.
 */
@Injectable()
export class ItemReadsFirst {
  private readonly readers = new Map<string, ItemReader>();
  private readonly templates = new LRUCache<string, ItemTemplate>({ max: MAX_TEMPLATES });
  private readonly limits: HttpConfig;

  constructor(@Inject(ConfigService) config: ConfigService) {
    this.limits = config.getOrThrow<HttpConfig>('http');
  }

  /** `read` answers the anonymous reads of the route `routePath` (`events/:id`) before the framework. */
  register(routePath: string, read: ItemReader): void {
    this.readers.set(routePath, read);
  }

  /**
   * Learns the template of a request that reached the end of the lifecycle, before its handler
   * (`ItemReadsFirstMiddleware`), when it is an anonymous read of a registered route.
   */
  learn(req: Request, res: Response): void {
    const ctx = req.ctx;
    const route = ctx.route;
    const id = ctx.routeParams.id;
    const target = req.originalUrl;
    if (req.method !== 'GET' || !route || ctx.user || !ctx.target || ctx.target.search !== '' || id === undefined || !PATH_ID.test(id))
      return;
    const read = this.readers.get(route.path);
    const suffix = `/${id}`;
    if (!read || !target.endsWith(suffix) || !req.url.endsWith(suffix) || !ctx.target.path.endsWith(suffix)) return;
    if (req.headers['if-match'] !== undefined || !isPlainAnonymousGet(req, target, this.limits)) return;
    const cut = (text: string) => text.slice(0, text.length - id.length);
    this.templates.set(templateKey(req.headers.origin, cut(target)), {
      edition: ctx.edition,
      url: cut(req.url),
      headers: headersSoFar(res),
      context: { base: ctx.base, api: ctx.api, route, path: cut(ctx.target.path) },
      read,
    });
  }

  /** The template and id of a request as sent, when one was learned for its shape. */
  templateFor(req: IncomingMessage): { template: ItemTemplate; id: string } | undefined {
    if (this.templates.size === 0) return undefined;
    const target = req.url ?? '';
    const split = splitAtId(target);
    if (!split || req.headers['if-match'] !== undefined) return undefined;
    const template = this.templates.get(templateKey(req.headers.origin, split.prefix));
    return template && isPlainAnonymousGet(req, target, this.limits) ? { template, id: split.id } : undefined;
  }
}

/** The request context the route's handler would get for `id`. */
export function contextFor(template: ItemTemplate, id: string): RequestContext {
  const { base, api, route, path } = template.context;
  return {
    edition: template.edition,
    base,
    api,
    target: { path: path + id, search: '' },
    user: null,
    route,
    routeParams: { id },
    subject: null,
    ifMatch: null,
  };
}

/** The last lifecycle step before the response cache: learns the templates of {@link ItemReadsFirst}. */
@Injectable()
export class ItemReadsFirstMiddleware implements NestMiddleware {
  constructor(private readonly reads: ItemReadsFirst) {}

  use(req: Request, res: Response, next: NextFunction): void {
    this.reads.learn(req, res);
    next();
  }
}
