import { DatabaseUnavailableError, isDatabaseUnavailable, isDatabaseUnreachable } from '../common/errors/db-errors.js';

type Callback = (error: Error | null, ...results: unknown[]) => void;

/** The part of a mysql2 pool connection the guard uses. */
export interface GuardedConnection {
  query(...args: unknown[]): unknown;
  destroy(): void;
  release(): void;
  /** mysql2's promise wrapper of the connection (TypeORM asks for it before every query). */
  promise?: (promiseImpl?: PromiseConstructor) => unknown;
}

/**
 * TypeORM asks a connection for its promise wrapper before every query, and mysql2 builds a new one
 * each time, resolving a `require` of its module on the way (4 % of an uncached read's CPU when
 * measured). The wrapper keeps no state of a query, so one per connection serves all of
 * them; a wrapper with another promise implementation is still built on demand.
 */
export function shareTheWrapper(connection: GuardedConnection): void {
  const build = connection.promise;
  if (typeof build !== 'function') return;
  let shared: unknown;
  connection.promise = (promiseImpl?: PromiseConstructor) =>
    promiseImpl === undefined ? (shared ??= build.call(connection)) : build.call(connection, promiseImpl);
}

/**
 * The statement that has the server itself stop a statement a little before the guard gives up on
 * it: without it, a query the guard abandoned (its connection closed) runs on in the database until
 * it next sends something, so slow requests repeated by clients would pile up work there. MariaDB
 * bounds every statement (`max_statement_time`, seconds), MySQL only reads (`max_execution_time`,
 * milliseconds). The server answers such a statement with an error (1969 or 3024) and the
 * connection stays usable.
 */
export function serverTimeLimit(flavour: 'mariadb' | 'mysql', queryTimeoutMs: number): string {
  const limitMs = Math.max(1, Math.floor(queryTimeoutMs * SERVER_LIMIT_SHARE));
  return flavour === 'mariadb'
    ? `SET SESSION max_statement_time = ${(limitMs / 1000).toFixed(3)}`
    : `SET SESSION max_execution_time = ${limitMs}`;
}

/** The server's limit as a share of the guard's bound: its error arrives before the guard closes the connection. */
export const SERVER_LIMIT_SHARE = 0.9;

/** The part of a mysql2 (callback) pool the guard wraps; TypeORM's MySQL driver asks it for every connection. */
export interface GuardedPool {
  getConnection(callback: (error: Error | null, connection?: GuardedConnection) => void): void;
}

export interface DatabaseGuardSettings {
  queryTimeoutMs: number;
  acquireTimeoutMs: number;
  probeIntervalMs: number;
  /** One `SELECT 1` on a connection of its own, bounded; resolves when the database answered. */
  probe: () => Promise<void>;
  /** How long the probe that follows a query past its bound may take before the database counts as down. */
  checkTimeoutMs: number;
  /**
   * Sent once on each connection before its first use (see {@link serverTimeLimit}); a server that
   * refuses it is warned about and the connection used all the same.
   */
  sessionSql?: string;
  log?: (level: 'warn' | 'log', message: string) => void;
}

/**
 * Bounds every wait on a MySQL/MariaDB pool and stops waiting altogether while the database is away.
 *
 * - Every acquisition waits at most `acquireTimeoutMs`, every query at most `queryTimeoutMs`; a query
 *   past its bound fails, and its connection is destroyed (mysql2 would keep the silent command at
 *   the head of the connection and hand it to the next request).
 * - A query past its bound fails alone when the database still answers: a probe follows at once, and
 *   only when it gets no answer within `checkTimeoutMs` is the database marked down (one slow query
 *   must not turn every other request away).
 * - A connection that got no answer, or a query whose probe got none, marks the database down: waiting acquisitions and
 *   running queries fail at once (except a COMMIT, which is left to its own bound so an answer that
 *   is on its way still counts), and every new acquisition or query fails without sending anything.
 *   Connections opened before that are discarded when next acquired, never reused.
 * - While down, a probe runs every `probeIntervalMs`; its first answer marks the database up again.
 *
 * Failures are {@link DatabaseUnavailableError}s, which the API answers as 503 `db_unavailable`.
 * Nothing is retried here: a write whose outcome is unknown fails.
 */
export class DatabaseGuard {
  private down = false;
  private generation = 0;
  private stopped = false;
  private probeTimer: NodeJS.Timeout | undefined;
  private checking = false;
  private sessionRefused = false;
  private readonly generations = new WeakMap<GuardedConnection, number>();
  /** Connections the guard closed after a query past its bound (their transaction's ROLLBACK still comes). */
  private readonly discarded = new WeakSet<GuardedConnection>();
  private readonly waiting = new Set<(error: Error) => void>();
  private readonly running = new Map<(error: Error) => void, string>();

  constructor(private readonly settings: DatabaseGuardSettings) {}

  get isDown(): boolean {
    return this.down;
  }

  install(pool: GuardedPool): void {
    const getConnection = pool.getConnection.bind(pool);
    pool.getConnection = (callback) => this.acquire(getConnection, callback);
  }

