import { withSlugReservations } from '../sql/free-slug.js';

/** Error codes that mean "the database cannot be reached or did not answer", not "the query was wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'POOL_CLOSED',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; errno?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && UNAVAILABLE_CODES.has(candidate.code)) return true;
    if (
      typeof candidate.message === 'string' &&
      /connect ETIMEDOUT|Connection lost|Pool is closed|Can't add new command when connection is in closed state/i.test(candidate.message)
    ) {
      return true;
    }
    current = candidate.driverError ?? candidate.cause;
  }
  return false;
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
 * took first, or the database chose it as a deadlock victim. The work recomputes its choices each time.
 */
export async function retryOnConflict<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withSlugReservations(work);
    } catch (error) {
      if (attempt >= CONFLICT_RETRIES || !(isUniqueViolation(error) || isTransientConflict(error))) throw error;
      // Full jitter over a window that doubles each time: writers that keep choosing the same slug
      // spread out instead of colliding again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * 2 ** attempt, MAX_BACKOFF_MS)));
    }
  }
}
