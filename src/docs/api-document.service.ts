import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { ApiConfig, ListsConfig, SiteConfig } from '../config/app-config.js';
import { offsetHours } from '../common/dates/zones.js';
import type { RequestContext } from '../common/http/request-context.js';
import { RouteRegistry, type RegisteredRoute } from '../common/http/route-registry.js';
import { Editions } from '../editions/editions.js';

type Schema = Record<string, unknown>;
interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

const RESOURCE_ORDER = ['', 'doc', 'events', 'venues', 'organizers', 'categories', 'tags'];
const METHOD_GROUPS = [['GET'], ['DELETE'], ['POST', 'PUT', 'PATCH']];

/**
 * The OpenAPI document generated from the controllers, and the namespace index derived from it, so
 * that both describe exactly the routes the code serves.
 */
@Injectable()
export class ApiDocumentService {
  private document: OpenAPIObject | null = null;

  constructor(
    private readonly registry: RouteRegistry,
    private readonly editions: Editions,
    private readonly config: ConfigService,
  ) {}

  setDocument(document: OpenAPIObject): void {
    this.document = document;
  }

  /** `GET {api}/doc`: the document of one edition. */
  documentFor(ctx: RequestContext): Record<string, unknown> {
    const document = this.requireDocument();
    return {
      openapi: '3.0.3',
      info: document.info,
      components: document.components ?? {},
      servers: [{ url: `${ctx.api}/` }],
      paths: document.paths,
    };
  }

  /** `GET {api}`: the namespace index (spec §13.1). */
  namespaceIndex(ctx: RequestContext): Record<string, unknown> {
    const ns = this.config.getOrThrow<ApiConfig>('api').namespace;
    const routes: Record<string, unknown> = {};
    for (const route of this.orderedRoutes()) routes[`/${ns}${route.pattern}`] = this.routeEntry(ctx, route);
    return { namespace: ns, routes, _links: { up: [{ href: `${ctx.base}/` }] } };
  }

  /** `GET {base}/`: the API index (spec §13.3). */
  apiIndex(ctx: RequestContext): Record<string, unknown> {
    const site = this.config.getOrThrow<SiteConfig>('site');
    const publicUrl = this.editions.base(this.editions.defaultEdition).slice(0, -this.config.getOrThrow<ApiConfig>('api').root.length);
    const index = this.namespaceIndex(ctx);
    return {
      name: site.name,
      description: site.description,
      url: publicUrl,
      home: publicUrl,
      gmt_offset: offsetHours(site.timezone, new Date()),
      timezone_string: site.timezone.startsWith('UTC') && site.timezone !== 'UTC' ? '' : site.timezone,
      namespaces: [index.namespace],
      routes: index.routes,
      _links: { help: [{ href: `${ctx.api}/doc` }] },
    };
  }

  routeEntry(ctx: RequestContext, route: RegisteredRoute): Record<string, unknown> {
    const ns = this.config.getOrThrow<ApiConfig>('api').namespace;
    const groups = route.scope === 'item' ? METHOD_GROUPS : route.methods.map((method) => [method]);
    const endpoints = groups
      .map((group) => group.filter((method) => route.methods.includes(method)))
      .filter((group) => group.length > 0)
      .sort((a, b) => route.methods.indexOf(a[0]) - route.methods.indexOf(b[0]))
      .map((methods) => ({ methods, args: this.argsOf(route, methods[0]) }));
    const entry: Record<string, unknown> = { namespace: ns, methods: route.methods, endpoints };
    if (route.scope !== 'item') entry._links = { self: [{ href: `${ctx.api}${route.path ? `/${route.path}` : ''}` }] };
    return entry;
  }

  private argsOf(route: RegisteredRoute, method: string): Record<string, unknown> | [] {
    const operation = this.operation(route, method);
    const args: Record<string, Schema> = {};
    for (const name of route.paramNames) {
      args[name] = { type: name === 'id' ? 'integer' : 'string', required: !(name === 'slug' && method !== 'GET' && method !== 'DELETE') };
    }
    for (const parameter of operation?.parameters ?? []) {
      if (parameter.in === 'path') continue;
      args[parameter.name] = { ...this.argSchema(parameter.schema ?? {}, parameter.description), required: parameter.required ?? false };
    }
    const body = operation?.requestBody?.content?.['application/json']?.schema;
    const properties = this.resolve(body)?.properties as Record<string, Schema> | undefined;
    const required = new Set((this.resolve(body)?.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries(properties ?? {})) {
      args[name] = { ...this.argSchema(schema, schema.description as string | undefined), required: required.has(name) };
    }
    if (route.path === '' && method === 'GET') {
      const ns = this.config.getOrThrow<ApiConfig>('api').namespace;
      return { namespace: { default: ns, required: false }, context: { default: 'view', required: false } };
    }
    return Object.keys(args).length > 0 ? args : [];
  }

  private argSchema(schema: Schema, description: string | undefined): Schema {
    const result: Schema = {};
    for (const key of ['type', 'items', 'enum', 'format']) if (schema[key] !== undefined) result[key] = schema[key];
    if (description) result.description = description;
    if (schema.default !== undefined) result.default = schema.default;
    return result;
  }

  private operation(route: RegisteredRoute, method: string): Operation | undefined {
    const path = `/${route.path.replace(/:([a-z]+)/g, '{$1}')}`;
    const item = this.document?.paths?.[path] as Record<string, Operation> | undefined;
    return item?.[method.toLowerCase()];
  }

  private resolve(schema: Schema | undefined): Schema | undefined {
    const ref = schema?.$ref as string | undefined;
    if (!ref) return schema;
    return this.document?.components?.schemas?.[ref.split('/').at(-1) as string] as Schema | undefined;
  }

  private orderedRoutes(): RegisteredRoute[] {
    const rank = (route: RegisteredRoute) => RESOURCE_ORDER.indexOf(route.path.split('/')[0]);
    return [...this.registry.all()].sort((a, b) => rank(a) - rank(b) || a.path.split('/').length - b.path.split('/').length || Number(a.path.includes('by-slug')) - Number(b.path.includes('by-slug')));
  }

  private requireDocument(): OpenAPIObject {
    if (!this.document) throw new Error('The OpenAPI document has not been built yet');
    return this.document;
  }

  defaultPerPage(): number {
    return this.config.getOrThrow<ListsConfig>('lists').defaultPerPage;
  }
}
