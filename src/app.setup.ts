import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { ResponseCacheInterceptor } from './cache/response-cache.js';
import type { AppConfig } from './config/app-config.js';
import { DocsPage } from './docs/docs-page.js';
import { ApiExpressAdapter } from './http/api-express.adapter.js';
import { StartupState } from './health/startup-state.js';
import { QuietStartLogger, startLogger } from './startup-log.js';
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

export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, options.modules),
    new ApiExpressAdapter(config.limits.trustProxy, parserHeaderLimit(config.http), {
      maxAgeSeconds: config.http.cacheMaxAgeSeconds,
      sharedMaxAgeSeconds: config.http.cacheSharedMaxAgeSeconds,
    }),
    {
      bodyParser: false,
      // what is said while the modules are created (the database's attempts, Nest's and TypeORM's
      // errors) is written at once, as the JSON lines of the application's logger
      logger: new QuietStartLogger(startLogger(config.log)),
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
