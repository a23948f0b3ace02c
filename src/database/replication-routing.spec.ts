import type { DataSource } from 'typeorm';
import { DatabaseUnavailableError } from '../common/errors/db-errors.js';
import { onReplica } from '../common/sql/read-routing.js';
import type { GuardedConnection } from './database-guard.js';
import { MysqlServers, PRIMARY, type ServerPool } from './mysql-servers.js';
import { installReadRouting } from './replication-routing.js';

type Callback = (error: Error | null, result?: unknown) => void;

/** A connection that answers each query with what `answer` says. */
class FakeConnection implements GuardedConnection {
  released = 0;
  readonly sent: string[] = [];
  constructor(
    readonly server: string,
    private readonly answer: (sql: string) => Error | null,
  ) {}
  query(sql: unknown, ...rest: unknown[]) {
    this.sent.push(String(sql));
    const callback = rest[rest.length - 1] as Callback;
    const error = this.answer(String(sql));
    process.nextTick(() => (error ? callback(error) : callback(null, [{ server: this.server }])));
    return undefined;
  }
  destroy() {}
  release() {
    this.released++;
  }
}

class FakePool implements ServerPool {
  refuse = false;
  fail: (sql: string) => Error | null = () => null;
  readonly handedOut: FakeConnection[] = [];
  constructor(readonly server: string) {}
  getConnection(callback: (error: Error | null, connection?: GuardedConnection) => void) {
    if (this.refuse) return process.nextTick(() => callback(new Error('connect ECONNREFUSED')));
    const connection = new FakeConnection(this.server, (sql) => this.fail(sql));
    this.handedOut.push(connection);
    process.nextTick(() => callback(null, connection));
  }
  end(callback?: (error: Error | null) => void) {
    callback?.(null);
  }
}

function setUp() {
  const [replica, primary] = [new FakePool('replica'), new FakePool('primary')];
  const opened = [replica, primary];
  const servers = new MysqlServers(() => opened.shift()!);
  // as TypeORM's MySQL driver adds them
  const cluster = servers.createPoolCluster();
  cluster.add('SLAVE0', {});
  cluster.add(PRIMARY, {});
  expect(servers.all()).toEqual([
    [PRIMARY, primary],
    ['SLAVE0', replica],
  ]);
  const failed: string[] = [];
  const replicas = { usable: (id: string) => !failed.includes(id), markFailed: (id: string) => void failed.push(id) };
  installReadRouting({ options: { type: 'mariadb', driver: servers } } as unknown as DataSource, replicas);
  const connect = (pattern: string) =>
    new Promise<GuardedConnection>((resolve, reject) =>
      cluster.getConnection(pattern, (error, connection) =>
        error || !connection ? reject(error ?? new Error('no connection')) : resolve(connection),
      ),
    );
  const ask = (connection: GuardedConnection, sql: string) =>
    new Promise<unknown>((resolve, reject) =>
      connection.query(sql, [], (error: Error | null, rows: unknown) => (error ? reject(error) : resolve(rows))),
    );
  const onTheReplica = <T>(work: () => Promise<T>) => onReplica({ replica: 'SLAVE0', holdsDataVersion: () => true }, work);
  return { primary, replica, failed, connect, ask, onTheReplica };
}

describe('read routing through the servers TypeORM opens', () => {
  it('gives the reads of a request to its replica, and everything else to the primary', async () => {
    const { connect, onTheReplica } = setUp();
    expect(((await connect('SLAVE*')) as FakeConnection).server).toBe('primary');
    expect(((await onTheReplica(() => connect('SLAVE*'))) as FakeConnection).server).toBe('replica');
    expect(((await onTheReplica(() => connect(PRIMARY))) as FakeConnection).server).toBe('primary');
  });

  it('marks a replica that refuses a connection and lets the primary answer', async () => {
    const { replica, failed, connect, onTheReplica } = setUp();
    replica.refuse = true;
    expect(((await onTheReplica(() => connect('SLAVE*'))) as FakeConnection).server).toBe('primary');
    expect(failed).toEqual(['SLAVE0']);
    replica.refuse = false;
    expect(((await onTheReplica(() => connect('SLAVE*'))) as FakeConnection).server).toBe('primary');
  });

  it('runs a plain read again on the primary when its replica goes away, but never a write', async () => {
    const { primary, replica, failed, connect, ask, onTheReplica } = setUp();
    const connection = await onTheReplica(() => connect('SLAVE*'));
    replica.fail = () => new DatabaseUnavailableError('DB_QUERY_TIMEOUT', 'no answer');
    expect(await ask(connection, 'SELECT 1')).toEqual([{ server: 'primary' }]);
    expect(failed).toEqual(['SLAVE0']);
    expect(primary.handedOut.at(-1)?.released).toBe(1);
    await expect(ask(connection, 'UPDATE t SET a = 1')).rejects.toThrow('no answer');
    await expect(ask(connection, 'SELECT 1 FOR UPDATE')).rejects.toThrow('no answer');
  });
});
