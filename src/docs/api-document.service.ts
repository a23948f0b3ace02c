import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { ApiConfig, HttpConfig, ListsConfig, SiteConfig } from '../config/app-config.js';
import { defaultListWindow } from '../common/dates/list-window.js';
import { offsetHours } from '../common/dates/zones.js';
import type { RequestContext } from '../common/http/request-context.js';
import type { RegisteredRoute } from '../common/http/request-context.js';
import { RouteRegistry } from '../http/route-registry.js';
import { Translator } from '../i18n/translator.js';
import { DOCUMENT_PATHS, openApiPath, shapeDocument } from './openapi-shape.js';
import { OtherNamespaces } from '../http/other-namespaces.js';
import { translateDocument } from '../common/openapi/translate-document.js';

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}

const RESOURCE_ORDER = ['', 'doc', 'events', 'venues', 'organizers', 'categories', 'tags'];
const ITEM_METHOD_GROUPS = [['GET'], ['DELETE'], ['POST', 'PUT', 'PATCH']];
const ARG_KEYS = ['type', 'items', 'enum', 'format'];
/**
 * Relation fields of event writes: the document describes what they accept (`oneOf` IDs, names,
 * new records); the index keeps the declaration of the reference (spec §13.1), an array of integers.
 */
const INDEX_LIST_DECLARATION = { type: 'array', items: { type: 'integer' } };
const RELATION_FIELDS = new Set(['categories', 'tags', 'venue', 'organizer']);

/**
 * The OpenAPI document generated from the controllers (spec §13.2) and the namespace index derived
 * from it (§13.1), so that both describe exactly the routes the code serves.
 */
@Injectable()
export class ApiDocumentService {
  private generate: (() => OpenAPIObject) | null = null;
  private generated: OpenAPIObject | null = null;
  private document: Json | null = null;
  private readonly editions = new Map<string, Json>();

  constructor(
    private readonly registry: RouteRegistry,
    private readonly config: ConfigService,
    private readonly translator: Translator,
    private readonly others: OtherNamespaces,
  ) {}

  /**
   * How the document is generated from the application. It is generated when first asked for (the
   * docs page, `/doc`, the namespace index), not while the application starts: scanning the
   * controllers takes about half of a start.
   */
  generateWith(generate: () => OpenAPIObject): void {
    this.generate = generate;
    this.generated = null;
    this.document = null;
    this.editions.clear();
  }

  /** The document as `@nestjs/swagger` generates it, before it is shaped (what Swagger UI is given). */
  generatedDocument(): OpenAPIObject {
    if (!this.generate) throw new Error('The OpenAPI document has no application to be generated from yet');
    return (this.generated ??= this.generate());
  }

  /** The English document translated once per edition. */
  private editionDocument(lang: string): Json {
    let document = this.editions.get(lang);
    if (!document) {
      document = translateDocument(this.requireDocument(), (text) => this.translator.prose(lang, text));
      this.editions.set(lang, document);
    }
    return document;
  }

  /** `GET {api}/doc`: the document of one edition, with today's computed defaults. */
  documentFor(ctx: RequestContext): Json {
    const document = structuredClone(this.editionDocument(ctx.edition));
    // no trailing slash: the paths begin with one (OpenAPI joins the two)
    document.servers = [{ url: ctx.api }];
    const paths = document.paths as Record<string, Record<string, { parameters?: Parameter[] }>>;
    for (const operation of Object.values(paths).flatMap((item) => Object.values(item))) {
      for (const parameter of operation.parameters ?? []) {
        const computed = this.computedDefault(parameter.name, operation === paths['/events']?.get);
        if (computed !== undefined && parameter.schema) parameter.schema.default = computed;
      }
    }
    return document;
  }

  /** `GET {api}`: the namespace index. */
  namespaceIndex(ctx: RequestContext): Json {
    const ns = this.namespace();
    const routes: Json = {};
    for (const route of this.orderedRoutes()) routes[`/${ns}${route.pattern}`] = this.routeEntry(ctx, route);
    return { namespace: ns, routes, _links: { up: [{ href: `${ctx.base}/` }] } };
  }

  /** `GET {base}/`: the API index (spec §13.3), with the routes of the other namespaces served after the configured one's. */
  apiIndex(ctx: RequestContext): Json {
    const site = this.config.getOrThrow<SiteConfig>('site');
    const publicUrl = this.config.getOrThrow<HttpConfig>('http').publicUrl;
    const index = this.namespaceIndex(ctx);
    return {
      name: site.name,
      description: site.description,
      url: publicUrl,
      home: publicUrl,
      gmt_offset: offsetHours(site.timezone, new Date()),
      timezone_string: site.timezone.startsWith('UTC') && site.timezone !== 'UTC' ? '' : site.timezone,
      namespaces: [index.namespace, ...this.others.all().map((other) => other.namespace)],
      routes: Object.assign(index.routes as Json, ...this.others.all().map((other) => other.routes(ctx))) as Json,
      _links: { help: [{ href: `${ctx.api}/doc` }] },
    };
  }

