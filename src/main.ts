import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ConfigError, readConfig, type AppConfig } from './config/app-config.js';
import { createApp } from './app.setup.js';

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

/**
 * Graceful shutdown: stop accepting connections, let requests in flight finish (up to
 * SHUTDOWN_GRACE_MS), close the database pool, exit 0.
 */
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  const force = setTimeout(() => {
    process.stderr.write(`Requests still running ${config.http.shutdownGraceMs} ms after ${signal}; closing their connections.\n`);
    app.getHttpServer().closeAllConnections();
  }, config.http.shutdownGraceMs);
  force.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    process.stderr.write(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
