import { BEFORE_COMMIT, COMMIT_AHEAD } from '../common/sql/together.js';
import { deferTransactionStarts } from './deferred-begin.js';

type Callback = (error: Error | null, results?: unknown, fields?: unknown) => void;

/** A connection that records what it sends and answers each statement of a text with its position. */
function fakeConnection(multipleStatements = true) {
  const sent: string[] = [];
  const ended: string[] = [];
  const connection = {
    config: { multipleStatements },
    format: (sql: string, values: unknown) =>
      (values as unknown[]).reduce<string>((text, value) => text.replace('?', JSON.stringify(value)), sql),
    query: (...args: unknown[]) => {
      const [first] = args;
      const sql = typeof first === 'string' ? first : (first as { sql: string }).sql;
      sent.push(args.length === 3 ? connection.format(sql, args[1]) : sql);
      const statements = sql.split(';\n');
      const callback = args[args.length - 1] as Callback;
      const answer = statements.length === 1 ? `result of ${statements[0]}` : statements.map((statement) => `result of ${statement}`);
      const fields = statements.length === 1 ? 'fields' : statements.map((_, index) => `fields ${index}`);
      process.nextTick(() =>
        statements.some((statement) => statement === 'FAIL') ? callback(new Error('failed')) : callback(null, answer, fields),
      );
      return undefined;
    },
    release: () => void ended.push('release'),
    destroy: () => void ended.push('destroy'),
  };
  return { connection, sent, ended };
}

function ask(connection: { query: (...args: unknown[]) => unknown }, ...args: unknown[]) {
  return new Promise<{ results: unknown; fields: unknown }>((resolve, reject) =>
    connection.query(...args, (error: Error | null, results: unknown, fields: unknown) =>
      error ? reject(error) : resolve({ results, fields }),
    ),
  );
}

const joined = (sql: string) => sql.includes(';\n');

/**
 * A deferring connection in a transaction begun with `INSERT a`, with `UPDATE v` held for its
 * commit and its next query asked to carry the commit; `ahead` asks again.
 */
async function carryingTheCommit() {
  const fake = fakeConnection();
  deferTransactionStarts(fake.connection, joined);
  const calls = fake.connection as unknown as { [BEFORE_COMMIT]: (sql: string) => void; [COMMIT_AHEAD]: () => void };
  await ask(fake.connection, 'START TRANSACTION');
  await ask(fake.connection, 'INSERT a');
  calls[BEFORE_COMMIT]('UPDATE v');
  calls[COMMIT_AHEAD]();
  return { ...fake, ahead: calls[COMMIT_AHEAD] };
}