  /** One route of the namespace index (also the body of `OPTIONS` on that route). */
  routeEntry(ctx: RequestContext, route: RegisteredRoute): Json {
    const groups = route.scope === 'item' ? ITEM_METHOD_GROUPS : route.methods.map((method) => [method]);
    const endpoints = groups
      .map((group) => group.filter((method) => route.methods.includes(method)))
      .filter((group) => group.length > 0)
      .sort((a, b) => route.methods.indexOf(a[0]) - route.methods.indexOf(b[0]))
      .map((methods) => ({ methods, args: this.argsOf(route, methods[0], ctx.edition) }));
    const entry: Json = { namespace: this.namespace(), methods: route.methods, endpoints };
    if (route.paramNames.length === 0) entry._links = { self: [{ href: `${ctx.api}${route.path ? `/${route.path}` : ''}` }] };
    return entry;
  }

  private argsOf(route: RegisteredRoute, method: string, lang: string): Json | [] {
    if (route.path === '') {
      return { namespace: { default: this.namespace(), required: false }, context: { default: 'view', required: false } };
    }
    const operation = this.operation(route, method, lang);
    const args: Json = {};
    const isListGet = route.scope === 'collection' && method === 'GET';
    // request headers (If-None-Match, If-Match, ...) are documented in /doc; the index lists arguments only
    for (const parameter of (operation?.parameters ?? []).filter((candidate) => candidate.in !== 'header')) {
      const arg = this.arg(parameter.schema ?? {}, parameter.description);
      const computed = this.computedDefault(parameter.name, isListGet && route.path === 'events');
      if (computed !== undefined) arg.default = computed;
      arg.required =
        parameter.in === 'path' ? !(parameter.name === 'slug' && method !== 'GET' && method !== 'DELETE') : Boolean(parameter.required);
      args[parameter.name] = arg;
    }
    const body = (operation?.requestBody as { content?: Record<string, { schema?: Json }> } | undefined)?.content?.['application/json']
      ?.schema;
    const required = new Set((body?.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((body?.properties as Record<string, Json> | undefined) ?? {})) {
      if (name in args) continue;
      const declared = RELATION_FIELDS.has(name) ? { ...schema, ...INDEX_LIST_DECLARATION } : schema;
      args[name] = { ...this.arg(declared, schema.description as string | undefined), required: required.has(name) };
    }
    return Object.keys(args).length > 0 ? args : [];
  }

  private arg(schema: Json, description: string | undefined): Json {
    const result: Json = {};
    for (const key of ARG_KEYS) if (schema[key] !== undefined) result[key] = schema[key];
    if (description) result.description = description;
    if ('default' in schema) result.default = schema.default;
    return result;
  }

  /** Defaults that depend on today or on configuration (spec §13.1). */
  private computedDefault(name: string, isEventsList: boolean): unknown {
    if (name === 'per_page') return this.config.getOrThrow<ListsConfig>('lists').defaultPerPage;
    if (!isEventsList || (name !== 'start_date' && name !== 'end_date')) return undefined;
    const window = defaultListWindow(this.config.getOrThrow<SiteConfig>('site').timezone, new Date());
    return name === 'start_date' ? window.start : window.end;
  }

  private operation(route: RegisteredRoute, method: string, lang: string): { parameters?: Parameter[]; requestBody?: unknown } | undefined {
    const paths = this.editionDocument(lang).paths as Record<string, Record<string, { parameters?: Parameter[] }>>;
    return paths[openApiPath(route.path)]?.[method.toLowerCase()];
  }

  /** The contract's routes in its order, then the routes of extension modules in the order they were registered. */
  private orderedRoutes(): RegisteredRoute[] {
    const isContract = (route: RegisteredRoute) => route.path === '' || DOCUMENT_PATHS.includes(openApiPath(route.path));
    const rank = (route: RegisteredRoute) => (isContract(route) ? RESOURCE_ORDER.indexOf(route.path.split('/')[0]) : RESOURCE_ORDER.length);
    const depth = (route: RegisteredRoute) =>
      (route.path === '' ? 0 : route.path.split('/').length) + (route.path.includes('by-slug') ? 1 : 0);
    return [...this.registry.all()].sort((a, b) => rank(a) - rank(b) || (isContract(a) ? depth(a) - depth(b) : 0));
  }

  private namespace(): string {
    return this.config.getOrThrow<ApiConfig>('api').namespace;
  }

  private requireDocument(): Json {
    return (this.document ??= shapeDocument(this.generatedDocument()));
  }
}
