import { isDatabaseUnavailable } from '../common/errors/db-errors.js';
import { DatabaseGuard, type GuardedConnection, type GuardedPool, serverTimeLimit, shareTheWrapper } from './database-guard.js';

type Callback = (error: Error | null, result?: unknown) => void;

/** A connection whose queries are answered only when the test says so. */
class FakeConnection implements GuardedConnection {
  destroyed = false;
  released = 0;
  readonly pending: Array<{ sql: string; callback: Callback }> = [];
  query = (sql: unknown, ...rest: unknown[]) => {
    this.pending.push({ sql: String(sql), callback: rest[rest.length - 1] as Callback });
    return undefined;
  };
  answerAll(result: unknown = [{ 1: 1 }]) {
    for (const { callback } of this.pending.splice(0)) callback(null, result);
  }
  destroy() {
    this.destroyed = true;
  }
  release() {
    this.released++;
  }
}

/** A pool that hands out fresh connections, or makes acquisitions wait or fail. */
class FakePool implements GuardedPool {
  mode: 'serve' | 'hang' | 'refuse' = 'serve';
  readonly created: FakeConnection[] = [];
  free: FakeConnection[] = [];
  getConnection(callback: (error: Error | null, connection?: GuardedConnection) => void) {
    if (this.mode === 'hang') return;
    if (this.mode === 'refuse') return callback(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const connection = this.free.pop() ?? new FakeConnection();
    if (!this.created.includes(connection)) this.created.push(connection);
    callback(null, connection);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function setUp(
  probe: () => Promise<void> = () => Promise.reject(new Error('still away')),
  extra: { sessionSql?: string; log?: (level: string, message: string) => void } = {},
) {
  const pool = new FakePool();
  const guard = new DatabaseGuard({ queryTimeoutMs: 200, acquireTimeoutMs: 200, probeIntervalMs: 20, checkTimeoutMs: 50, probe, ...extra });
  guard.install(pool);
  const acquire = () =>
    new Promise<FakeConnection>((resolve, reject) =>
      pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection as FakeConnection))),
    );
  const query = (connection: FakeConnection, sql = 'SELECT 1') =>
    new Promise((resolve, reject) =>
      connection.query(sql, [], (error: Error | null, result: unknown) => (error ? reject(error) : resolve(result))),
    );
  return { pool, guard, acquire, query };
}

const SESSION_SQL = 'SET SESSION max_statement_time = 0.180';

/** A guard that sends {@link SESSION_SQL} on each new connection, with the warnings it logs. */
function setUpWithSession() {
  const warnings: string[] = [];
  return { ...setUp(undefined, { sessionSql: SESSION_SQL, log: (_level, message) => warnings.push(message) }), warnings };
}

