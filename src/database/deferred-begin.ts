type Callback = (error: Error | null, results?: unknown, fields?: unknown) => void;

/** The part of a mysql2 pool connection this uses. */
interface BeginningConnection {
  query: (...args: unknown[]) => unknown;
  release(): void;
  destroy(): void;
  config?: { multipleStatements?: boolean };
  format?: (sql: string, values: unknown) => string;
}

/** What `START TRANSACTION` answers: no rows, nothing changed. */
const BEGUN = Object.freeze({ fieldCount: 0, affectedRows: 0, insertId: 0, info: '', serverStatus: 0, warningStatus: 0, changedRows: 0 });

const BEGIN = /^\s*START TRANSACTION\s*$/i;

/**
 * Sends a transaction's `START TRANSACTION` with its first statement instead of on its own, on a
 * connection that accepts several statements per query (see `joinedStatements`): one round trip less
 * for every transaction. The caller is answered at once; the next statement on the connection goes
 * as `START TRANSACTION;` followed by that statement, and its caller gets that statement's own
 * result. InnoDB takes a transaction's snapshot at its first read either way, so nothing else
 * changes. A connection released or closed with its start still held has sent nothing: the start
 * is forgotten, never joined to the next user's statement.
 *
 * `isJoined(sql)`: true for a text that already holds several statements (`runTogether`), whose
 * results stay a list.
 */
export function deferTransactionStarts(connection: BeginningConnection, isJoined: (sql: string) => boolean): void {
  if (connection.config?.multipleStatements !== true || typeof connection.format !== 'function') return;
  const format = connection.format.bind(connection);
  const query = connection.query.bind(connection);
  let held = false;
  connection.query = (...args: unknown[]) => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback !== 'function') return query(...args);
    const [first] = args;
    const sql = typeof first === 'string' ? first : (first as { sql?: unknown } | null)?.sql;
    if (typeof sql !== 'string') return query(...args);
    if (BEGIN.test(sql)) {
      held = true;
      process.nextTick(() => (callback as Callback)(null, BEGUN, undefined));
      return undefined;
    }
    if (!held) return query(...args);
    held = false;
    const values = args.length === 3 ? args[1] : undefined;
    const text = `START TRANSACTION;\n${values === undefined ? sql : format(sql, values)}`;
    const joined = isJoined(sql);
    const answer: Callback = (error, results, fields) => {
      if (error) return (callback as Callback)(error);
      const list = results as unknown[];
      const fieldList = fields as unknown[] | undefined;
      (callback as Callback)(null, joined ? list.slice(1) : list[1], joined ? fieldList?.slice(1) : fieldList?.[1]);
    };
    return query(typeof first === 'string' ? text : { ...(first as object), sql: text, values: undefined }, answer);
  };
  for (const name of ['release', 'destroy'] as const) {
    const end = connection[name].bind(connection);
    connection[name] = () => {
      held = false;
      end();
    };
  }
}
