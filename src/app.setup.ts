import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config/app-config.js';
import { DocsPage } from './docs/docs-page.js';
import { ApiExpressAdapter } from './http/api-express.adapter.js';
import { answerClientErrors, parserHeaderLimit } from './http/client-errors.js';
import { Translator } from './i18n/translator.js';

/**
 * Builds the application exactly as it serves requests; `main.ts` and the e2e tests both use it.
 * The request lifecycle itself is declared in `AppModule` (see docs/ARCHITECTURE.md).
 */
export interface AppOptions {
  /** Extra modules (e.g. a team's own resource); see docs/EXTENDING.md. */
  modules?: Array<Type | DynamicModule>;
}

export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, options.modules),
    new ApiExpressAdapter(config.limits.trustProxy, parserHeaderLimit(config.http)),
    {
      bodyParser: false,
      bufferLogs: true,
      abortOnError: false,
    },
  );
  app.useLogger(app.get(Logger));
  answerClientErrors(app.getHttpServer(), app.get(Translator), config.api.editions[0], config.http);
  app.get(DocsPage).publishFor(app);
  await app.init();
  return app;
}
