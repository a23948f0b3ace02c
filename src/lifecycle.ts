import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApp, type AppOptions } from './app.setup.js';
import { ConfigError, readConfig, type AppConfig } from './config/app-config.js';

/**
 * The server process: reads the configuration (one line naming a bad variable), builds the app with
 * `options` (extension modules, docs/EXTENDING.md), listens, and shuts down gracefully on SIGTERM/SIGINT.
 */
export async function serve(options: AppOptions = {}): Promise<void> {
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
    app = await createApp(config, options);
    await app.listen(config.http.port);
  } catch (error) {
    process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }

  const shutdown = gracefulShutdown(app, config.http.shutdownGraceMs);
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * Graceful shutdown: stop accepting connections, let requests in flight finish (up to `graceMs`,
 * after which their connections are closed), close the database pool, then exit 0.
 */
export function gracefulShutdown(
  app: NestExpressApplication,
  graceMs: number,
  exit: (code: number) => void = (code) => process.exit(code),
) {
  let stopping: Promise<void> | null = null;
  return (signal: string): Promise<void> => {
    stopping ??= (async () => {
      const force = setTimeout(() => {
        process.stderr.write(`Requests still running ${graceMs} ms after ${signal}; closing their connections.\n`);
        app.getHttpServer().closeAllConnections();
      }, graceMs);
      force.unref();
      try {
        await app.close();
        clearTimeout(force);
        exit(0);
      } catch (error) {
        process.stderr.write(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
        exit(1);
      }
    })();
    return stopping;
  };
}
