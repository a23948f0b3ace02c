import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { nowUtcWall } from '../common/dates/wall-time.js';
import type { AuthUser } from '../common/http/request-context.js';
import { wallToDate } from '../common/sql/columns.js';
import type { ApiConfig, HttpConfig } from '../config/app-config.js';
import { FeedTokenEntity } from './feed-token.entity.js';
import { generateFeedToken, hashFeedToken, looksLikeFeedToken, sameHash } from './feed-token-secret.js';
import { AccountError, UsersService } from './users.service.js';

const LABEL = /^[^\p{Cc}]{1,100}$/u;
const LAST_USED_RESOLUTION_MS = 60_000;

export interface CreatedFeedToken {
  id: number;
  login: string;
  label: string | null;
  /** The secret, shown once. */
  token: string;
  /** The subscription URL of the whole calendar: `{PUBLIC_URL}{API_ROOT}/{namespace}/events.ics?token=…`. */
  url: string;
}

export interface FeedTokenListing {
  id: number;
  login: string;
  label: string | null;
  createdUtc: string;
  lastUsedUtc: string | null;
}

/**
 * Per-user feed tokens for calendar apps, which cannot send Basic credentials: `?token=` on the two
 * iCalendar routes reads with the user's rights (see `FeedTokenMiddleware`). Managed only from the
 * command-line tool. The row is read on every request, so a revocation (or the user's deletion,
 * which cascades) takes effect at once, and the user's current role applies.
 */
@Injectable()
export class FeedTokensService {
  private readonly feedUrl: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    config: ConfigService,
  ) {
    const api = config.getOrThrow<ApiConfig>('api');
    this.feedUrl = `${config.getOrThrow<HttpConfig>('http').publicUrl}${api.root}/${api.namespace}/events.ics`;
  }

  async create(login: string, label?: string): Promise<CreatedFeedToken> {
    if (label !== undefined && !LABEL.test(label)) throw new AccountError('The label must be 1-100 characters without control characters.');
    const user = await this.users.requireUser(login);
    const token = generateFeedToken();
    const result = await this.repository().insert({
      userId: user.id,
      label: label ?? null,
      tokenHash: hashFeedToken(token),
      createdUtc: nowUtcWall(),
      lastUsedUtc: null,
    });
    const id = Number((result.identifiers[0] as { id: number }).id);
    return { id, login: user.login, label: label ?? null, token, url: this.subscriptionUrl(token) };
  }

  /** Every token (of one user when `login` is given), oldest first; never the secret, which is not stored. */
  async list(login?: string): Promise<FeedTokenListing[]> {
    const userId = login === undefined ? undefined : (await this.users.requireUser(login)).id;
    const tokens = await this.repository().find({
      where: userId === undefined ? {} : { userId },
      relations: { user: true },
      order: { id: 'ASC' },
    });
    return tokens.map((token) => ({
      id: token.id,
      login: token.user.login,
      label: token.label,
      createdUtc: token.createdUtc,
      lastUsedUtc: token.lastUsedUtc,
    }));
  }

  /**
   * Deletes one token by id, or every token of a user by login; with both, the token must be that
   * user's. Returns how many were deleted.
   */
  async revoke(target: { id?: string; login?: string }): Promise<number> {
    if (target.id === undefined && target.login === undefined) throw new AccountError('Give --id <id>, --login <login> or both.');
    if (target.id !== undefined && !/^[1-9]\d{0,9}$/.test(target.id)) throw new AccountError(`Invalid token id "${target.id}".`);
    const user = target.login === undefined ? undefined : await this.users.requireUser(target.login);
    const where = { ...(target.id === undefined ? {} : { id: Number(target.id) }), ...(user ? { userId: user.id } : {}) };
    const removed = (await this.repository().delete(where)).affected ?? 0;
    if (target.id !== undefined && removed === 0) {
      throw new AccountError(user ? `${user.login} has no feed token with the id ${target.id}.` : `No feed token has the id ${target.id}.`);
    }
    return removed;
  }

  /** The user a token reads as, or null for a token that is malformed, unknown, revoked or whose user is gone. */
  async authenticate(token: string): Promise<AuthUser | null> {
    if (!looksLikeFeedToken(token)) return null;
    const hash = hashFeedToken(token);
    // Found by its hash through the unique index. The index comparison is not constant-time, but what
    // it could leak is how many leading bytes of a SHA-256 output match, which a guesser cannot steer;
    // equality itself is then decided here, in constant time, not by the database's collation.
    const stored = await this.repository().findOne({ where: { tokenHash: hash }, relations: { user: true } });
    if (!stored?.user || !sameHash(stored.tokenHash, hash)) return null;
    this.touch(stored);
    return { id: stored.user.id, login: stored.user.login, role: stored.user.role };
  }

  subscriptionUrl(token: string): string {
    return `${this.feedUrl}?token=${token}`;
  }

  /** Records the last use, at most once a minute per token to keep reads cheap. */
  private touch(stored: FeedTokenEntity): void {
    const now = nowUtcWall();
    if (stored.lastUsedUtc && wallToDate(now).getTime() - wallToDate(stored.lastUsedUtc).getTime() < LAST_USED_RESOLUTION_MS) return;
    this.repository()
      .update({ id: stored.id }, { lastUsedUtc: now })
      .catch(() => undefined);
  }

  private repository() {
    return this.dataSource.getRepository(FeedTokenEntity);
  }
}