  /** Stops probing (shutdown). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.probeTimer);
  }

  private acquire(getConnection: GuardedPool['getConnection'], callback: (error: Error | null, connection?: GuardedConnection) => void) {
    if (this.down) {
      process.nextTick(() => callback(markedDown()));
      return;
    }
    let settled = false;
    const fail = (error: Error) => finish(error);
    const finish = (error: Error | null, connection?: GuardedConnection) => {
      if (settled) {
        if (connection) connection.release();
        return;
      }
      settled = true;
      clearTimeout(timer);
      this.waiting.delete(fail);
      callback(error, connection);
    };
    const timer = setTimeout(
      () => fail(new DatabaseUnavailableError('DB_ACQUIRE_TIMEOUT', `no database connection within ${this.settings.acquireTimeoutMs} ms`)),
      this.settings.acquireTimeoutMs,
    );
    this.waiting.add(fail);
    const attempt = () =>
      getConnection((error, connection) => {
        if (error || !connection) {
          finish(error ?? new Error('no connection'));
          if (isDatabaseUnreachable(error)) this.markDown(error as Error);
          return;
        }
        const born = this.generations.get(connection);
        if (born === undefined) {
          this.generations.set(connection, this.generation);
          this.guardQueries(connection);
          shareTheWrapper(connection);
          if (this.settings.sessionSql) return this.prepare(connection, this.settings.sessionSql, finish);
        } else if (born < this.generation) {
          // opened before the database was last marked down: its socket may be silent or half-open
          connection.destroy();
          if (!settled) attempt();
          return;
        }
        finish(null, connection);
      });
    attempt();
  }

  /** Sends the session statement on a new connection (bounded like any query), then hands it out. */
  private prepare(connection: GuardedConnection, sql: string, finish: (error: Error | null, connection?: GuardedConnection) => void): void {
    connection.query(sql, (error: Error | null) => {
      // no answer, or the database marked down meanwhile: the connection is not handed out
      if (error && (isDatabaseUnavailable(error) || this.discarded.has(connection))) {
        connection.destroy();
        finish(error);
        return;
      }
      if (error && !this.sessionRefused) {
        this.sessionRefused = true;
        this.settings.log?.('warn', `The database refused "${sql}" (${error.message}); queries past their bound keep running there`);
      }
      finish(null, connection);
    });
  }

  private guardQueries(connection: GuardedConnection): void {
    const query = connection.query.bind(connection);
    connection.query = (...args: unknown[]) => {
      const last = args.length - 1;
      if (typeof args[last] !== 'function') return query(...args);
      const callback = args[last] as Callback;
      const sql = sqlOf(args[0]);
      if (this.discarded.has(connection)) {
        // the server rolls back what the connection had open; that is no sign of an outage
        process.nextTick(() => callback(discarded()));
        return undefined;
      }
      if (this.down) {
        // nothing is sent; the connection may hold an open transaction, which the server rolls back
        connection.destroy();
        process.nextTick(() => callback(markedDown()));
        return undefined;
      }
      let settled = false;
      const settle = (error: Error | null, ...results: unknown[]) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.running.delete(abort);
        callback(error, ...results);
      };
      const abort = (error: Error) => {
        settle(error);
        this.discarded.add(connection);
        connection.destroy();
      };
      const timer = setTimeout(() => {
        const error = new DatabaseUnavailableError(
          'DB_QUERY_TIMEOUT',
          `no answer from the database within ${this.settings.queryTimeoutMs} ms`,
        );
        abort(error);
        this.check(error);
      }, this.settings.queryTimeoutMs);
      this.running.set(abort, sql);
      args[last] = (error: Error | null, ...results: unknown[]) => {
        if (error && isDatabaseUnreachable(error)) this.markDown(error);
        settle(error, ...results);
      };
      return query(...args);
    };
  }

  /** After a query past its bound: marks the database down unless a fresh probe answers in time. */
  private check(cause: Error): void {
    if (this.down || this.stopped || this.checking) return;
    this.checking = true;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer to the probe')), this.settings.checkTimeoutMs);
    });
    const probe = this.settings.probe();
    probe.catch(() => undefined);
    Promise.race([probe, bound])
      .then(
        () => this.settings.log?.('warn', `${cause.message}; the database answers a probe, so only that query failed`),
        () => this.markDown(cause),
      )
      .finally(() => {
        clearTimeout(timer);
        this.checking = false;
      });
  }

  private markDown(cause: Error): void {
    if (this.down || this.stopped) return;
    this.down = true;
    this.generation++;
    this.settings.log?.('warn', `Database marked down (${cause.message}); probing every ${this.settings.probeIntervalMs} ms`);
    for (const fail of [...this.waiting]) fail(markedDown());
    for (const [abort, sql] of [...this.running]) if (!/^\s*COMMIT\b/i.test(sql)) abort(markedDown());
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.stopped) return;
    this.probeTimer = setTimeout(() => {
      this.settings.probe().then(
        () => {
          if (this.stopped) return;
          this.down = false;
          this.settings.log?.('log', 'Database answers again; accepting requests');
        },
        () => this.scheduleProbe(),
      );
    }, this.settings.probeIntervalMs);
    this.probeTimer.unref();
  }
}

function markedDown(): DatabaseUnavailableError {
  return new DatabaseUnavailableError('DB_MARKED_DOWN', 'the database is marked down; waiting for a probe to answer');
}

function discarded(): DatabaseUnavailableError {
  return new DatabaseUnavailableError('DB_CONNECTION_DISCARDED', 'the connection was closed after a query got no answer in time');
}

function sqlOf(query: unknown): string {
  if (typeof query === 'string') return query;
  const sql = (query as { sql?: unknown } | null)?.sql;
  return typeof sql === 'string' ? sql : '';
}
