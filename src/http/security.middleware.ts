import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { CONSISTENCY_HEADER } from '../common/sql/read-routing.js';
import type { DatabaseConfig, HttpConfig } from '../config/app-config.js';

/** Spec §14.3's lists, then the conditional-request headers (docs/API.md, "Conditional requests"). */
export const CORS_EXPOSED_HEADERS = [
  'X-TEC-Total',
  'X-TEC-TotalPages',
  'X-WP-Total',
  'X-WP-TotalPages',
  'Link',
  'Allow',
  'ETag',
  'Last-Modified',
];
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'X-WP-Nonce',
  'Content-Disposition',
  'Content-MD5',
  'Content-Type',
  'X-HTTP-Method-Override',
  'If-None-Match',
  'If-Match',
  'If-Modified-Since',
];

/**
 * The headers helmet sets with these options, taken once from helmet itself: they depend on
 * nothing of the request (no nonces), so each answer gets the same list without running helmet's
 * dozen steps again.
 */
function helmetHeaders(options: Parameters<typeof helmet>[0]): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  let done = false;
  helmet(options)({} as Request, recorder as unknown as Response, () => (done = true));
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

/**
 * helmet's headers everywhere; the docs page gets a policy that lets Swagger UI run (its own scripts
 * and styles, the documents of every edition), the API a policy that allows nothing to be loaded.
 */
@Injectable()
export class SecurityHeadersMiddleware implements NestMiddleware {
  private readonly api: Array<[string, string]>;
  private readonly docs: Array<[string, string]>;

  constructor() {
    const common = { crossOriginResourcePolicy: { policy: 'cross-origin' as const }, xFrameOptions: { action: 'deny' as const } };
    this.api = helmetHeaders({ ...common, contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } } });
    this.docs = helmetHeaders({
      ...common,
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          connectSrc: ["'self'", 'http:', 'https:'],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
    });
  }

  use(req: Request, res: Response, next: NextFunction): void {
    // a docs page (`/docs`, `/{lang}/docs`) is the only page outside the API not ending in /health
    const docsPage = req.ctx.target === null && /\/docs(\/|$)/.test(req.path);
    for (const [name, value] of docsPage ? this.docs : this.api) res.setHeader(name, value);
    next();
  }
}

/** CORS of spec §14.3: allowed origins echoed with credentials; preflights continue to the route step. */
@Injectable()
export class CorsMiddleware implements NestMiddleware {
  private readonly handler: RequestHandler;

  constructor(@Inject(ConfigService) config: ConfigService) {
    const allowed = config.getOrThrow<HttpConfig>('http').corsOrigins;
    const database = config.getOrThrow<DatabaseConfig>('database');
    // with read replicas, browsers may read the consistency token of a write and present it again
    const token = database.kind === 'mysql' && database.replicaUrls.length > 0 ? [CONSISTENCY_HEADER] : [];
    this.handler = cors({
      origin: (origin, callback) => callback(null, origin !== undefined && (allowed === '*' || allowed.includes(origin)) ? origin : false),
      credentials: true,
      exposedHeaders: [...CORS_EXPOSED_HEADERS, ...token],
      allowedHeaders: [...CORS_ALLOWED_HEADERS, ...token],
      methods: ['OPTIONS', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      maxAge: 600,
      preflightContinue: true,
    });
  }

  use(req: Request, res: Response, next: NextFunction): void {
    this.handler(req, res, next);
  }
}
