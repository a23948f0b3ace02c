import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import { dateToWall, wallToDate } from '../common/sql/columns.js';
import type { LimitsConfig } from '../config/app-config.js';
import { LoginFailureEntity } from './login-failure.entity.js';
import { bumpCredentialsVersion } from '../users/credentials-version.js';

/** What a lock covers: one login from one address, every login from an address, or one login from everywhere. */
export type LockScope = 'pair' | 'address' | 'login';

export interface LoginLock {
  scope: LockScope;
  address: string | null;
  login: string | null;
  failures: number;
  /** Seconds until the lock lifts by itself. */
  secondsLeft: number;
}

/** The answer of {@link LoginLocks.check}: seconds to wait (null when free), and the failures of the pair. */
export interface LoginCheck {
  waitSeconds: number | null;
  pairFailures: number;
}

/**
 * The login under which failed feed tokens (`?token=` on the calendar routes) are recorded. No login
 * can contain `*`, so it never meets a user's own counts; it counts only toward the address limit.
 */
export const FEED_TOKEN_LOGIN = '*feed-token';

const ADDRESS_LENGTH = 64;
const LOGIN_LENGTH = 100;

/**
 * Failed Basic logins in a sliding window, counted three ways (docs/SECURITY.md): a pair (address,
 * login) locks first, at `LOGIN_FAILURE_LIMIT`; a whole address at `LOGIN_FAILURE_ADDRESS_LIMIT`
 * (one client trying many logins); a login from every address at `LOGIN_FAILURE_ACCOUNT_LIMIT`
 * (guessing spread over many clients). The rows live in the database so that every replica and the
 * command-line tool see the same counts.
 */
