import type { DynamicModule, LoggerService, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { ResponseCacheInterceptor } from './cache/response-cache.js';
import type { AppConfig } from './config/app-config.js';
import { DocsPage } from './docs/docs-page.js';
import { ApiExpressAdapter } from './http/api-express.adapter.js';
import { StartupState } from './health/startup-state.js';
import { answerClientErrors, parserHeaderLimit } from './http/client-errors.js';
import { Translator } from './i18n/translator.js';
import { UsersService } from './users/users.service.js';

/**
 * Builds the application exactly as it serves requests; `main.ts` and the e2e tests both use it.
 * The request lifecycle itself is declared in `AppModule` (see docs/ARCHITECTURE.md).
 */
export interface AppOptions {
  /** Extra modules (e.g. a team's own resource); see docs/EXTENDING.md. */
  modules?: Array<Type | DynamicModule>;
}

/**
 * The first administrator (spec §4.3) when there is no user yet. `serve` calls it once the server
 * listens, so a start that fails (a port taken) never creates a password it cannot show. Start-up is
 * complete then: `/health/ready` answers 200 from here on (503 before).
 */
export async function createFirstAdministrator(app: NestExpressApplication, config: AppConfig) {
  const admin = await app.get(UsersService).bootstrapAdministrator(config.admin.login, config.admin.password);
  app.get(StartupState, { strict: false }).markComplete();
  return admin;
}

/** Nest's own start-up chatter (a line per module and per route): the banner says what matters. */
const STARTUP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** The application's logger, without Nest's informational start-up lines (warnings and errors pass). */
class QuietStartLogger implements LoggerService {
  constructor(private readonly inner: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    if (typeof rest.at(-1) === 'string' && STARTUP_CONTEXTS.has(rest.at(-1) as string)) return;
    this.inner.log(message, ...rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.inner.error(message, ...rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.inner.warn(message, ...rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.inner.debug(message, ...rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.inner.verbose(message, ...rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.inner.fatal(message, ...rest);
  }
}

export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, options.modules),
    new ApiExpressAdapter(config.limits.trustProxy, parserHeaderLimit(config.http), {
      maxAgeSeconds: config.http.cacheMaxAgeSeconds,
      sharedMaxAgeSeconds: config.http.cacheSharedMaxAgeSeconds,
    }),
    {
      bodyParser: false,
      bufferLogs: true,
      abortOnError: false,
    },
  );
  app.useLogger(new QuietStartLogger(app.get(Logger)));
  answerClientErrors(app.getHttpServer(), app.get(Translator), config.api.editions[0], config.http);
  app.get(DocsPage).publishFor(app);
  if (config.limits.responseCache) app.useGlobalInterceptors(app.get(ResponseCacheInterceptor));
  await app.init();
  return app;
}
