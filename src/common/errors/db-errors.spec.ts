import { DatabaseUnavailableError, isDatabaseUnavailable, isDatabaseUnreachable, retryOnConflict } from './db-errors.js';

/** As TypeORM wraps a driver error. */
const queryFailed = (code: string) => Object.assign(new Error('query failed'), { driverError: Object.assign(new Error(code), { code }) });

describe('database errors', () => {
  it('tells a database that did not answer from one that answered no', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_SEQUENCE_TIMEOUT', 'DB_QUERY_TIMEOUT']) {
      expect(isDatabaseUnreachable(queryFailed(code))).toBe(true);
      expect(isDatabaseUnavailable(queryFailed(code))).toBe(true);
    }
    for (const code of ['ER_LOCK_WAIT_TIMEOUT', 'ER_CON_COUNT_ERROR', 'DB_ACQUIRE_TIMEOUT', 'DB_MARKED_DOWN']) {
      expect(isDatabaseUnreachable(queryFailed(code))).toBe(false);
      expect(isDatabaseUnavailable(queryFailed(code))).toBe(true);
    }
    expect(isDatabaseUnavailable(new DatabaseUnavailableError('DB_MARKED_DOWN', 'down'))).toBe(true);
    // a statement stopped at the server's time limit: MariaDB's 1969 (no code name in mysql2), MySQL's 3024
    for (const errno of [1969, 3024]) {
      const stopped = Object.assign(new Error('query failed'), { driverError: Object.assign(new Error('interrupted'), { errno }) });
      expect(isDatabaseUnreachable(stopped)).toBe(false);
      expect(isDatabaseUnavailable(stopped)).toBe(true);
    }
    expect(isDatabaseUnavailable(queryFailed('ER_DUP_ENTRY'))).toBe(false);
    expect(isDatabaseUnavailable(queryFailed('ER_PARSE_ERROR'))).toBe(false);
  });

  it('retries lost races, never a write whose outcome is unknown', async () => {
    let attempts = 0;
    await expect(
      retryOnConflict(() => (++attempts < 3 ? Promise.reject(queryFailed('ER_LOCK_DEADLOCK')) : Promise.resolve('stored'))),
    ).resolves.toBe('stored');
    expect(attempts).toBe(3);

    for (const error of [
      queryFailed('DB_QUERY_TIMEOUT'),
      queryFailed('PROTOCOL_CONNECTION_LOST'),
      queryFailed('ECONNRESET'),
      new DatabaseUnavailableError('DB_MARKED_DOWN', 'down'),
    ]) {
      attempts = 0;
      await expect(
        retryOnConflict(() => {
          attempts++;
          return Promise.reject(error);
        }),
      ).rejects.toBe(error);
      expect(attempts).toBe(1);
    }
  });
});