describe('DatabaseGuard', () => {
  let guard: DatabaseGuard | undefined;
  afterEach(() => guard?.stop());

  it('sends the session statement once on each new connection before handing it out; a refusal is warned about once', async () => {
    const { warnings, ...setup } = setUpWithSession();
    guard = setup.guard;
    const acquired = setup.acquire();
    const connection = setup.pool.created[0];
    expect(connection.pending.map((sent) => sent.sql)).toEqual([SESSION_SQL]);
    connection.answerAll([]);
    expect(await acquired).toBe(connection);
    connection.release();
    setup.pool.free.push(connection);
    // the same connection again: nothing more is sent before the app's query
    const again = await setup.acquire();
    expect(again).toBe(connection);
    expect(connection.pending).toHaveLength(0);
    // a server that refuses the statement: the connection is used all the same, one warning in all
    for (let i = 0; i < 2; i++) {
      const next = setup.acquire();
      const fresh = setup.pool.created[setup.pool.created.length - 1];
      fresh.pending.splice(0).forEach(({ callback }) => callback(Object.assign(new Error('Unknown system variable'), { errno: 1193 })));
      expect(await next).toBe(fresh);
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`refused "${SESSION_SQL}"`);
  });

  it('hands out no connection whose session statement was cut short by the database going down, and warns of no refusal', async () => {
    const { warnings, ...setup } = setUpWithSession();
    guard = setup.guard;
    const first = setup.acquire();
    setup.pool.created[0].answerAll([]);
    const silent = setup.query(await first).catch(() => undefined);
    await sleep(20);
    // a second connection whose session statement is still unanswered when the silent query's probe fails
    const second = setup.acquire().catch((caught: unknown) => caught);
    const pending = setup.pool.created[1];
    expect(pending.pending.map((sent) => sent.sql)).toEqual([SESSION_SQL]);
    expect(isDatabaseUnavailable(await second)).toBe(true);
    await silent;
    await sleep(150);
    expect(setup.guard.isDown).toBe(true);
    expect(pending.destroyed).toBe(true);
    expect(pending.released).toBe(0);
    expect(warnings.filter((message) => message.includes('refused'))).toEqual([]);
  });

  it('has the server stop statements a little before the guard gives up on them', () => {
    expect(serverTimeLimit('mariadb', 3000)).toBe('SET SESSION max_statement_time = 2.700');
    expect(serverTimeLimit('mysql', 3000)).toBe('SET SESSION max_execution_time = 2700');
    expect(serverTimeLimit('mariadb', 1)).toBe('SET SESSION max_statement_time = 0.001');
  });

  it('passes answers through untouched while the database answers', async () => {
    const setup = setUp();
    guard = setup.guard;
    const connection = await setup.acquire();
    const answer = setup.query(connection);
    connection.answerAll([{ ok: 1 }]);
    await expect(answer).resolves.toEqual([{ ok: 1 }]);
    expect(setup.guard.isDown).toBe(false);
  });

  it('fails a silent query after its bound, destroys its connection and marks the database down when a probe gets no answer either', async () => {
    const setup = setUp();
    guard = setup.guard;
    const connection = await setup.acquire();
    const started = Date.now();
    const error = await setup.query(connection).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toMatchObject({ code: 'DB_QUERY_TIMEOUT' });
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(connection.destroyed).toBe(true);
    await sleep(0);
    expect(setup.guard.isDown).toBe(true);
    // a late answer is ignored
    connection.answerAll();
  });

  it('while down: fails acquisitions and queries at once without sending anything', async () => {
    const setup = setUp();
    guard = setup.guard;
    const held = await setup.acquire();
    await setup.query(await setup.acquire()).catch(() => undefined);
    await sleep(0);
    const started = Date.now();
    await expect(setup.acquire()).rejects.toMatchObject({ code: 'DB_MARKED_DOWN' });
    await expect(setup.query(held)).rejects.toMatchObject({ code: 'DB_MARKED_DOWN' });
    expect(Date.now() - started).toBeLessThan(100);
    expect(held.pending).toEqual([]);
    expect(held.destroyed).toBe(true);
  });

  it('on the first silence, fails waiting acquisitions and running queries at once, but lets a COMMIT wait for its answer', async () => {
    const setup = setUp();
    guard = setup.guard;
    const first = await setup.acquire();
    const stalled = setup.query(first).catch((caught: unknown) => caught);
    await sleep(30);
    const other = await setup.acquire();
    const running = setup.query(other, 'SELECT 2').catch((caught: unknown) => caught);
    const committing = await setup.acquire();
    const commit = setup.query(committing, 'COMMIT');
    setup.pool.mode = 'hang';
    const waiting = setup.acquire().catch((caught: unknown) => caught);
    expect(await stalled).toMatchObject({ code: 'DB_QUERY_TIMEOUT' });
    const timedOut = Date.now();
    expect(await running).toMatchObject({ code: 'DB_MARKED_DOWN' });
    expect(await waiting).toMatchObject({ code: 'DB_MARKED_DOWN' });
    expect(Date.now() - timedOut).toBeLessThan(100);
    committing.answerAll({ affectedRows: 0 });
    await expect(commit).resolves.toEqual({ affectedRows: 0 });
  });

  it('fails only the slow query when the database answers the probe that follows it', async () => {
    let probes = 0;
    const setup = setUp(() => {
      probes++;
      return Promise.resolve();
    });
    guard = setup.guard;
    const slow = await setup.acquire();
    const stalled = setup.query(slow, 'SELECT SLEEP(10)').catch((caught: unknown) => caught);
    // still running when the slow one passes its bound, and far from its own (a loaded machine delays timers)
    await sleep(150);
    const other = await setup.acquire();
    const running = setup.query(other, 'SELECT 2');
    expect(await stalled).toMatchObject({ code: 'DB_QUERY_TIMEOUT' });
    expect(slow.destroyed).toBe(true);
    await sleep(20);
    expect(probes).toBe(1);
    expect(setup.guard.isDown).toBe(false);
    // the other query was left to finish, and new work is accepted
    other.answerAll([{ two: 2 }]);
    await expect(running).resolves.toEqual([{ two: 2 }]);
    const next = await setup.acquire();
    const answer = setup.query(next);
    next.answerAll([{ ok: 1 }]);
    await expect(answer).resolves.toEqual([{ ok: 1 }]);
  });

  it('marks the database down when the probe after a slow query is itself too slow', async () => {
    const setup = setUp(() => new Promise<void>((resolve) => setTimeout(resolve, 500)));
    guard = setup.guard;
    const connection = await setup.acquire();
    expect(await setup.query(connection).catch((caught: unknown) => caught)).toMatchObject({ code: 'DB_QUERY_TIMEOUT' });
    expect(setup.guard.isDown).toBe(false);
    await sleep(80);
    expect(setup.guard.isDown).toBe(true);
    await expect(setup.acquire()).rejects.toMatchObject({ code: 'DB_MARKED_DOWN' });
  });

  it('bounds an acquisition that gets no connection, without marking the database down', async () => {
    const setup = setUp();
    guard = setup.guard;
    setup.pool.mode = 'hang';
    await expect(setup.acquire()).rejects.toMatchObject({ code: 'DB_ACQUIRE_TIMEOUT' });
    expect(setup.guard.isDown).toBe(false);
  });

  it('marks the database down on a refused connection, probes until it answers, then discards connections opened before', async () => {
    let answering = false;
    let probes = 0;
    const setup = setUp(() => {
      probes++;
      return answering ? Promise.resolve() : Promise.reject(new Error('still away'));
    });
    guard = setup.guard;
    const old = await setup.acquire();
    old.release();
    setup.pool.free.push(old);
    setup.pool.mode = 'refuse';
    await expect(setup.acquire()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(setup.guard.isDown).toBe(true);
    await sleep(150);
    expect(probes).toBeGreaterThanOrEqual(2);
    expect(setup.guard.isDown).toBe(true);

    answering = true;
    setup.pool.mode = 'serve';
    await sleep(150);
    expect(setup.guard.isDown).toBe(false);
    const fresh = await setup.acquire();
    expect(old.destroyed).toBe(true);
    expect(fresh).not.toBe(old);
  });
});

describe('shareTheWrapper', () => {
  function connection() {
    const built: Array<{ of: unknown; promiseImpl: unknown }> = [];
    const conn: GuardedConnection = {
      query: () => undefined,
      destroy: () => undefined,
      release: () => undefined,
      promise(this: unknown, promiseImpl?: unknown) {
        const wrapper = { of: this, promiseImpl };
        built.push(wrapper);
        return wrapper;
      },
    };
    return { conn, built };
  }

  it("builds the connection's promise wrapper once and hands the same one to every later caller", () => {
    const { conn, built } = connection();
    shareTheWrapper(conn);
    const first = conn.promise?.();
    expect(conn.promise?.()).toBe(first);
    expect(conn.promise?.()).toBe(first);
    expect(built).toEqual([{ of: conn, promiseImpl: undefined }]);
  });

  it('still builds a wrapper of its own for another promise implementation', () => {
    const { conn, built } = connection();
    shareTheWrapper(conn);
    const shared = conn.promise?.();
    const other = conn.promise?.(Promise);
    expect(other).not.toBe(shared);
    expect(built).toHaveLength(2);
    expect(built[1]).toEqual({ of: conn, promiseImpl: Promise });
  });

  it('leaves a connection without a wrapper alone', () => {
    const conn: GuardedConnection = { query: () => undefined, destroy: () => undefined, release: () => undefined };
    shareTheWrapper(conn);
    expect(conn.promise).toBeUndefined();
  });
});
