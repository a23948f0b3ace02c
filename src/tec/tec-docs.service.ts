import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { RegisteredRoute, RequestContext } from '../common/http/request-context.js';
import { translateDocument } from '../common/openapi/translate-document.js';
import { OtherNamespaces } from '../http/other-namespaces.js';
import { Translator } from '../i18n/translator.js';
import { DELETE_ARGS, indexArg, TEC_RESOURCES, type TecArgs } from './tec-args.js';
import { tecOpenApiDocument } from './tec-openapi.js';

type Json = Record<string, unknown>;

export const TEC_NAMESPACE = 'tec/v1';

/**
 * What `tec/v1` says about itself: its namespace index (`GET /wp-json/tec/v1`), its entries in the
 * API index, `OPTIONS` on its routes, and its OpenAPI document (`/docs`), all written from the
 * argument tables of `tec-args.ts`. Their prose is written in English and translated per edition
 * as the v1 document's is: `Translator.prose`, from the editions' `openapi.json` catalogues.
 */
@Injectable()
export class TecDocsService implements OnModuleInit {
  /** The document of each edition, translated once; `servers` is set per request. */
  private readonly documents = new Map<string, Json>();

  constructor(
    private readonly others: OtherNamespaces,
    private readonly translator: Translator,
  ) {}

  onModuleInit(): void {
    this.others.register({
      namespace: TEC_NAMESPACE,
      routes: (ctx) => this.routes(ctx),
      routeEntry: (ctx, route) => this.routeEntry(ctx, route),
    });
  }

  namespaceIndex(ctx: RequestContext): Json {
    return { namespace: TEC_NAMESPACE, routes: this.routes(ctx), _links: { up: [{ href: `${ctx.base}/` }] } };
  }

  /** `GET {base}/tec/v1/docs`: the OpenAPI document in the edition's language. */
  document(ctx: RequestContext): Json {
    let document = this.documents.get(ctx.edition);
    if (!document) {
      document = translateDocument(tecOpenApiDocument(''), (text) => this.translator.prose(ctx.edition, text));
      this.documents.set(ctx.edition, document);
    }
    return { ...structuredClone(document), servers: [{ url: `${ctx.base}/${TEC_NAMESPACE}` }] };
  }

  /** Every route in the reference's order, keyed by its full pattern. */
  routes(ctx: RequestContext): Json {
    const api = `${ctx.base}/${TEC_NAMESPACE}`;
    const args = (table: TecArgs): Json =>
      Object.fromEntries(
        Object.entries(table).map(([name, arg]) => [
          name,
          indexArg({ ...arg, description: this.translator.prose(ctx.edition, arg.description) }),
        ]),
      );
    const entry = (path: string, methods: string[], endpoints: Json[], link: boolean): Json => ({
      namespace: TEC_NAMESPACE,
      methods,
      endpoints,
      ...(link ? { _links: { self: [{ href: `${api}${path}` }] } } : {}),
    });
    const routes: Json = {
      [`/${TEC_NAMESPACE}`]: entry(
        '',
        ['GET'],
        [
          {
            methods: ['GET'],
            args: { namespace: { default: TEC_NAMESPACE, required: false }, context: { default: 'view', required: false } },
          },
        ],
        true,
      ),
    };
    for (const { resource, list, write } of TEC_RESOURCES) {
      routes[`/${TEC_NAMESPACE}/${resource}`] = entry(
        `/${resource}`,
        ['GET', 'POST'],
        [
          { methods: ['GET'], args: args(list) },
          { methods: ['POST'], args: args(write) },
        ],
        true,
      );
      routes[`/${TEC_NAMESPACE}/${resource}/(?P<id>\\d+)`] = entry(
        '',
        ['GET', 'PUT', 'PATCH', 'DELETE'],
        [
          { methods: ['GET'], args: [] },
          { methods: ['PUT', 'PATCH'], args: args(write) },
          { methods: ['DELETE'], args: args(DELETE_ARGS) },
        ],
        false,
      );
    }
    routes[`/${TEC_NAMESPACE}/docs`] = entry('/docs', ['GET'], [{ methods: ['GET'], args: [] }], true);
    return routes;
  }

  /** The body of `OPTIONS` on a route: its entry of the index. */
  routeEntry(ctx: RequestContext, route: RegisteredRoute): Json {
    const pattern = `/${TEC_NAMESPACE}${route.pattern}`;
    return (this.routes(ctx)[pattern] as Json | undefined) ?? { namespace: TEC_NAMESPACE, methods: route.methods, endpoints: [] };
  }
}
