import mysql from 'mysql2/promise';
import type { MysqlConfig } from '../config/app-config.js';

export type ServerFlavor = 'mariadb' | 'mysql';

/** One read replica: its own small pool for the health checks and the waits of consistency tokens. */
interface Replica {
  id: string;
  pool: mysql.Pool;
  /** Last successful check, or 0. */
  checkedAt: number;
  /** Time of the newest primary position this replica is known to have applied. */
  caughtUpAt: number;
  /** Replicated shared data version at the last check. */
  dataVersion: bigint | null;
  /** MariaDB: the applied position at the last check. */
  position: string;
  /** Tokens this replica is known to have applied (a browser presents the same one for a while). */
  reached: Set<string>;
}

const MAX_REMEMBERED_TOKENS = 1000;

interface Sample {
  at: number;
  position: string;
}

const MARIADB_POSITION = /^\d{1,10}-\d{1,10}-\d{1,20}(,\d{1,10}-\d{1,10}-\d{1,20})*$/;
const MYSQL_GTID_SET =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(:[A-Za-z0-9_]{1,32})?(:\d{1,20}(-\d{1,20})?)+(,[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(:[A-Za-z0-9_]{1,32})?(:\d{1,20}(-\d{1,20})?)+)*$/i;

/** The id TypeORM's pool cluster gives the replica at `index` of `DATABASE_REPLICA_URLS`. */
export const replicaId = (index: number) => `SLAVE${index}`;

/**
 * The read replicas of the primary and what is known about them. Every check interval it reads the
 * primary's replication position, then from each replica its applied position and the replicated
 * shared data version. A replica's lag is the age of the newest primary position it has applied
 * (at most one interval when it is current), so a replica that stopped applying ages even when the
 * server itself answers. A replica is used while its last check is recent and its lag is within
 * `REPLICA_MAX_LAG_MS`; a failed connection takes it out until a check succeeds again.
 */
export class ReplicaSet {
  readonly replicas: Replica[];
  readonly intervalMs: number;
  private samples: Sample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private next = 0;
  private stopped = false;

  constructor(
    private readonly database: MysqlConfig,
    readonly flavor: ServerFlavor,
    /** The primary's current replication position (`''` when it writes no binary log). */
    readonly primaryPosition: () => Promise<string>,
  ) {
    this.intervalMs = Math.max(50, Math.min(500, Math.floor(database.replicaMaxLagMs / 4)));
    this.replicas = database.replicaUrls.map((url, index) => ({
      id: replicaId(index),
      pool: mysql.createPool({
        uri: url,
        connectionLimit: 8,
        connectTimeout: database.connectTimeoutMs,
        enableKeepAlive: true,
        supportBigNumbers: true,
        bigNumberStrings: true,
      }),
      checkedAt: 0,
      caughtUpAt: 0,
      dataVersion: null,
      position: '',
      reached: new Set<string>(),
    }));
  }

  get enabled(): boolean {
    return this.replicas.length > 0;
  }

  /** Starts the checks; the first one is awaited so a replica can serve the very first reads. */
  async start(): Promise<void> {
    if (!this.enabled) return;
    await this.check();
    const tick = () => {
      this.timer = setTimeout(() => {
        void this.check().finally(() => {
          if (!this.stopped) tick();
        });
      }, this.intervalMs);
      this.timer.unref();
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    await Promise.all(this.replicas.map((replica) => replica.pool.end().catch(() => undefined)));
  }

  /** Milliseconds the replica is behind (Infinity while it does not answer). */
  lagMs(id: string, now = Date.now()): number {
    const replica = this.byId(id);
    if (!replica || now - replica.checkedAt > 3 * this.intervalMs + this.database.queryTimeoutMs) return Infinity;
    return Math.max(0, now - replica.caughtUpAt);
  }

  usable(id: string): boolean {
    return this.lagMs(id) <= this.database.replicaMaxLagMs;
  }

  /** A connection to the replica failed: it is skipped until its next successful check. */
  markFailed(id: string): void {
    const replica = this.byId(id);
    if (!replica) return;
    replica.checkedAt = 0;
    replica.reached.clear(); // what comes back may be another copy, further behind
  }

  holdsDataVersion(id: string, version: string): boolean {
    const known = this.byId(id)?.dataVersion;
    return known !== null && known !== undefined && /^\d+$/.test(version) && known >= BigInt(version);
  }

  /**
   * The replica a read goes to, or null for the primary. With a consistency token, only a replica
   * that has applied that position (waiting up to `REPLICA_WAIT_MS` for it); a token that is not a
   * position of this server kind sends the read to the primary.
   */
  async chooseFor(token: string | undefined): Promise<string | null> {
    const candidates = this.replicas.filter((replica) => this.usable(replica.id));
    if (candidates.length === 0) return null;
    const replica = candidates[this.next++ % candidates.length];
    if (token === undefined) return replica.id;
    if (!this.isToken(token)) return null;
    if (replica.reached.has(token) || (this.flavor === 'mariadb' && reaches(replica.position, token))) return replica.id;
    if (!(await this.waitFor(replica, token))) return null;
    if (replica.reached.size >= MAX_REMEMBERED_TOKENS) replica.reached.clear();
    replica.reached.add(token);
    return replica.id;
  }

  isToken(token: string): boolean {
    return token.length <= 4096 && (this.flavor === 'mariadb' ? MARIADB_POSITION : MYSQL_GTID_SET).test(token);
  }

  private async waitFor(replica: Replica, token: string): Promise<boolean> {
    const seconds = (this.database.replicaWaitMs / 1000).toFixed(3);
    const sql =
      this.flavor === 'mariadb'
        ? `SELECT MASTER_GTID_WAIT(?, ${seconds}) = 0 AS reached`
        : this.database.replicaWaitMs === 0
          ? 'SELECT GTID_SUBSET(?, @@GLOBAL.gtid_executed) = 1 AS reached'
          : `SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ${seconds}) = 0 AS reached`;
    const bound = this.database.replicaWaitMs + this.database.queryTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    // the bound covers the wait for a free connection of the pool too, not only the query
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), bound);
    });
    try {
      const answer = await Promise.race([replica.pool.query({ sql, values: [token], timeout: bound }), late]);
      if (answer === 'late') return false;
      return Number((answer[0] as Array<{ reached: unknown }>)[0]?.reached) === 1;
    } catch {
      this.markFailed(replica.id);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private byId(id: string): Replica | undefined {
    return this.replicas.find((replica) => replica.id === id);
  }

  private check(): Promise<void> {
    this.running ??= this.checkAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async checkAll(): Promise<void> {
    const at = Date.now();
    let position: string;
    try {
      position = await this.primaryPosition();
    } catch {
      return; // the primary's own guard reports it; the replicas' lag cannot be told meanwhile
    }
    this.samples.push({ at, position });
    // keep what tells a lag up to the bound (and a little beyond), nothing older
    const horizon = at - this.database.replicaMaxLagMs - 4 * this.intervalMs;
    while (this.samples.length > 1 && this.samples[1].at < horizon) this.samples.shift();
    await Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
  }

  private async checkReplica(replica: Replica): Promise<void> {
    const samples = this.samples.filter((sample) => sample.at > replica.caughtUpAt || replica.checkedAt === 0);
    try {
      const reached = await this.reachedSamples(replica, samples);
      const newest = samples.filter((_, index) => reached[index]).at(-1);
      if (newest) replica.caughtUpAt = Math.max(replica.caughtUpAt, newest.at);
      replica.checkedAt = Date.now();
    } catch {
      this.markFailed(replica.id);
    }
  }

  /** For each sample, whether the replica has applied it; also records its data version. */
  private async reachedSamples(replica: Replica, samples: Sample[]): Promise<boolean[]> {
    const timeout = this.database.queryTimeoutMs;
    if (this.flavor === 'mariadb') {
      const [rows] = await replica.pool.query({
        sql: 'SELECT @@GLOBAL.gtid_current_pos AS position, (SELECT version FROM data_version WHERE id = 1) AS version',
        timeout,
      });
      const row = (rows as Array<{ position: string; version: string | null }>)[0];
      replica.position = String(row?.position ?? '');
      replica.dataVersion = row?.version === null || row?.version === undefined ? null : BigInt(row.version);
      return samples.map((sample) => reaches(replica.position, sample.position));
    }
    const checks = samples.map((_, index) => `GTID_SUBSET(?, executed.g) AS r${index}`);
    const [rows] = await replica.pool.query({
      sql: `SELECT ${[...checks, '(SELECT version FROM data_version WHERE id = 1) AS version'].join(', ')} FROM (SELECT @@GLOBAL.gtid_executed AS g) AS executed`,
      values: samples.map((sample) => sample.position),
      timeout,
    });
    const row = (rows as Array<Record<string, string | number | null>>)[0] ?? {};
    replica.dataVersion = row.version === null || row.version === undefined ? null : BigInt(row.version);
    return samples.map((_, index) => Number(row[`r${index}`]) === 1);
  }
}

/** MariaDB: whether position `applied` includes `target` (every domain of the target at least as far). */
export function reaches(applied: string, target: string): boolean {
  if (target === '') return true;
  const seen = new Map<string, bigint>();
  for (const gtid of applied.split(',')) {
    const [domain, , sequence] = gtid.trim().split('-');
    if (sequence !== undefined && /^\d+$/.test(sequence)) seen.set(domain, BigInt(sequence));
  }
  return target.split(',').every((gtid) => {
    const [domain, , sequence] = gtid.trim().split('-');
    const have = seen.get(domain);
    return sequence !== undefined && /^\d+$/.test(sequence) && have !== undefined && have >= BigInt(sequence);
  });
}
