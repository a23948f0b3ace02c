import { BEFORE_COMMIT } from '../common/sql/together.js';

type Callback = (error: Error | null, results?: unknown, fields?: unknown) => void;

/** The part of a mysql2 pool connection this uses. */
interface BeginningConnection {
  query: (...args: unknown[]) => unknown;
  release(): void;
  destroy(): void;
  config?: { multipleStatements?: boolean };
  format?: (sql: string, values: unknown) => string;
  [BEFORE_COMMIT]?: (sql: string) => void;
}

/** What `START TRANSACTION` answers: no rows, nothing changed. */
const BEGUN = Object.freeze({ fieldCount: 0, affectedRows: 0, insertId: 0, info: '', serverStatus: 0, warningStatus: 0, changedRows: 0 });

const BEGIN = /^\s*START TRANSACTION\s*$/i;
const COMMIT = /^\s*COMMIT\s*$/i;
const ROLLBACK = /^\s*ROLLBACK\s*$/i;

/**
 * Saves round trips on a connection that accepts several statements per query (see
 * `joinedStatements`):
 *
 * - A transaction's `START TRANSACTION` is answered at once and sent with the transaction's first
 *   statement (`START TRANSACTION;` followed by it), whose caller gets that statement's own result.
 *   InnoDB takes a transaction's snapshot at its first read either way, so nothing else changes.
 * - Statements held for the commit (`holdForCommit` in `common/sql/together.ts`) go with the
 *   `COMMIT`, just before it: when one fails, the `COMMIT` is not run and its caller gets the error
 *   (the transaction then rolls back); a `ROLLBACK` drops them.
 *
 * A connection released or closed with anything still held has sent nothing of it: it is forgotten,
 * never joined to the next user's statements. `isJoined(sql)`: true for a text that already holds
 * several statements (`runTogether`), whose results stay a list.
 */
export function deferTransactionStarts(connection: BeginningConnection, isJoined: (sql: string) => boolean): void {
  if (connection.config?.multipleStatements !== true || typeof connection.format !== 'function') return;
  const format = connection.format.bind(connection);
  const query = connection.query.bind(connection);
  let begin = false;
  let beforeCommit: string[] = [];
  connection[BEFORE_COMMIT] = (sql) => beforeCommit.push(sql);
  connection.query = (...args: unknown[]) => {
    const last = args.length - 1;
    const callback = args[last] as Callback;
    if (typeof callback !== 'function') {
      // a query read as a stream cannot be joined: a held start goes first, on its own
      if (begin) query('START TRANSACTION', () => undefined);
      begin = false;
      return query(...args);
    }
    const [first] = args;
    const sql = typeof first === 'string' ? first : (first as { sql?: unknown } | null)?.sql;
    if (typeof sql !== 'string') return query(...args);
    if (BEGIN.test(sql)) {
      begin = true;
      process.nextTick(() => callback(null, BEGUN, undefined));
      return undefined;
    }
    if (ROLLBACK.test(sql)) beforeCommit = [];
    const before = [...(begin ? ['START TRANSACTION'] : []), ...(COMMIT.test(sql) ? beforeCommit : [])];
    begin = false;
    if (COMMIT.test(sql)) beforeCommit = [];
    if (before.length === 0) return query(...args);
    const values = args.length === 3 ? args[1] : undefined;
    const text = [...before, values === undefined ? sql : format(sql, values)].join(';\n');
    const joined = isJoined(sql);
    const answer: Callback = (error, results, fields) => {
      if (error) return callback(error);
      const list = results as unknown[];
      const fieldList = fields as unknown[] | undefined;
      const own = before.length;
      callback(null, joined ? list.slice(own) : list[own], joined ? fieldList?.slice(own) : fieldList?.[own]);
    };
    return query(typeof first === 'string' ? text : { ...(first as object), sql: text, values: undefined }, answer);
  };
  for (const name of ['release', 'destroy'] as const) {
    const end = connection[name].bind(connection);
    connection[name] = () => {
      begin = false;
      beforeCommit = [];
      end();
    };
  }
}
