import { AsyncResource } from 'node:async_hooks';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
  TransactionStartEvent,
} from 'typeorm';

/** Where a transaction keeps what it recorded (`QueryRunner.data`, TypeORM's own per-connection bag). */
const RECORDED = Symbol('changes-recorded');
const HOOKS = Symbol('change-hooks');
/** Whether snapshots are wanted, as a statement of the transaction already asked (`ChangeSnapshots.wantedCondition`). */
const SNAPSHOTS_WANTED = Symbol('snapshots-wanted');
/** Per record (`kind:id`), the languages whose translation a transaction wrote, until its change row takes them. */
const TRANSLATED = Symbol('changes-translated');
/** How deep the runner's transactions nest, counted by {@link ChangeCommits} from the transaction events. */
const DEPTH = Symbol('transaction-depth');

/** What `recordingChanges` may ask of the transaction it runs in (see {@link ChangeCommits}). */
export interface ChangeHooks {
  /** The last states of records about to be removed for good, as snapshots (JSON), by id. */
  lastStates(manager: EntityManager, kind: string, ids: readonly number[]): Promise<Map<number, string>>;
}

/** Work to do inside a transaction that recorded changes, just before it commits (snapshots). */
export type BeforeCommit = (manager: EntityManager, changeIds: readonly string[]) => Promise<void>;

function bag(runner: QueryRunner | undefined): Record<symbol, unknown> | undefined {
  return runner?.data as Record<symbol, unknown> | undefined;
}

/** How deep the runner's transactions nest now (0 outside any). */
function depthOf(runner: QueryRunner): number {
  return (bag(runner)?.[DEPTH] as number | undefined) ?? 0;
}

/** Notes the end of the runner's innermost transaction; answers how deep it still is. */
function ended(runner: QueryRunner): number {
  const data = bag(runner);
  const depth = Math.max(0, depthOf(runner) - 1);
  if (data) data[DEPTH] = depth;
  return depth;
}

/** What an outermost transaction kept in the runner's bag, forgotten when it ends (SQLite reuses its one runner). */
function forget(data: Record<symbol, unknown>): void {
  delete data[RECORDED];
  delete data[SNAPSHOTS_WANTED];
  delete data[TRANSLATED];
}

/** Notes the change rows a transaction inserted (called by `recordingChanges`). */
export function noteRecorded(manager: EntityManager, changeIds: readonly string[]): void {
  const data = bag(manager.queryRunner);
  if (!data) return;
  const list = (data[RECORDED] as string[] | undefined) ?? [];
  list.push(...changeIds);
  data[RECORDED] = list;
}

/** Notes, in a transaction, the answer to `ChangeSnapshots.wantedCondition` read in it: its commit then asks no more. */
export function noteSnapshotsWanted(manager: EntityManager, wanted: boolean): void {
  const data = bag(manager.queryRunner);
  if (data && depthOf(manager.queryRunner as QueryRunner) > 0) data[SNAPSHOTS_WANTED] = wanted;
}

/** The answer noted by {@link noteSnapshotsWanted} in this transaction, if any. */
export function notedSnapshotsWanted(manager: EntityManager): boolean | undefined {
  return bag(manager.queryRunner)?.[SNAPSHOTS_WANTED] as boolean | undefined;
}

/** Notes, in a transaction, the languages whose translation of a record it wrote: the record's next change row names them. */
export function noteTranslated(manager: EntityManager, kind: string, id: number, languages: readonly string[]): void {
  const data = bag(manager.queryRunner);
  if (!data || languages.length === 0) return;
  const noted = (data[TRANSLATED] as Map<string, Set<string>> | undefined) ?? new Map<string, Set<string>>();
  const own = noted.get(`${kind}:${id}`) ?? new Set<string>();
  for (const language of languages) own.add(language);
  noted.set(`${kind}:${id}`, own);
  data[TRANSLATED] = noted;
}

/** The languages noted by {@link noteTranslated} for a record, taken (a later change of it names its own). */
export function takeTranslated(manager: EntityManager, kind: string, id: number): string[] | undefined {
  const noted = bag(manager.queryRunner)?.[TRANSLATED] as Map<string, Set<string>> | undefined;
  const own = noted?.get(`${kind}:${id}`);
  if (!own) return undefined;
  noted!.delete(`${kind}:${id}`);
  return [...own].sort();
}

/** The hooks of the transaction `manager` works in, if the change module is running. */
export function changeHooks(manager: EntityManager): ChangeHooks | undefined {
  return bag(manager.queryRunner)?.[HOOKS] as ChangeHooks | undefined;
}

/**
 * Watches the transactions of the data source (a TypeORM subscriber): before a transaction that
 * recorded changes commits, it runs the registered {@link BeforeCommit} work inside it (snapshots);
 * after it committed, it tells the listeners (the domain-event reader, the webhook dispatcher) so
 * they pick the changes up at once instead of at their next poll. A rollback forgets everything.
 *
 * Only the outermost commit counts: on SQLite, transactions that overlap in time share one
 * connection and nest as savepoints, and nothing is durable before the outermost `COMMIT`.
 */
@Injectable()
export class ChangeCommits implements EntitySubscriberInterface, OnModuleInit {
  private readonly logger = new Logger('ChangeCommits');
  private readonly listeners: Array<() => void> = [];
  private readonly beforeCommit: BeforeCommit[] = [];
  private hooks: ChangeHooks | null = null;
  /**
   * The async context of the application, outside any transaction: listeners run in it, so that
   * what they start (a dispatcher pass, its timers) does not count as inside the committed
   * transaction (see `database/sqlite-transactions.ts`, which tells nested transactions that way).
   */
  private readonly outside = new AsyncResource('ChangeCommits');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    this.dataSource.subscribers.push(this);
  }

  /** Called after every commit that recorded changes (never inside the write; errors are logged). */
  onCommit(listener: () => void): void {
    this.listeners.push(listener);
  }

  onBeforeCommit(work: BeforeCommit): void {
    this.beforeCommit.push(work);
  }

  provideHooks(hooks: ChangeHooks): void {
    this.hooks = hooks;
  }

  afterTransactionStart(event: TransactionStartEvent): void {
    const data = bag(event.queryRunner);
    if (!data) return;
    data[DEPTH] = depthOf(event.queryRunner) + 1;
    if (this.hooks) data[HOOKS] = this.hooks;
  }

  async beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    if (depthOf(event.queryRunner) !== 1) return;
    const ids = bag(event.queryRunner)?.[RECORDED] as string[] | undefined;
    if (!ids?.length) return;
    for (const work of this.beforeCommit) await work(event.manager, ids);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    if (ended(event.queryRunner) > 0) return;
    const data = bag(event.queryRunner);
    const recorded = (data?.[RECORDED] as string[] | undefined)?.length ?? 0;
    if (data) forget(data);
    if (recorded === 0) return;
    // after the writer's own code has gone on: the listeners never run inside the write
    setImmediate(() => this.outside.runInAsyncScope(() => this.notify()));
  }

  private notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.logger.warn(`A commit listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (ended(event.queryRunner) > 0) return;
    const data = bag(event.queryRunner);
    if (data) forget(data);
  }
}
