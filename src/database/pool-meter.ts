/** How busy one MySQL/MariaDB pool is: connections in use and idle, and acquisitions waiting. */
export interface PoolUsage {
  inUse: number;
  idle: number;
  waiting: number;
  /** The pool's connection limit (`DB_POOL_SIZE`). */
  max: number;
}

type Listener = (...args: unknown[]) => void;

/** The parts of a mysql2 pool connection the meter watches: its events and `destroy`. */
interface MeteredConnection {
  on?(event: string, listener: Listener): unknown;
  destroy(): void;
}

/** The parts of a mysql2 (callback) pool the meter watches: its events and `getConnection`. */
export interface MeteredPool {
  on?(event: string, listener: Listener): unknown;
  getConnection(callback: (error: Error | null, connection?: unknown) => void): void;
}

/**
 * Counts what a mysql2 pool holds. mysql2 has no public counters for it (its pool keeps them in
 * private fields), so the meter follows the pool's documented events instead: `connection` (opened),
 * `release` (back in the pool, idle) and `acquire` (taken from it), and a connection's `end` and
 * `error` or its `destroy()` (gone; the pool drops it then too). A connection handed straight from
 * one holder to a waiting one stays in use, as mysql2 announces neither. `waiting` counts calls of
 * `getConnection` not answered yet, which includes opening a new connection. Installed when the pool
 * is made, before anything else wraps it, so every connection is seen.
 */
export class PoolMeter {
  private readonly open = new Set<MeteredConnection>();
  private readonly idle = new Set<MeteredConnection>();
  private readonly watched = new WeakSet<MeteredConnection>();
  private waiting = 0;

  constructor(
    pool: MeteredPool,
    private readonly max: number,
  ) {
    if (typeof pool.on !== 'function') return;
    pool.on('connection', (connection) => this.watch(connection as MeteredConnection));
    pool.on('acquire', (connection) => {
      this.watch(connection as MeteredConnection);
      this.idle.delete(connection as MeteredConnection);
    });
    pool.on('release', (connection) => {
      this.watch(connection as MeteredConnection);
      this.idle.add(connection as MeteredConnection);
    });
    const getConnection = pool.getConnection.bind(pool);
    pool.getConnection = (callback) => {
      this.waiting++;
      getConnection((error, connection) => {
        this.waiting--;
        callback(error, connection);
      });
    };
  }

  usage(): PoolUsage {
    return { inUse: this.open.size - this.idle.size, idle: this.idle.size, waiting: this.waiting, max: this.max };
  }

  private watch(connection: MeteredConnection): void {
    if (this.watched.has(connection)) return;
    this.watched.add(connection);
    this.open.add(connection);
    const gone = () => {
      this.open.delete(connection);
      this.idle.delete(connection);
    };
    connection.on?.('end', gone);
    connection.on?.('error', gone);
    const destroy = connection.destroy.bind(connection);
    connection.destroy = () => {
      gone();
      destroy();
    };
  }
}