@Injectable()
export class LoginLocks {
  private readonly limits: LimitsConfig;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: ConfigService,
  ) {
    this.limits = config.getOrThrow<LimitsConfig>('limits');
  }

  /**
   * The lock check of a request with credentials: one statement on every such request, and one more
   * for each lock in force.
   */
  async check(address: string, login: string): Promise<LoginCheck> {
    const key = { address: addressKey(address), login: loginKey(login) };
    const since = this.windowStart();
    // written out rather than built: this runs on every request with credentials
    const driver = this.dataSource.driver;
    const [sql, parameters] = driver.escapeQueryWithParameters(
      `SELECT SUM(CASE WHEN address = :address AND login_key = :login THEN 1 ELSE 0 END) AS ${driver.escape('pair')},` +
        ` SUM(CASE WHEN address = :address THEN 1 ELSE 0 END) AS ${driver.escape('address')},` +
        ` SUM(CASE WHEN login_key = :login THEN 1 ELSE 0 END) AS ${driver.escape('login')}` +
        ` FROM ${driver.escape(this.dataSource.getMetadata(LoginFailureEntity).tableName)}` +
        ' WHERE failed_utc > :since AND (address = :address OR login_key = :login)',
      { ...key, since },
    );
    const [counts = { pair: 0, address: 0, login: 0 }]: Array<Record<LockScope, string | number | null>> = await this.dataSource.query(
      sql,
      parameters,
    );
    const failures = { pair: Number(counts.pair ?? 0), address: Number(counts.address ?? 0), login: Number(counts.login ?? 0) };
    const waits: number[] = [];
    for (const scope of ['pair', 'address', 'login'] as const) {
      if (failures[scope] >= this.limitOf(scope)) waits.push(await this.secondsLeft(scope, key, failures[scope]));
    }
    return { waitSeconds: waits.length > 0 ? Math.max(...waits) : null, pairFailures: failures.pair };
  }

  /**
   * For a feed token, which names no login: seconds to wait while the whole address is locked
   * (`LOGIN_FAILURE_ADDRESS_LIMIT`, failed logins and failed tokens together), else null.
   */
  async checkAddress(address: string): Promise<number | null> {
    const key = { address: addressKey(address), login: FEED_TOKEN_LOGIN };
    const row = await this.failures('f')
      .select('COUNT(*)', 'failures')
      .where('f.failed_utc > :since AND f.address = :address', { ...key, since: this.windowStart() })
      .getRawOne<{ failures: string | number }>();
    const failures = Number(row?.failures ?? 0);
    return failures >= this.limitOf('address') ? this.secondsLeft('address', key, failures) : null;
  }

  async failed(address: string, login: string): Promise<void> {
    const now = new Date();
    // the failure may lock an address or a login: credentials other processes accepted are checked again
    await this.dataSource.transaction(async (manager) => {
      await manager.insert(LoginFailureEntity, { address: addressKey(address), loginKey: loginKey(login), failedUtc: dateToWall(now) });
      await bumpCredentialsVersion(manager);
    });
    await this.failures('f')
      .delete()
      .where('failed_utc <= :since', { since: this.windowStart(now) })
      .execute();
  }

  /** A right password forgets the pair's earlier failures (the address and login counts stay). */
  async succeeded(address: string, login: string): Promise<void> {
    await this.remove({ address, login });
  }

  /**
   * Forgets failures: of a login (every address), of an address (every login), or of one pair when
   * both are given. Returns how many failures were removed.
   */
  async remove(target: { address?: string; login?: string }): Promise<number> {
    if (target.address === undefined && target.login === undefined) throw new Error('Give an address, a login or both.');
    const query = this.failures('f').delete().where('1 = 1');
    if (target.address !== undefined) query.andWhere('address = :address', { address: addressKey(target.address) });
    if (target.login !== undefined) query.andWhere('login_key = :login', { login: loginKey(target.login) });
    return (await query.execute()).affected ?? 0;
  }

  /**
   * Every lock in force, pairs first, longest-lasting first within a scope. Failed feed tokens lock
   * only addresses, so they are left out of the pair and login counts.
   */
  async locks(): Promise<LoginLock[]> {
    const since = this.windowStart();
    const groups: Array<[LockScope, string[]]> = [
      ['pair', ['address', 'login_key']],
      ['address', ['address']],
      ['login', ['login_key']],
    ];
    const locks: LoginLock[] = [];
    for (const [scope, columns] of groups) {
      const query = this.failures('f').select('COUNT(*)', 'failures').where('f.failed_utc > :since', { since });
      if (scope !== 'address') query.andWhere('f.login_key <> :feedToken', { feedToken: FEED_TOKEN_LOGIN });
      for (const column of columns) query.addSelect(`f.${column}`, column).addGroupBy(`f.${column}`);
      const rows = await query
        .having('COUNT(*) >= :limit', { limit: this.limitOf(scope) })
        .getRawMany<{ failures: string | number; address?: string; login_key?: string }>();
      const found: LoginLock[] = [];
      for (const row of rows) {
        const key = { address: row.address ?? '', login: row.login_key ?? '' };
        const failures = Number(row.failures);
        found.push({
          scope,
          address: row.address ?? null,
          login: row.login_key ?? null,
          failures,
          secondsLeft: await this.secondsLeft(scope, key, failures),
        });
      }
      locks.push(...found.sort((a, b) => b.secondsLeft - a.secondsLeft));
    }
    return locks;
  }

  private limitOf(scope: LockScope): number {
    if (scope === 'pair') return this.limits.loginFailures;
    return scope === 'address' ? this.limits.loginAddressFailures : this.limits.loginAccountFailures;
  }

  /** A lock lifts when enough failures leave the window that fewer than the limit remain. */
  private async secondsLeft(scope: LockScope, key: { address: string; login: string }, failures: number): Promise<number> {
    const query = this.failures('f').select('f.failed_utc', 'failed').where('f.failed_utc > :since', { since: this.windowStart() });
    if (scope !== 'login') query.andWhere('f.address = :address', { address: key.address });
    if (scope !== 'address') query.andWhere('f.login_key = :login', { login: key.login });
    const row = await query
      .orderBy('f.failed_utc', 'ASC')
      .addOrderBy('f.id', 'ASC')
      .offset(failures - this.limitOf(scope))
      .limit(1)
      .getRawOne<{ failed: Date | string }>();
    if (!row) return 1;
    const failed = row.failed instanceof Date ? row.failed : wallToDate(String(row.failed).slice(0, 19));
    return Math.max(1, Math.ceil((failed.getTime() + this.limits.loginWindowSeconds * 1000 - Date.now()) / 1000));
  }

  private windowStart(now = new Date()): Date {
    return new Date(now.getTime() - this.limits.loginWindowSeconds * 1000);
  }

  private failures(alias: string): SelectQueryBuilder<LoginFailureEntity> {
    return this.dataSource.getRepository(LoginFailureEntity).createQueryBuilder(alias);
  }
}

function addressKey(address: string): string {
  return address.slice(0, ADDRESS_LENGTH);
}

function loginKey(login: string): string {
  return login.toLowerCase().slice(0, LOGIN_LENGTH);
}
