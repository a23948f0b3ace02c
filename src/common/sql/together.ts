import mysql from 'mysql2';
import { type EntityManager, QueryFailedError } from 'typeorm';

/** One SQL statement with its `?` parameters. */
export interface Statement {
  sql: string;
  parameters?: unknown[];
}

/**
 * A statement to send with others (`runTogether`) and what to do with its result once it ran:
 * read rows from it, or hand it on (`void`).
 */
export interface StatementRead<T> {
  statement: Statement;
  read: (result: unknown) => T;
}

/** The joined texts {@link runTogether} is sending now: the only queries that may hold several statements. */
const sending = new Map<string, number>();

/**
 * True while `sql` is a text {@link runTogether} joined and is sending. The MySQL connections accept
 * several statements per query only for these (see `database/database-guard.ts`): any other text
 * with a `;` is refused before it is sent, so a value pasted into SQL by mistake can never run a
 * statement of its own.
 */
export function isJoinedStatements(sql: string): boolean {
  return sending.has(sql);
}

/**
 * Runs statements in order inside the caller's transaction and answers each one's result, as
 * `manager.query` would have. On MySQL/MariaDB they travel as one query (one round trip, one socket
 * write, and the row locks they take are held only until the caller's next statement); the server
 * stops at the first that fails, and the whole call fails with its error (the caller's transaction
 * then rolls back). SQLite, and MySQL connections opened without `joinedStatements` (the CLI), run
 * them one by one. With `commit`, they are the transaction's last statements and carry its commit
 * where the connection can ({@link commitAhead}).
 */
export async function runTogether(manager: EntityManager, statements: readonly Statement[], commit = false): Promise<unknown[]> {
  const { options } = manager.connection.driver;
  if (statements.length < 2 || (options as { extra?: { multipleStatements?: boolean } }).extra?.multipleStatements !== true) {
    const results: unknown[] = [];
    for (const [index, { sql, parameters }] of statements.entries()) {
      if (commit && index === statements.length - 1) commitAhead(manager);
      results.push(await manager.query(sql, parameters));
    }
    return results;
  }
  if (commit) commitAhead(manager);
  const text = statements.map((statement) => formatted(manager, statement)).join(';\n');
  sending.set(text, (sending.get(text) ?? 0) + 1);
  try {
    const results: unknown = await sendJoined(manager, text);
    if (!Array.isArray(results) || results.length !== statements.length)
      throw new Error(`${statements.length} statements sent together, ${Array.isArray(results) ? results.length : 'no list of'} results`);
    return results as unknown[];
  } finally {
    const left = (sending.get(text) ?? 1) - 1;
    if (left > 0) sending.set(text, left);
    else sending.delete(text);
  }
}

/**
 * The driver's connection of the caller's open transaction (TypeORM keeps it on the query runner),
 * with what the serving app's MySQL/MariaDB connections add to it (`database/deferred-begin.ts`);
 * undefined outside a transaction or once its runner is released.
 */
function transactionConnection(manager: EntityManager): TransactionConnection | undefined {
  const runner = manager.queryRunner as unknown as
    { isReleased: boolean; isTransactionActive: boolean; databaseConnection?: TransactionConnection } | undefined;
  return runner && !runner.isReleased && runner.isTransactionActive ? runner.databaseConnection : undefined;
}

/** What {@link transactionConnection} gives: mysql2's callback `query`, and the steps the serving app adds. */
interface TransactionConnection {
  query(sql: string, done: (error: Error | null, result?: unknown) => void): unknown;
  [BEFORE_COMMIT]?: (sql: string) => void;
  [COMMIT_AHEAD]?: () => void;
}

/**
 * Sends joined statements on the connection of the caller's transaction, as `manager.query` would
 * (through the connection's own steps: the guard, the deferred begin) but without the query
 * runner's wrapping of every query (its events, which nothing here listens to, its logging, which
 * is off, its copy of the rows), which costs more CPU than the few statements of a write do. Its
 * errors are the runner's (`QueryFailedError`). Outside a transaction, `manager.query`.
 */
