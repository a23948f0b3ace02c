import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { onPrimary } from '../common/sql/read-routing.js';
import { Metrics, secondsSince } from '../metrics/metrics.js';

interface ChangeLogState {
  unsequenced: number;
  oldestUnsequenced: Date | string | null;
  lastSeq: number;
  dispatchedThrough: number;
}

/**
 * The change log in `/metrics`, read from the primary at each scrape: how far the numbering
 * (`ChangeSequencer`) and the webhook fan-out (`change_sequence.dispatched_through`) are behind the
 * committed changes. Both stay near 0 while a server process runs; a count that grows means the
 * sequencer or the dispatcher is stuck (their failures are logged).
 */
@Injectable()
export class ChangeMetrics {
  constructor(
    metrics: Metrics,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    const unsequenced = metrics.gauge({
      name: 'calendar_changes_unsequenced',
      help: 'Committed changes without a sequence number yet: not visible to GET /changes, domain events and webhooks.',
    });
    const oldest = metrics.gauge({
      name: 'calendar_changes_unsequenced_oldest_seconds',
      help: 'Age of the oldest committed change without a sequence number; 0 when there is none.',
    });
    const lastSeq = metrics.gauge({
      name: 'calendar_changes_last_seq',
      help: 'The last sequence number given to a change (its rate is the rate of changes).',
    });
    const undispatched = metrics.gauge({
      name: 'calendar_changes_undispatched',
      help: 'Numbered changes the webhook dispatcher has not fanned out to deliveries yet (last_seq - dispatched_through).',
    });
    metrics.source<ChangeLogState>({
      name: 'changes',
      read: () => onPrimary(() => this.read()),
      apply: (state) => {
        unsequenced.set(state?.unsequenced ?? Number.NaN);
        oldest.set(state ? secondsSince(state.oldestUnsequenced) : Number.NaN);
        lastSeq.set(state?.lastSeq ?? Number.NaN);
        undispatched.set(state ? Math.max(0, state.lastSeq - state.dispatchedThrough) : Number.NaN);
      },
    });
  }

  private async read(): Promise<ChangeLogState> {
    // a change of a transaction still open is not seen: these are committed ones
    const [waiting]: Array<{ count: string | number; oldest: Date | string | null }> = await this.dataSource.query(
      'SELECT COUNT(*) AS count, MIN(recorded_utc) AS oldest FROM changes WHERE seq IS NULL',
    );
    const [sequence]: Array<{ last_seq: string | number; dispatched_through: string | number }> = await this.dataSource.query(
      'SELECT last_seq, dispatched_through FROM change_sequence WHERE id = 1',
    );
    return {
      unsequenced: Number(waiting?.count ?? 0),
      oldestUnsequenced: waiting?.oldest ?? null,
      lastSeq: Number(sequence?.last_seq ?? 0),
      dispatchedThrough: Number(sequence?.dispatched_through ?? 0),
    };
  }
}
