import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { ApiError } from '../common/errors/api-error.js';
import type { AuthUser } from '../common/http/request-context.js';
import { AppPasswordEntity } from './app-password.entity.js';
import { fingerprint, verifyPassword } from './password-hash.js';
import { UserEntity } from './user.entity.js';
import { wallToDate } from '../common/sql/columns.js';
import { ErrorCode } from '../common/errors/error-codes.js';

export interface BasicCredentials {
  login: string;
  password: string;
}

/** Reads `Authorization: Basic ...`; anything else (or nothing) means an anonymous request (spec §4.2). */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1).replace(/\s+/g, '') };
}

const VERIFIED_CACHE_SIZE = 1024;
const REMEMBERED_CACHE_SIZE = 1024;
const LAST_USED_RESOLUTION_MS = 60_000;

/** Credentials a process accepted, at the credentials version read with their check. */
export interface RememberedCredentials {
  user: AuthUser;
  stored: AppPasswordEntity;
  version: string;
}

/**
 * Checks Basic credentials against the application passwords. A slow hash is computed once per
 * password value: later requests with the same value are recognised by a fingerprint kept in memory.
 * What a check came to is kept too, with the credentials version read with it: while that version
 * holds, the same credentials from the same address are accepted without reading the passwords and
 * the failed logins again. A revocation, a role change or a failed login moves the version
 * (`credentials-version.ts`), so every process takes it into account on its next request.
 */
@Injectable()
export class AuthService {
  private readonly verified = new LRUCache<string, true>({ max: VERIFIED_CACHE_SIZE });
  private readonly remembered = new LRUCache<string, RememberedCredentials>({ max: REMEMBERED_CACHE_SIZE });

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Checks credentials against the application passwords of their login, as {@link passwordsOf}
   * read them: the user, and the password that matched.
   */
  async authenticateWith(
    credentials: BasicCredentials,
    passwords: AppPasswordEntity[],
  ): Promise<{ user: AuthUser; stored: AppPasswordEntity }> {
    for (const stored of passwords) {
      if (await this.matches(credentials.password, stored)) {
        this.touch(stored);
        return { user: { id: stored.user.id, login: stored.user.login, role: stored.user.role }, stored };
      }
    }
    // the login is looked up on its own only when no password matched, to tell the two failures apart
    const loginKey = credentials.login.toLowerCase();
    if (passwords.length === 0 && !(await this.dataSource.getRepository(UserEntity).existsBy({ loginKey }))) {
      throw new ApiError(401, ErrorCode.InvalidUsername);
    }
    throw new ApiError(401, ErrorCode.IncorrectPassword);
  }

  /** The key under which what a check of these credentials from `client` came to is kept. */
  rememberKey(client: string, credentials: BasicCredentials): string {
    return `${client}\n${credentials.login.toLowerCase()}\n${fingerprint(credentials.password)}`;
  }

  /** Credentials accepted earlier under `key`, if any (their version is for the caller to compare). */
  recall(key: string): RememberedCredentials | undefined {
    return this.remembered.get(key);
  }

  /** Keeps accepted credentials under `key`, at the credentials version read with their check. */
  remember(key: string, accepted: RememberedCredentials): void {
    this.remembered.set(key, accepted);
  }

  forget(key: string): void {
    this.remembered.delete(key);
  }

  /** The user of credentials recalled and still valid; their password's use is recorded as on a full check. */
  reuse(accepted: RememberedCredentials): AuthUser {
    this.touch(accepted.stored);
    return accepted.user;
  }

  /** The application passwords of a login with their user, oldest first (read on every authenticated request). */
  passwordsOf(login: string): Promise<AppPasswordEntity[]> {
    return this.dataSource.getRepository(AppPasswordEntity).find({
      relations: { user: true },
      where: { user: { loginKey: login.toLowerCase() } },
      order: { id: 'ASC' },
    });
  }

  private async matches(plain: string, stored: AppPasswordEntity): Promise<boolean> {
    const key = `${stored.id}:${stored.passwordHash}:${fingerprint(plain)}`;
    if (this.verified.has(key)) return true;
    if (!(await verifyPassword(plain, stored.passwordHash))) return false;
    this.verified.set(key, true);
    return true;
  }

  /** Records the last use, at most once a minute per password to keep reads cheap. */
  private touch(stored: AppPasswordEntity): void {
    const now = nowUtcWall();
    if (stored.lastUsedUtc && wallToDate(now).getTime() - wallToDate(stored.lastUsedUtc).getTime() < LAST_USED_RESOLUTION_MS) {
      return;
    }
    // a password kept in memory (`remember`) is not noted again within the minute either
    stored.lastUsedUtc = now;
    this.dataSource
      .getRepository(AppPasswordEntity)
      .update({ id: stored.id }, { lastUsedUtc: now })
      .catch(() => undefined);
  }
}