function sendJoined(manager: EntityManager, sql: string): Promise<unknown> {
  const connection = transactionConnection(manager);
  if (!connection) return manager.query(sql);
  return new Promise((resolve, reject) =>
    connection.query(sql, (error, result) => (error ? reject(new QueryFailedError(sql, undefined, error)) : resolve(result))),
  );
}

/** Where a MySQL/MariaDB connection of the serving app takes statements to send just before its `COMMIT`. */
export const BEFORE_COMMIT = Symbol('statements sent with the commit');

/**
 * Holds a statement to be sent with the `COMMIT` of the caller's transaction, just before it, in the
 * same round trip (see `database/deferred-begin.ts`): when it fails, nothing commits. False when the
 * connection cannot (SQLite, the CLI, outside a transaction): the caller then runs it itself.
 */
export function holdForCommit(manager: EntityManager, statement: Statement): boolean {
  const hold = transactionConnection(manager)?.[BEFORE_COMMIT];
  if (typeof hold !== 'function') return false;
  hold(formatted(manager, statement));
  return true;
}

/** Where a MySQL/MariaDB connection of the serving app is told that its next query ends the transaction. */
export const COMMIT_AHEAD = Symbol('the next query carries the commit');

/**
 * Lets the next query of the caller's transaction carry its `COMMIT`, with the statements held for
 * it, when the connection can (see `database/deferred-begin.ts`) and the transaction is not nested;
 * the transaction's own `COMMIT` then costs no round trip. For the caller's last statements, when
 * it knows that nothing else is to be sent before the commit. Elsewhere (SQLite, the CLI) nothing
 * changes: the commit goes on its own, as usual.
 */
function commitAhead(manager: EntityManager): void {
  const runner = manager.queryRunner;
  // TypeORM keeps the depth protected; every driver used here has it
  if ((runner as unknown as { transactionDepth?: number } | undefined)?.transactionDepth !== 1) return;
  transactionConnection(manager)?.[COMMIT_AHEAD]?.();
}

/**
 * A statement with its `?` values in place, as the MySQL driver formats a query with values (its
 * time zone included); one without values as it is (the driver would read it through for nothing).
 */
function formatted(manager: EntityManager, { sql, parameters }: Statement): string {
  if (parameters === undefined || parameters.length === 0) return sql;
  const timezone = (manager.connection.driver.options as { timezone?: string }).timezone ?? 'local';
  return mysql.format(sql, parameters as Parameters<typeof mysql.format>[1], false, timezone);
}

/**
 * Statements gathered to run together (`runTogether`), each with what to do with its result once
 * they ran: a write adds its rows, its reads and its checks in order, then sends them in one go.
 */
export class StatementBatch {
  private readonly statements: Statement[] = [];
  private readonly afterwards: Array<(result: unknown) => void> = [];

  /** Adds a statement (nothing for null); `then` gets its result. */
  send(statement: Statement | null, then: (result: unknown) => void = () => undefined): void {
    if (!statement) return;
    this.statements.push(statement);
    this.afterwards.push(then);
  }

  /** Adds a statement that reads (nothing for null); `keep` gets what its `read` made of the result. */
  read<T>(query: StatementRead<T> | null, keep: (value: T) => void = () => undefined): void {
    if (query) this.send(query.statement, (result) => keep(query.read(result)));
  }

  /**
   * Runs the statements in the caller's transaction, then hands each result on, in order. With
   * `commit`, they are the transaction's last: they carry its commit where the connection can
   * ({@link runTogether}).
   */
  async run(manager: EntityManager, commit = false): Promise<void> {
    const results = await runTogether(manager, this.statements, commit);
    results.forEach((result, index) => this.afterwards[index](result));
  }
}
