import 'reflect-metadata';
import type { Logger } from 'typeorm';
import { readConfig } from './src/config/app-config.js';
import { resolveDataSourceOptions } from './src/database/data-source-options.js';
import { MigrationLockingDataSource } from './src/database/migration-lock.js';

/**
 * What `migration:run` and `migration:revert` print: which migrations ran and any error, not every SQL
 * statement (the TypeORM command line turns query logging on; this logger keeps the statements to itself).
 */
const logger: Logger = {
  logQuery: () => undefined,
  logQuerySlow: () => undefined,
  logQueryError: (error, query) => process.stderr.write(`${error instanceof Error ? error.message : error}\n  in: ${query}\n`),
  logSchemaBuild: (message) => process.stdout.write(`${message}\n`),
  logMigration: (message) => process.stdout.write(`${message}\n`),
  log: (level, message) => {
    if (level !== 'log') process.stderr.write(`${String(message)}\n`);
  },
};

/** The data source of the TypeORM command line (`npm run migration:run`), built from the app's config; it migrates under the migration lock. */
export default new MigrationLockingDataSource({ ...(await resolveDataSourceOptions(readConfig().database)), logger });
