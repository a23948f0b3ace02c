import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { onPrimary } from '../common/sql/read-routing.js';
import { freshReads } from './fresh-reads.js';

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
    await this.dataSource.query('UPDATE data_version SET version = version + 1 WHERE id = 1');
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
