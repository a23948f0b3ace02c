import type { EntityManager } from 'typeorm';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { dateToWall } from '../common/sql/columns.js';
import { idChunks } from '../common/sql/id-chunks.js';
import { insertRow } from '../common/sql/rows-by-id.js';
import { changeHooks, noteRecorded, takeTranslated } from './change-commits.js';
import { ChangeEntity } from './change.entity.js';

/** The kinds of record the change log follows, as the change feed names them. */
export const CHANGE_KINDS = ['event', 'venue', 'organizer', 'category', 'tag'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** What happened to a record (the domain event is `<kind>.<action>`). */
export type ChangeAction = 'created' | 'updated' | 'trashed' | 'restored' | 'published' | 'deleted';

/** What a reader's view of a record depends on. Terms are always `publish`, authorless, unprotected. */
export interface RecordState {
  status: string;
  authorId: number | null;
  protected: boolean;
  modifiedUtc: string;
}

const TABLES: Record<ChangeKind, { table: string; item: boolean }> = {
  event: { table: 'events', item: true },
  venue: { table: 'venues', item: true },
  organizer: { table: 'organizers', item: true },
  category: { table: 'categories', item: false },
  tag: { table: 'tags', item: false },
};

interface StateRow {
  id: number | string;
  status?: string;
  author_id?: number | string;
  password?: string | null;
  modified_utc: Date | string | null;
}

function wall(value: Date | string | null): string {
  if (value === null) return nowUtcWall();
  return value instanceof Date ? dateToWall(value) : value.slice(0, 19).replace('T', ' ');
}

/** The current state of some records, read inside the caller's transaction. */
export async function readStates(manager: EntityManager, kind: ChangeKind, ids: readonly number[]): Promise<Map<number, RecordState>> {
  const { table, item } = TABLES[kind];
  const states = new Map<number, RecordState>();
  const columns = item ? 'id, status, author_id, password, modified_utc' : 'id, modified_utc';
  for (const chunk of idChunks([...ids])) {
    const rows: StateRow[] = await manager.query(`SELECT ${columns} FROM ${table} WHERE id IN (${chunk.map(Number).join(', ')})`);
    for (const row of rows) {
      states.set(Number(row.id), {
        status: row.status ?? 'publish',
        authorId: row.author_id === undefined ? null : Number(row.author_id),
        protected: typeof row.password === 'string' && row.password !== '',
        modifiedUtc: wall(row.modified_utc),
      });
    }
  }
  return states;
}

/** The action a change from `before` to `after` stands for. */
export function actionOf(before: RecordState | null, after: RecordState | null, declared?: ChangeAction): ChangeAction | null {
  if (!before && !after) return null;
  if (!before) return 'created';
  if (!after) return 'deleted';
  if (declared) return declared;
  if (after.status === 'trash' && before.status !== 'trash') return 'trashed';
  if (before.status === 'trash' && after.status !== 'trash') return 'restored';
  return 'updated';
}

/**
 * Runs `work` inside the caller's transaction and logs one change per record of `ids` that existed
 * before or after it, in the same transaction: the log holds a change exactly when it committed.
 * `declared` names the action when the states alone cannot tell it (`published`); a work that
 * removes records for good declares `deleted`, so that their last state is kept with the change
 * (the webhooks send it).
 */
export async function recordingChanges<T>(
  manager: EntityManager,
  kind: ChangeKind,
  ids: readonly number[],
  work: () => Promise<T>,
  declared?: ChangeAction,
  creation?: { states?: ReadonlyMap<number, RecordState> },
): Promise<T> {
  const before = creation ? new Map<number, RecordState>() : await readStates(manager, kind, ids);
  const hooks = declared === 'deleted' ? changeHooks(manager) : undefined;
  const lastStates = hooks ? await hooks.lastStates(manager, kind, [...before.keys()]) : new Map<number, string>();
  const result = await work();
  const after = creation?.states ?? (await readStates(manager, kind, ids));
  await insertChanges(manager, changeRows(manager, kind, ids, before, after, declared, lastStates));
  return result;
}

/** Inserts change rows (one alone in a statement written out once, more 500 per statement), and notes them for the commit (snapshots, listeners). */
async function insertChanges(manager: EntityManager, rows: Array<Partial<ChangeEntity>>): Promise<void> {
  if (rows.length === 1) {
    noteRecorded(manager, [String(await insertRow(manager, ChangeEntity, rows[0]))]);
    return;
  }
  for (let start = 0; start < rows.length; start += 500) {
    const { identifiers } = await manager.insert(ChangeEntity, rows.slice(start, start + 500));
    noteRecorded(
      manager,
      identifiers.map((identifier) => String(identifier.id)),
    );
  }
}

/** One change row per record of `ids` that existed before or after (see {@link recordingChanges}). */
function changeRows(
  manager: EntityManager,
  kind: ChangeKind,
  ids: readonly number[],
  before: ReadonlyMap<number, RecordState>,
  after: ReadonlyMap<number, RecordState>,
  declared: ChangeAction | undefined,
  lastStates: ReadonlyMap<number, string>,
): Array<Partial<ChangeEntity>> {
  const recordedUtc = nowUtcWall();
  const rows: Array<Partial<ChangeEntity>> = [];
  for (const id of new Set(ids)) {
    const was = before.get(id) ?? null;
    const is = after.get(id) ?? null;
    const action = actionOf(was, is, declared);
    if (!action) continue;
    rows.push({
      kind,
      recordId: id,
      action,
      authorId: is?.authorId ?? was?.authorId ?? null,
      statusBefore: was?.status ?? null,
      statusAfter: is?.status ?? null,
      protectedBefore: was?.protected ?? false,
      protectedAfter: is?.protected ?? false,
      modifiedUtc: is?.modifiedUtc ?? recordedUtc,
      recordedUtc,
      seq: null,
      snapshot: action === 'deleted' ? (lastStates.get(id) ?? null) : null,
      languages: takeTranslated(manager, kind, id)?.join(',') ?? null,
    });
  }
  return rows;
}

/**
 * Logs the changes of records whose states before and after a write the caller knows (it read the
 * rows under lock and wrote them itself, or created them): one change per record of either map,
 * with nothing read.
 */
export async function recordKnownChanges(
  manager: EntityManager,
  kind: ChangeKind,
  before: ReadonlyMap<number, RecordState>,
  after: ReadonlyMap<number, RecordState>,
): Promise<void> {
  await insertChanges(
    manager,
    changeRows(manager, kind, [...new Set([...before.keys(), ...after.keys()])], before, after, undefined, new Map()),
  );
}

/**
 * {@link recordingChanges} for records that `work` creates under ids allocated just before: nothing
 * to read first, and nothing after either when the caller knows the states it writes.
 */
export function recordingCreation<T>(
  manager: EntityManager,
  kind: ChangeKind,
  ids: readonly number[],
  work: () => Promise<T>,
  states?: ReadonlyMap<number, RecordState>,
): Promise<T> {
  return recordingChanges(manager, kind, ids, work, undefined, { states });
}

/** The state an item is written with, as {@link readStates} would read it back. */
export function itemState(item: { status: string; authorId: number; password: string | null; modifiedUtc: string }): RecordState {
  return {
    status: item.status,
    authorId: item.authorId,
    protected: typeof item.password === 'string' && item.password !== '',
    modifiedUtc: item.modifiedUtc,
  };
}
