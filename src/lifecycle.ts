import type { NestExpressApplication } from '@nestjs/platform-express';

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
