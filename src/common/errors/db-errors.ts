/**
 * Error codes that mean "the database did not answer at all": the connection could not be opened, was
 * lost, or stayed silent past its bound. Whatever was sent on it has an unknown outcome.
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_SERVER_SHUTDOWN',
  'DB_QUERY_TIMEOUT',
]);

/** Error codes that mean "the database cannot serve this request now", not "the query was wrong". */
const UNAVAILABLE_CODES = new Set([
  ...UNREACHABLE_CODES,
  'ER_CON_COUNT_ERROR',
  'ER_LOCK_WAIT_TIMEOUT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'POOL_CLOSED',
  'DB_ACQUIRE_TIMEOUT',
  'DB_MARKED_DOWN',
  'DB_CONNECTION_DISCARDED',
]);

/**
 * Raised by the connection guard (database/database-guard.ts) instead of waiting: `DB_QUERY_TIMEOUT`
 * (no answer within the bound), `DB_ACQUIRE_TIMEOUT` (no free connection within the bound),
 * `DB_MARKED_DOWN` (the database is known to be away; nothing was sent), `DB_CONNECTION_DISCARDED` (a
 * later command on a connection the guard closed after a query past its bound).
 */
export class DatabaseUnavailableError extends Error {
  constructor(
    readonly code: 'DB_QUERY_TIMEOUT' | 'DB_ACQUIRE_TIMEOUT' | 'DB_MARKED_DOWN' | 'DB_CONNECTION_DISCARDED',
    message: string,
  ) {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}

function someCause(error: unknown, test: (candidate: { code?: unknown; errno?: unknown; message?: unknown }) => boolean): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; errno?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (test(candidate)) return true;
    current = candidate.driverError ?? candidate.cause;
  }
  return false;
}

/** The database gave no answer (see {@link UNREACHABLE_CODES}): the reason to mark it down. */
export function isDatabaseUnreachable(error: unknown): boolean {
  return someCause(
    error,
    (candidate) =>
      (typeof candidate.code === 'string' && UNREACHABLE_CODES.has(candidate.code)) ||
      (typeof candidate.message === 'string' &&
        /connect ETIMEDOUT|Connection lost|Can't add new command when connection is in closed state/i.test(candidate.message)),
  );
}

/** Refused without trying, because the database is known to be away (already logged once, when it went). */
export function isDatabaseMarkedDown(error: unknown): boolean {
  return someCause(error, (candidate) => candidate.code === 'DB_MARKED_DOWN');
}

/**
 * The server stopped a statement at its time limit (`max_statement_time` on MariaDB, error 1969, or
 * `max_execution_time` on MySQL, 3024; set per connection by the guard): it answered, and the
 * connection stays usable.
 */
const STATEMENT_TIMEOUT_ERRNOS = new Set([1969, 3024]);

export function isDatabaseUnavailable(error: unknown): boolean {
  return (
    isDatabaseUnreachable(error) ||
    someCause(
      error,
      (candidate) =>
        (typeof candidate.code === 'string' && UNAVAILABLE_CODES.has(candidate.code)) ||
        (typeof candidate.errno === 'number' && STATEMENT_TIMEOUT_ERRNOS.has(candidate.errno)) ||
        (typeof candidate.message === 'string' && /Pool is closed|Queue limit reached/i.test(candidate.message)),
    )
  );
}

/** A unique index refused the row (used to retry slug and name races). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; driverError?: unknown };
    if (
      candidate.code === 'ER_DUP_ENTRY' ||
      candidate.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
      candidate.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
    )
      return true;
    current = candidate.driverError;
  }
  return false;
}

/** A transaction lost a race (deadlock or lock wait) and may simply be run again. */
export function isTransientConflict(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; driverError?: unknown };
    if (candidate.code === 'ER_LOCK_DEADLOCK' || candidate.code === 'ER_LOCK_WAIT_TIMEOUT' || candidate.code === 'SQLITE_BUSY') return true;
    current = candidate.driverError;
  }
  return false;
}

const CONFLICT_RETRIES = 12;
const MAX_BACKOFF_MS = 400;

/**
 * Runs a write transaction again when it lost a race: a unique index refused a slug another writer
 * took first, or the database chose it as a deadlock victim (the server answered: nothing was
 * applied). The work recomputes its choices each time. Timeouts and lost connections are not retried:
 * their outcome is unknown, and they fail the request (503).
 */
export async function retryOnConflict<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      // A lost or silent connection is never a conflict: a COMMIT sent on it may have been applied.
      const conflict = !isDatabaseUnreachable(error) && (isUniqueViolation(error) || isTransientConflict(error));
      if (attempt >= CONFLICT_RETRIES || !conflict) throw error;
      // Full jitter over a window that doubles each time: writers that keep choosing the same slug
      // spread out instead of colliding again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * 2 ** attempt, MAX_BACKOFF_MS)));
    }
  }
}
