import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { onPrimary, requireDataVersion } from '../common/sql/read-routing.js';
import { freshReads } from './fresh-reads.js';

/** The move of every write: the data version and the version of the rows events embed. */
const BUMP = 'UPDATE data_version SET version = version + 1, embedded_version = embedded_version + 1 WHERE id = 1';
/** The move of a write that left venues, organizers and terms (their counts too) as they were. */
const BUMP_LEAVING_EMBEDDED = 'UPDATE data_version SET version = version + 1 WHERE id = 1';

/** The shared data version: read before building a cacheable answer, bumped after every write. */
@Injectable()
export class DataVersionService {
  /**
   * Callers of one event-loop turn share one query, started after all of them called: a write
   * that finished before a read began is always seen by that read.
   */
  readonly current: () => Promise<string>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    // always the primary's: a replica's may be behind what a reader has already seen
    this.current = freshReads(async () => {
      const rows: Array<{ version: string | number }> = await onPrimary(() =>
        this.dataSource.query('SELECT version FROM data_version WHERE id = 1'),
      );
      return String(rows[0]?.version ?? '0');
    });
  }

  /**
   * Moves the version on, after a write committed. Writers of one event-loop turn share one
   * `UPDATE`, started after all of them called: each write's commit is followed by a change of the
   * version, which is all a cached answer built before it needs to become stale.
   */
  readonly bump: () => Promise<void> = freshReads(async () => {
    await this.dataSource.query(BUMP);
  });

  /** {@link bump} after a write that changed no venue, organizer or term row (nor a term's count). */
  readonly bumpLeavingEmbedded: () => Promise<void> = freshReads(async () => {
    await this.dataSource.query(BUMP_LEAVING_EMBEDDED);
  });

  /** A value computed once per data version (term counts, term lists). */
  memo<T>(compute: () => Promise<T>): () => Promise<T> {
    let cached: { version: string; value: Promise<T> } | null = null;
    return async () => {
      const version = await this.current();
      if (cached?.version !== version) cached = { version, value: compute() };
      try {
        return await cached.value;
      } catch (error) {
        cached = null;
        throw error;
      }
    };
  }
}

/**
 * Values computed at most once per shared data version and key (the exact `total` of a list, keyed
 * by the query that counts it). A value is computed after the version was read, so it holds at
 * least everything that version stands for; the first caller at a newer version drops the lot.
 * At most `limit` keys are kept (the oldest go first).
 */
export class VersionedValues<T> {
  private version: bigint = -1n;
  private readonly values = new Map<string, Promise<T>>();

  constructor(
    private readonly versions: DataVersionService,
    private readonly limit = 256,
  ) {}

  async get(key: string, compute: () => Promise<T>): Promise<T> {
    const version = await this.versions.current();
    const seen = BigInt(version);
    // a caller that read an older version than the one kept computes for itself
    if (seen < this.version) return compute();
    if (seen > this.version) {
      this.version = seen;
      this.values.clear();
    }
    let value = this.values.get(key);
    if (value === undefined) {
      // the rest of the request reads a server that holds this version (a lagging replica does not)
      requireDataVersion(version);
      if (this.values.size >= this.limit) this.values.delete(this.values.keys().next().value as string);
      value = compute();
      this.values.set(key, value);
      const kept = value;
      kept.catch(() => {
        if (this.values.get(key) === kept) this.values.delete(key);
      });
    }
    return value;
  }
}
