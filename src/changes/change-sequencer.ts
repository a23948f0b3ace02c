import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { DataVersionService } from '../cache/data-version.service.js';
import { freshReads } from '../cache/fresh-reads.js';
import { onPrimary } from '../common/sql/read-routing.js';

/** Changes given a sequence number per transaction of the sequencer. */
const BATCH = 2000;

export interface SequenceState {
  lastSeq: bigint;
  prunedThrough: bigint;
}

/**
 * Gives committed changes their place in the log. Writers insert their change rows without a
 * sequence number inside their own transactions; this gives numbers, in id order, to the rows that
 * have committed, one transaction at a time across all processes (the `change_sequence` row is
 * locked). Rows of transactions still open are skipped (`SKIP LOCKED`) and numbered by a later
 * pass, after everything numbered before: a reader that follows the numbers never misses a change
 * and never sees one twice, however writers' commits interleave.
 */
@Injectable()
export class ChangeSequencer {
  /** Numbers every change committed before the call (callers of one event-loop turn share a pass). */
  readonly sequence: () => Promise<void>;
  private readonly mysql: boolean;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly dataVersion: DataVersionService,
  ) {
    this.mysql = dataSource.driver.options.type !== 'better-sqlite3';
    // numbering and its state are the primary's: a replica's copy may be behind a cursor already handed out
    this.sequence = freshReads(() => onPrimary(() => this.run()));
  }

  async state(): Promise<SequenceState> {
    const rows: Array<{ last_seq: string | number; pruned_through: string | number }> = await onPrimary(() =>
      this.dataSource.query('SELECT last_seq, pruned_through FROM change_sequence WHERE id = 1'),
    );
    return { lastSeq: BigInt(rows[0]?.last_seq ?? 0), prunedThrough: BigInt(rows[0]?.pruned_through ?? 0) };
  }

  private async run(): Promise<void> {
    const waiting: unknown[] = await this.dataSource.query('SELECT id FROM changes WHERE seq IS NULL LIMIT 1');
    if (waiting.length === 0) return;
    while ((await this.pass()) === BATCH);
  }

  private pass(): Promise<number> {
    const work = async (manager: EntityManager): Promise<number> => {
      const lock = this.mysql ? ' FOR UPDATE' : '';
      const [state]: Array<{ last_seq: string | number }> = await manager.query(`SELECT last_seq FROM change_sequence WHERE id = 1${lock}`);
      const rows: Array<{ id: string | number }> = await manager.query(
        `SELECT id FROM changes WHERE seq IS NULL ORDER BY id LIMIT ${BATCH}${this.mysql ? ' FOR UPDATE SKIP LOCKED' : ''}`,
      );
      if (rows.length === 0) return 0;
      let next = BigInt(state.last_seq);
      const cases = rows.map((row) => `WHEN ${BigInt(row.id)} THEN ${(next += 1n)}`);
      const ids = rows.map((row) => String(BigInt(row.id))).join(', ');
      await manager.query(`UPDATE changes SET seq = CASE id ${cases.join(' ')} END WHERE id IN (${ids})`);
      await manager.query('UPDATE change_sequence SET last_seq = ? WHERE id = 1', [next.toString()]);
      return rows.length;
    };
    // READ COMMITTED on MySQL/MariaDB: no gap locks, so writers inserting new changes never wait for a pass
    return this.mysql ? this.dataSource.transaction('READ COMMITTED', work) : this.dataSource.transaction(work);
  }

  /**
   * Removes numbered changes recorded before `cutoff` (UTC wall time) that the webhook dispatcher has
   * fanned out already (`dispatched_through`): the log is the webhooks' outbox, and a change leaves it
   * only once it is in the deliveries. Cursors at or before the newest removed number expire. Returns
   * how many rows went.
   */
  async prune(cutoff: string): Promise<number> {
    const [row]: Array<{ newest: string | number | null }> = await this.dataSource.query(
      'SELECT MAX(seq) AS newest FROM changes WHERE seq IS NOT NULL AND recorded_utc < ? AND seq <= (SELECT dispatched_through FROM change_sequence WHERE id = 1)',
      [cutoff],
    );
    if (row?.newest === null || row?.newest === undefined) return 0;
    const through = BigInt(row.newest);
    let removed = 0;
    let moved = false;
    const work = async (manager: EntityManager): Promise<void> => {
      const lock = this.mysql ? ' FOR UPDATE' : '';
      const [state]: Array<{ pruned_through: string | number }> = await manager.query(
        `SELECT pruned_through FROM change_sequence WHERE id = 1${lock}`,
      );
      if (BigInt(state.pruned_through) >= through) return;
      // the expiry mark moves first: a reader that checks it after reading never trusts a page with holes
      await manager.query('UPDATE change_sequence SET pruned_through = ? WHERE id = 1', [through.toString()]);
      moved = true;
    };
    await (this.mysql ? this.dataSource.transaction('READ COMMITTED', work) : this.dataSource.transaction(work));
    // feed pages cached before the mark moved would still answer expired cursors with 200
    if (moved) await this.dataVersion.bump();
    if (!this.mysql) {
      const result = await this.dataSource
        .createQueryBuilder()
        .delete()
        .from('changes')
        .where('seq <= :through', { through: through.toString() })
        .execute();
      return result.affected ?? 0;
    }
    // in slices, so that no single statement holds many row locks for long
    for (;;) {
      const result: unknown = await this.dataSource.query('DELETE FROM changes WHERE seq <= ? LIMIT 5000', [through.toString()]);
      const affected = affectedRows(result);
      removed += affected;
      if (affected < 5000) return removed;
    }
  }
}

function affectedRows(result: unknown): number {
  if (result && typeof result === 'object' && 'affectedRows' in result) return Number((result as { affectedRows: number }).affectedRows);
  return 0;
}
