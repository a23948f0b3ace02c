import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ConfigError, readConfig, type AppConfig } from './config/app-config.js';
import { createApp } from './app.setup.js';
import { gracefulShutdown } from './lifecycle.js';

let config: AppConfig;
try {
  config = readConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

let app: NestExpressApplication;
try {
  app = await createApp(config);
  await app.listen(config.http.port);
} catch (error) {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const shutdown = gracefulShutdown(app, config.http.shutdownGraceMs);
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
