import type { AuthUser } from '../common/http/request-context.js';
import type { CalendarSourceEventEntity } from './calendar-source-event.entity.js';
import type { SourceRunCounts, SourceRunProblem } from './calendar-source-run.entity.js';
import type { CalendarSourceEntity } from './calendar-source.entity.js';
import type { LocalEvent } from './source-fields.js';

/** Most problems a run keeps (the counts count them all). */
const MAX_PROBLEMS = 1000;

/** What one run did. */
export interface SyncOutcome {
  counts: SourceRunCounts;
  problems: SourceRunProblem[];
}

export type Action = 'created' | 'updated' | 'unchanged' | 'kept' | 'trashed';

/** What one component's work came to: counted and reported in the feed's order once its part of the run is done. */
export type Outcome = { action: Action | null } | { refused: string };

/** The state of one run: the source, its mappings, what it did. */
export class SyncRun {
  readonly counts: SourceRunCounts = { created: 0, updated: 0, unchanged: 0, kept: 0, trashed: 0, refused: 0 };
  readonly problems: SourceRunProblem[] = [];
  readonly seen = new Set<string>();
  /** UIDs of refused components: their events are not trashed as missing. */
  readonly refusedUids = new Set<string>();
  refusedWithoutUid = false;
  /** The mapped events as they were when the run began, read in a few statements (a feed's events are each synced once). */
  locals = new Map<number, LocalEvent>();

  constructor(
    readonly source: CalendarSourceEntity,
    readonly runId: number,
    readonly user: AuthUser,
    readonly mappings: Map<string, CalendarSourceEventEntity>,
  ) {}

  problem(uid: string | null, recurrenceId: string | null, reason: string, refused = true): void {
    if (refused) {
      this.counts.refused++;
      if (uid === null) this.refusedWithoutUid = true;
      else this.refusedUids.add(uid);
    }
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ uid, recurrence_id: recurrenceId, reason });
  }

  count(action: Action): void {
    this.counts[action]++;
  }

  /** What one component's work came to, counted or reported as refused. */
  settle(component: { uid: string; recurrenceId: string | null }, outcome: Outcome): void {
    if ('refused' in outcome) this.problem(component.uid, component.recurrenceId, outcome.refused);
    else if (outcome.action) this.count(outcome.action);
  }
}
