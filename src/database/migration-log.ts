import { Logger as NestLogger } from '@nestjs/common';
import type { Logger } from 'typeorm';

/**
 * TypeORM's logger for the serving app. Queries and the rest stay unlogged (as with `logging: false`);
 * the one kind of message TypeORM always writes, a migration that failed, goes to the application's
 * log as a line of `Migrations` instead of TypeORM's own console output.
 */
export function migrationLog(): Logger {
  const logger = new NestLogger('Migrations');
  return {
    logQuery: () => undefined,
    logQueryError: () => undefined,
    logQuerySlow: () => undefined,
    logSchemaBuild: () => undefined,
    logMigration: (message) => (/failed/i.test(message) ? logger.error(message) : logger.log(message)),
    log: () => undefined,
  };
}
