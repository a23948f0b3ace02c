import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cors from 'cors';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { LANGUAGE_NAMES } from './editions/language-names.js';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { ApiExceptionFilter } from './common/errors/api-exception.filter.js';
import { parseQueryString } from './common/http/body.js';
import { httpPipeline } from './common/http/pipeline.js';
import { RateLimits } from './common/http/rate-limits.js';
import { responseCache } from './cache/response-cache.js';
import { DataVersionService } from './cache/data-version.service.js';
import { ItemsService } from './items/items.service.js';
import { siteDay } from './common/dates/site-day.js';
import { RouteRegistry } from './common/http/route-registry.js';
import { apiValidationPipe } from './common/validation/api-validation.pipe.js';
import type { AppConfig } from './config/app-config.js';
import { ApiDocumentService } from './docs/api-document.service.js';
import { Editions } from './editions/editions.js';
import { Translator } from './i18n/translator.js';
import { AuthService } from './users/auth.service.js';

export const CORS_EXPOSED_HEADERS = ['X-TEC-Total', 'X-TEC-TotalPages', 'X-WP-Total', 'X-WP-TotalPages', 'Link', 'Allow'];
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'X-WP-Nonce',
  'Content-Disposition',
  'Content-MD5',
  'Content-Type',
  'X-HTTP-Method-Override',
];

/** Builds the application exactly as it serves requests; `main.ts` and the e2e tests both use it. */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', parseQueryString);

  const editions = app.get(Editions);
  const translator = app.get(Translator);
  const documents = app.get(ApiDocumentService);
  const auth = app.get(AuthService);
  const limits = new RateLimits(config.limits);
  app.set('trust proxy', config.limits.trustProxy);
  const [context, ...checks] = httpPipeline({
    config,
    editions,
    registry: app.get(RouteRegistry),
    translator,
    authenticate: (login, password) => auth.authenticate({ login, password }),
    limits,
    apiIndex: (ctx) => documents.apiIndex(ctx),
    routeEntry: (ctx, route) => documents.routeEntry(ctx, route),
  });
  app.use(context);
  app.use(securityHeaders());
  app.use(corsMiddleware(config));
  for (const check of checks) app.use(check);
  if (config.limits.responseCache) {
    const items = app.get(ItemsService);
    app.use(
      responseCache({
        version: app.get(DataVersionService),
        beforeRead: () => items.publishDueItems(),
        today: siteDay(config.site.timezone),
        entries: config.limits.responseCacheEntries,
      }),
    );
  }

  app.setGlobalPrefix(`${config.api.root.slice(1)}/${config.api.namespace}`, { exclude: ['health', 'health/ready'] });
  app.useGlobalPipes(apiValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter(translator, editions.defaultEdition));
  app.getHttpServer().on('close', () => void limits.close());

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Event Calendar API')
      .setDescription('Read and manage calendar events and the venues, organizers, categories and tags attached to them.')
      .setVersion('1.0.0')
      .addBasicAuth()
      .build(),
    { ignoreGlobalPrefix: true },
  );
  documents.setDocument(document);
  SwaggerModule.setup('docs', app, document, {
    raw: false,
    explorer: true,
    useGlobalPrefix: false,
    customSiteTitle: 'Event Calendar API',
    swaggerOptions: {
      urls: editions.codes.map((code) => ({ url: `${editions.api(code)}/doc`, name: LANGUAGE_NAMES[code] ?? code })),
      'urls.primaryName': LANGUAGE_NAMES[editions.defaultEdition] ?? editions.defaultEdition,
    },
  });
  await app.init();
  return app;
}

/**
 * helmet everywhere; the docs page gets a policy that lets Swagger UI run (its own scripts and
 * styles, the documents of every edition), the API a policy that allows nothing to be loaded.
 */
function securityHeaders(): RequestHandler {
  const common = { crossOriginResourcePolicy: { policy: 'cross-origin' as const }, xFrameOptions: { action: 'deny' as const } };
  const api = helmet({ ...common, contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } } });
  const docs = helmet({
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
  return (req, res, next) => (req.path === '/docs' || req.path.startsWith('/docs/') ? docs(req, res, next) : api(req, res, next));
}

function corsMiddleware(config: AppConfig) {
  const allowed = config.http.corsOrigins;
  return cors({
    origin: (origin, callback) => callback(null, origin !== undefined && (allowed === '*' || allowed.includes(origin)) ? origin : false),
    credentials: true,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    methods: ['OPTIONS', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    maxAge: 600,
    preflightContinue: true,
  });
}
