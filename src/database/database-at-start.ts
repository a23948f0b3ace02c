import { setTimeout as sleep } from 'node:timers/promises';
import type { LoggerService } from '@nestjs/common';
import mysql from 'mysql2/promise';
import type { MysqlConfig } from '../config/app-config.js';

/** What the primary said about itself once it answered. */
export interface ServerAtStart {
  version: string;
  mariaDb: boolean;
}

/** The start-up gave up on the database: the message says after how many attempts and why. */
export class DatabaseUnreachable extends Error {}

/**
 * Waits for the primary at start: up to `DB_CONNECT_ATTEMPTS` connections, each bounded by
 * `DB_CONNECT_TIMEOUT_MS`, `DB_CONNECT_RETRY_DELAY_MS` apart. Every attempt is logged as it ends (a
 * failure with its error on one line), so an operator watching a start sees at once that the
 * database is missing and how long the server will keep trying. Throws {@link DatabaseUnreachable}
 * after the last one.
 */
export async function reachDatabase(
  database: Pick<MysqlConfig, 'url' | 'connectTimeoutMs' | 'connectAttempts' | 'connectRetryDelayMs'>,
  logger: Pick<LoggerService, 'log' | 'warn' | 'error'>,
): Promise<ServerAtStart> {
  const attempts = database.connectAttempts;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const server = await askVersion(database);
      logger.log(`Database answers (attempt ${attempt} of ${attempts}): ${server.version}.`, 'Database');
      return server;
    } catch (error) {
      const reason = oneLine(error);
      if (attempt >= attempts) {
        logger.error(`Database connection attempt ${attempt} of ${attempts} failed: ${reason}. Giving up.`, 'Database');
        throw new DatabaseUnreachable(
          `no connection to the database in ${attempts} attempt${attempts === 1 ? '' : 's'} (last error: ${reason})`,
        );
      }
      logger.warn(
        `Database connection attempt ${attempt} of ${attempts} failed: ${reason}. Next attempt in ${database.connectRetryDelayMs} ms.`,
        'Database',
      );
      await sleep(database.connectRetryDelayMs);
    }
  }
}

async function askVersion(database: Pick<MysqlConfig, 'url' | 'connectTimeoutMs'>): Promise<ServerAtStart> {
  let connection: mysql.Connection | undefined;
  try {
    connection = await mysql.createConnection({ uri: database.url, connectTimeout: database.connectTimeoutMs });
    const [rows] = await connection.query({ sql: 'SELECT VERSION() AS version', timeout: database.connectTimeoutMs });
    const version = String((rows as Array<{ version: string }>)[0]?.version ?? '');
    return { version, mariaDb: /mariadb/i.test(version) };
  } finally {
    // a connection that never opened has nothing to close; one that did is closed without waiting for the server
    connection?.destroy();
  }
}

/**
 * An error as one line: its code and message. Connecting to a name with several addresses fails
 * with an AggregateError whose own message is empty; its parts say what happened.
 */
export function oneLine(error: unknown): string {
  const parts = error instanceof AggregateError && error.errors.length > 0 ? error.errors : [error];
  const texts = parts.map((part) => {
    const { code, message } = (part ?? {}) as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' && message !== '' ? message : String(part);
    return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
  });
  return [...new Set(texts)].join('; ').replace(/\s*\n\s*/g, ' ');
}