describe('deferTransactionStarts', () => {
  it('answers START TRANSACTION at once and sends it with the next statement, whose own result that caller gets', async () => {
    const { connection, sent } = fakeConnection();
    deferTransactionStarts(connection, joined);
    const begun = await ask(connection, 'START TRANSACTION');
    expect(begun.results).toMatchObject({ affectedRows: 0 });
    expect(sent).toEqual([]);
    await expect(ask(connection, 'SELECT ? AS v', ['x'])).resolves.toEqual({ results: 'result of SELECT "x" AS v', fields: 'fields 1' });
    expect(sent).toEqual(['START TRANSACTION;\nSELECT "x" AS v']);
    await ask(connection, 'COMMIT');
    expect(sent).toEqual(['START TRANSACTION;\nSELECT "x" AS v', 'COMMIT']);
  });

  it('keeps the list of results of a text that holds several statements already', async () => {
    const { connection, sent } = fakeConnection();
    deferTransactionStarts(connection, joined);
    await ask(connection, 'START TRANSACTION');
    const { results, fields } = await ask(connection, 'INSERT a;\nINSERT b');
    expect(results).toEqual(['result of INSERT a', 'result of INSERT b']);
    expect(fields).toEqual(['fields 1', 'fields 2']);
    expect(sent).toEqual(['START TRANSACTION;\nINSERT a;\nINSERT b']);
  });

  it('reports the failure of the joined text to the statement that was joined', async () => {
    const { connection } = fakeConnection();
    deferTransactionStarts(connection, joined);
    await ask(connection, 'START TRANSACTION');
    await expect(ask(connection, 'FAIL')).rejects.toThrow('failed');
    await expect(ask(connection, 'ROLLBACK')).resolves.toEqual({ results: 'result of ROLLBACK', fields: 'fields' });
  });

  it('forgets a held start when the connection is released or closed', async () => {
    for (const end of ['release', 'destroy'] as const) {
      const { connection, sent, ended } = fakeConnection();
      deferTransactionStarts(connection, joined);
      await ask(connection, 'START TRANSACTION');
      connection[end]();
      expect(ended).toEqual([end]);
      await ask(connection, 'SELECT 1');
      expect(sent).toEqual(['SELECT 1']);
    }
  });

  it('leaves a connection that takes one statement per query alone', async () => {
    const { connection, sent } = fakeConnection(false);
    deferTransactionStarts(connection, joined);
    await ask(connection, 'START TRANSACTION');
    await ask(connection, 'SELECT 1');
    expect(sent).toEqual(['START TRANSACTION', 'SELECT 1']);
  });

  it('sends statements held for the commit just before the COMMIT, which answers its own result', async () => {
    const { connection, sent } = fakeConnection();
    deferTransactionStarts(connection, joined);
    const hold = (connection as unknown as { [BEFORE_COMMIT]: (sql: string) => void })[BEFORE_COMMIT];
    await ask(connection, 'START TRANSACTION');
    await ask(connection, 'INSERT a');
    hold('UPDATE v');
    await expect(ask(connection, 'COMMIT')).resolves.toEqual({ results: 'result of COMMIT', fields: 'fields 1' });
    expect(sent).toEqual(['START TRANSACTION;\nINSERT a', 'UPDATE v;\nCOMMIT']);
    // an empty transaction: its start, the held statement and the commit in one trip
    await ask(connection, 'START TRANSACTION');
    hold('UPDATE v');
    await ask(connection, 'COMMIT');
    expect(sent[2]).toBe('START TRANSACTION;\nUPDATE v;\nCOMMIT');
  });

  it('does not commit when a held statement fails, and drops held statements on ROLLBACK and on release', async () => {
    const { connection, sent } = fakeConnection();
    deferTransactionStarts(connection, joined);
    const hold = (connection as unknown as { [BEFORE_COMMIT]: (sql: string) => void })[BEFORE_COMMIT];
    await ask(connection, 'START TRANSACTION');
    await ask(connection, 'INSERT a');
    hold('FAIL');
    await expect(ask(connection, 'COMMIT')).rejects.toThrow('failed');
    await ask(connection, 'ROLLBACK');
    await ask(connection, 'START TRANSACTION');
    await ask(connection, 'INSERT b');
    hold('UPDATE v');
    await ask(connection, 'ROLLBACK');
    await ask(connection, 'COMMIT');
    hold('UPDATE w');
    connection.release();
    await ask(connection, 'COMMIT');
    expect(sent.slice(2)).toEqual(['ROLLBACK', 'START TRANSACTION;\nINSERT b', 'ROLLBACK', 'COMMIT', 'COMMIT']);
  });

  it('lets the last statements of a transaction carry its commit, whose own COMMIT is then answered at once', async () => {
    const { connection, sent, ahead } = await carryingTheCommit();
    await expect(ask(connection, 'INSERT b;\nSELECT c')).resolves.toEqual({
      results: ['result of INSERT b', 'result of SELECT c'],
      fields: ['fields 0', 'fields 1'],
    });
    expect(sent).toEqual(['START TRANSACTION;\nINSERT a', 'INSERT b;\nSELECT c;\nUPDATE v;\nCOMMIT']);
    await expect(ask(connection, 'COMMIT')).resolves.toMatchObject({ results: { affectedRows: 0 } });
    expect(sent).toHaveLength(2);
    // one statement with a held start: start, statement and commit in one trip; the next transaction is as usual
    await ask(connection, 'START TRANSACTION');
    ahead();
    await expect(ask(connection, 'INSERT ?', ['x'])).resolves.toEqual({ results: 'result of INSERT "x"', fields: 'fields 1' });
    // a rollback after the commit (the writer failed afterwards) has nothing left to undo: answered here too
    await expect(ask(connection, 'ROLLBACK')).resolves.toMatchObject({ results: { affectedRows: 0 } });
    await ask(connection, 'START TRANSACTION');
    await ask(connection, 'INSERT y');
    await ask(connection, 'COMMIT');
    expect(sent.slice(2)).toEqual(['START TRANSACTION;\nINSERT "x";\nCOMMIT', 'START TRANSACTION;\nINSERT y', 'COMMIT']);
  });

  it('does not commit when the last statements fail: the ROLLBACK goes to the server', async () => {
    const { connection, sent } = await carryingTheCommit();
    await expect(ask(connection, 'INSERT b;\nFAIL')).rejects.toThrow('failed');
    await ask(connection, 'ROLLBACK');
    expect(sent).toEqual(['START TRANSACTION;\nINSERT a', 'INSERT b;\nFAIL;\nUPDATE v;\nCOMMIT', 'ROLLBACK']);
  });

  it('refuses a statement sent after the transaction committed with its last statements, and forgets it all on release', async () => {
    const { connection, sent, ahead } = await carryingTheCommit();
    await ask(connection, 'INSERT b');
    await expect(ask(connection, 'INSERT late')).rejects.toThrow('after its transaction committed');
    expect(sent).toEqual(['START TRANSACTION;\nINSERT a', 'INSERT b;\nUPDATE v;\nCOMMIT']);
    // a request to carry the commit that was never used is forgotten with the connection
    await ask(connection, 'START TRANSACTION');
    ahead();
    connection.release();
    await ask(connection, 'INSERT c');
    expect(sent[2]).toBe('INSERT c');
  });

  it('sends a held start on its own before a query without a callback (a stream), in order', () => {
    const sent: string[] = [];
    const connection = {
      config: { multipleStatements: true },
      format: (sql: string) => sql,
      query: (...args: unknown[]) => {
        sent.push(String(args[0]));
        const callback = args[args.length - 1];
        if (typeof callback === 'function') process.nextTick(() => (callback as Callback)(null, 'ok', undefined));
        return undefined;
      },
      release: () => undefined,
      destroy: () => undefined,
    };
    deferTransactionStarts(connection, joined);
    connection.query('START TRANSACTION', () => undefined);
    connection.query('SELECT a');
    expect(sent).toEqual(['START TRANSACTION', 'SELECT a']);
  });
});
