import { BEFORE_COMMIT, COMMIT_AHEAD } from '../common/sql/together.js';

type Callback = (error: Error | null, results?: unknown, fields?: unknown) => void;

/** The part of a mysql2 pool connection this uses. */
interface BeginningConnection {
  query: (...args: unknown[]) => unknown;
  release(): void;
  destroy(): void;
  config?: { multipleStatements?: boolean };
  format?: (sql: string, values: unknown) => string;
  [BEFORE_COMMIT]?: (sql: string) => void;
  [COMMIT_AHEAD]?: () => void;
}

/** What `START TRANSACTION` answers: no rows, nothing changed. */
const BEGUN = Object.freeze({ fieldCount: 0, affectedRows: 0, insertId: 0, info: '', serverStatus: 0, warningStatus: 0, changedRows: 0 });

const BEGIN = /^\s*START TRANSACTION\s*$/i;
const COMMIT = /^\s*COMMIT\s*$/i;
const ROLLBACK = /^\s*ROLLBACK\s*$/i;
const AFTER_COMMIT = 'A statement was sent after its transaction committed with its last statements.';

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
 * - A transaction's last statements may carry its commit (`COMMIT_AHEAD`, asked by `runTogether`
 *   when the writer knows nothing else is to be sent): the held statements and the `COMMIT` follow
 *   them in the same query, and their caller gets only their own results. When any of them fails,
 *   the `COMMIT` is not run and the caller gets the error. Once it has run, the transaction's own
 *   `COMMIT` (or a `ROLLBACK`, which has nothing left to undo) is answered at once; any other
 *   statement before it is refused (it would no longer run inside the transaction).
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
  /** The next query carries the commit. */
  let commitNext = false;
  /** The transaction committed with its last statements: its own `COMMIT` is answered here. */
  let committed = false;
  connection[BEFORE_COMMIT] = (sql) => beforeCommit.push(sql);
  connection[COMMIT_AHEAD] = () => void (commitNext = true);
  connection.query = (...args: unknown[]) => {
    const last = args.length - 1;
    const callback = args[last] as Callback;
    if (typeof callback !== 'function') {
      if (committed) throw new Error(AFTER_COMMIT);
      // a query read as a stream cannot be joined: a held start goes first, on its own
      if (begin) query('START TRANSACTION', () => undefined);
      begin = false;
      return query(...args);
    }
    const [first] = args;
    const sql = typeof first === 'string' ? first : (first as { sql?: unknown } | null)?.sql;
    if (typeof sql !== 'string') return query(...args);
    if (committed) {
      committed = false;
      // the commit is done and a rollback has nothing left to undo; anything else would run outside the transaction
      const ends = COMMIT.test(sql) || ROLLBACK.test(sql);
      process.nextTick(() => (ends ? callback(null, BEGUN, undefined) : callback(new Error(AFTER_COMMIT))));
      return undefined;
    }
    if (BEGIN.test(sql)) {
      begin = true;
      commitNext = false;
      process.nextTick(() => callback(null, BEGUN, undefined));
      return undefined;
    }
    if (ROLLBACK.test(sql)) {
      beforeCommit = [];
      commitNext = false;
    }
    const isCommit = COMMIT.test(sql);
    const carriesCommit = commitNext && !isCommit;
    commitNext = false;
    const before = [...(begin ? ['START TRANSACTION'] : []), ...(isCommit ? beforeCommit : [])];
    const after = carriesCommit ? [...beforeCommit, 'COMMIT'] : [];
    begin = false;
    if (isCommit || carriesCommit) beforeCommit = [];
    if (before.length === 0 && after.length === 0) return query(...args);
    const values = args.length === 3 ? args[1] : undefined;
    const text = [...before, values === undefined ? sql : format(sql, values), ...after].join(';\n');
    const joined = isJoined(sql);
    const answer: Callback = (error, results, fields) => {
      if (error) return callback(error);
      if (carriesCommit) committed = true;
      const list = results as unknown[];
      const fieldList = fields as unknown[] | undefined;
      const own = before.length;
      const end = list.length - after.length;
      callback(null, joined ? list.slice(own, end) : list[own], joined ? fieldList?.slice(own, end) : fieldList?.[own]);
    };
    return query(typeof first === 'string' ? text : { ...(first as object), sql: text, values: undefined }, answer);
  };
  for (const name of ['release', 'destroy'] as const) {
    const end = connection[name].bind(connection);
    connection[name] = () => {
      begin = false;
      beforeCommit = [];
      commitNext = false;
      committed = false;
      end();
    };
  }
}
