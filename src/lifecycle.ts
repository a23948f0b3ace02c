import { Logger as NestLogger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { createApp, createFirstAdministrator, type AppOptions } from './app.setup.js';
import { ConfigError, readConfig, type AppConfig } from './config/app-config.js';
import { DatabaseUnreachable } from './database/database-at-start.js';
import { startupLines } from './startup-banner.js';
import { humanStartOutput, reportFailedStart } from './startup-log.js';

/**
 * The server process: reads the configuration (one line naming a bad variable), builds the app with
 * `options` (extension modules, docs/EXTENDING.md), listens, and shuts down gracefully on SIGTERM/SIGINT.
 * A start that fails says why in one line (JSON unless a person watches a terminal) and exits 1.
 */
export async function serve(options: AppOptions = {}): Promise<void> {
  let config: AppConfig;
  try {
    config = readConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    await reportFailedStart(error.message, humanStartOutput(process.env.LOG_FORMAT), { context: 'Config', variable: error.variable });
    process.exit(1);
  }

  let app: NestExpressApplication;
  let admin: Awaited<ReturnType<typeof createFirstAdministrator>>;
  try {
    app = await createApp(config, options);
    await app.listen(config.http.port);
    admin = await createFirstAdministrator(app, config);
  } catch (error) {
    const message = `Start-up failed: ${error instanceof Error ? error.message : String(error)}`;
    // the attempts said what went wrong with the database; any other error comes with its stack
    const err = error instanceof DatabaseUnreachable ? undefined : error;
    await reportFailedStart(message, humanStartOutput(config.log.format), { context: 'Startup', err });
    process.exit(1);
  }
  announce(config, admin, app.get(Logger));

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
      const logger = new NestLogger('Shutdown');
      logger.log(`${signal} received: no new connections; waiting up to ${graceMs} ms for requests in flight.`);
      const force = setTimeout(() => {
        process.stderr.write(`Requests still running ${graceMs} ms after ${signal}; closing their connections.\n`);
        app.getHttpServer().closeAllConnections();
      }, graceMs);
      force.unref();
      try {
        await app.close();
        clearTimeout(force);
        logger.log('Shutdown finished: requests done, database closed.');
        exit(0);
      } catch (error) {
        process.stderr.write(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
        exit(1);
      }
    })();
    return stopping;
  };
}

/**
 * What an operator needs at start: where the service listens, its docs, the database, and a new
 * administrator's generated password (once). A short human banner on a terminal; JSON log lines
 * when the output is collected (not a terminal) or `LOG_FORMAT=json`.
 */
function announce(config: AppConfig, admin: Awaited<ReturnType<typeof createFirstAdministrator>>, logger: Logger): void {
  const lines = startupLines(config, admin);
  if (process.stdout.isTTY && config.log.format !== 'json') {
    process.stdout.write(`${lines.banner.join('\n')}\n`);
    return;
  }
  for (const msg of lines.log) logger.log({ msg, ...lines.release }, 'Startup');
  if (lines.password) logger.warn(lines.password, 'Startup');
}
