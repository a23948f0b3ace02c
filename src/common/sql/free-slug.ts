import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { nextFreeSlug } from '../text/slug.js';
import { escapeLike, LIKE_ESCAPE } from './like.js';
import type { Statement, StatementRead } from './together.js';

/**
 * Slugs chosen by write transactions of this process that have not ended yet, with the item that
 * chose each (null for a new term) and the transaction's query runner. Parallel writers that would
 * pick the same "smallest free" slug skip each other's choices instead of colliding on the unique
 * index and retrying in lockstep. A reservation ends with its transaction (commit or rollback,
 * {@link releaseSlugsWhenTransactionsEnd}); one whose transaction never reported its end (a lost
 * connection) stops counting after {@link STALE_AFTER_MS}.
 */
interface Reservation {
  by: number | null;
  runner: QueryRunner;
  at: number;
}
const chosen = new Map<string, Reservation>();
const keysOfRunner = new WeakMap<QueryRunner, string[]>();
const STALE_AFTER_MS = 60_000;

const keyOf = (table: string, slug: string) => `${table}\u0000${slug}`;

/** The transaction a slug chosen with `manager` is reserved for; none outside a transaction (nothing to protect until commit). */
function transactionOf(manager: EntityManager): QueryRunner | undefined {
  const runner = manager.queryRunner;
  return runner?.isTransactionActive ? runner : undefined;
}

function reservationOf(key: string): Reservation | undefined {
  const reservation = chosen.get(key);
  if (reservation && Date.now() - reservation.at > STALE_AFTER_MS) {
    chosen.delete(key);
    return undefined;
  }
  return reservation;
}

function reserve(runner: QueryRunner, key: string, by: number | null): void {
  chosen.set(key, { by, runner, at: Date.now() });
  let keys = keysOfRunner.get(runner);
  if (!keys) keysOfRunner.set(runner, (keys = []));
  keys.push(key);
}

function release(runner: QueryRunner): void {
  const keys = keysOfRunner.get(runner);
  if (!keys) return;
  keysOfRunner.delete(runner);
  for (const key of keys) if (chosen.get(key)?.runner === runner) chosen.delete(key);
}

/**
 * Ends the reservations of each transaction of `dataSource` when it commits or rolls back (the
 * outermost level: a savepoint's end keeps them). Reservations follow the transaction's query
 * runner rather than an async context: on Node 20 an `AsyncLocalStorage` in use turns on a hook for
 * every promise of the process, which cost about a tenth of a read's time (docs/PERFORMANCE.md).
 */
export function releaseSlugsWhenTransactionsEnd(dataSource: DataSource): void {
  const subscriber: EntitySubscriberInterface = {
    afterTransactionCommit: (event) => {
      if (!event.queryRunner.isTransactionActive) release(event.queryRunner);
    },
    afterTransactionRollback: (event) => {
      if (!event.queryRunner.isTransactionActive) release(event.queryRunner);
    },
  };
  dataSource.subscribers.push(subscriber);
}

/** Rows read for a slug ahead of {@link freeSlug} inside a transaction, by its query runner. */
const readAhead = new WeakMap<QueryRunner, { table: string; base: string; rows: Array<{ slug: string; id: number }> }>();

/** The statement that reads the slugs `base` competes with in `table`: `base` itself and its `-N` forms. */
function slugRowsStatement(manager: EntityManager, table: string, base: string): Statement {
  // written out rather than built: every create and every slug change runs it
  return {
    sql: `SELECT slug, id FROM ${manager.connection.driver.escape(table)} WHERE slug = ? OR slug LIKE ? ${LIKE_ESCAPE}`,
    parameters: [base, `${escapeLike(base)}-%`],
  };
}

/**
 * The read of {@link freeSlug} for `base`, as a statement a write sends with others before it
 * knows everything (`runTogether`), and `read`, which hands that statement's result to the
 * transaction's next `freeSlug` of the same table and base (any other call reads for itself).
 */
export function slugRowsQuery(manager: EntityManager, table: string, base: string): StatementRead<void> {
  return {
    statement: slugRowsStatement(manager, table, base),
    read: (result) => {
      const runner = transactionOf(manager);
      if (runner) readAhead.set(runner, { table, base, rows: result as Array<{ slug: string; id: number }> });
    },
  };
}

/**
 * The read of {@link freeSlug} for `slug + suffix`, where `slug` is the slug of row `id` of `table`,
 * for a write that sends it with the statement that reads (and locks) that row: the row's slug is
 * taken in the statement itself. Once the batch ran, the rows are handed to the transaction's next
 * `freeSlug` of `table` for that base; a call for another base (a slug that already ended with the
 * suffix, made otherwise) reads for itself. Nothing is handed on when the row does not exist.
 */
export function suffixedSlugRowsQuery(manager: EntityManager, table: string, id: number, suffix: string): StatementRead<void> {
  const sqlite = manager.connection.driver.options.type === 'better-sqlite3';
  const concat = (...parts: string[]) => (sqlite ? parts.join(' || ') : `CONCAT(${parts.join(', ')})`);
  // the row's slug as a LIKE prefix: its own `!`, `%` and `_` escaped as escapeLike does
  const prefix = "REPLACE(REPLACE(REPLACE(e.slug, '!', '!!'), '%', '!%'), '_', '!_')";
  const quoted = manager.connection.driver.escape(table);
  return {
    statement: {
      sql:
        `SELECT e.slug AS own, s.slug, s.id FROM ${quoted} e LEFT JOIN ${quoted} s ` +
        `ON s.slug = ${concat('e.slug', '?')} OR s.slug LIKE ${concat(prefix, '?')} ${LIKE_ESCAPE} WHERE e.id = ?`,
      parameters: [suffix, `${escapeLike(suffix)}-%`, id],
    },
    read: (result) => {
      const runner = transactionOf(manager);
      const rows = result as Array<{ own: string; slug: string | null; id: number | null }>;
      if (!runner || rows.length === 0) return;
      const taken = rows.flatMap(({ slug, id: rowId }) => (slug === null || rowId === null ? [] : [{ slug, id: rowId }]));
      readAhead.set(runner, { table, base: `${rows[0].own}${suffix}`, rows: taken });
    },
  };
}

/** The smallest free `base`, `base-2`, `base-3`... among the rows of `table` other than `exceptId`. */
export async function freeSlug(manager: EntityManager, table: string, base: string, exceptId: number | null): Promise<string> {
  const runner = transactionOf(manager);
  const ahead = runner && readAhead.get(runner);
  if (runner && ahead) readAhead.delete(runner);
  let rows: Array<{ slug: string; id: number }>;
  if (ahead && ahead.table === table && ahead.base === base) rows = ahead.rows;
  else {
    const { sql, parameters } = slugRowsStatement(manager, table, base);
    rows = await manager.query(sql, parameters);
  }
  const taken = new Set(rows.filter((row) => Number(row.id) !== exceptId).map((row) => row.slug));
  const reservedByOther = (slug: string) => {
    const reservation = reservationOf(keyOf(table, slug));
    return reservation !== undefined && (exceptId === null || reservation.by !== exceptId);
  };
  const slug = nextFreeSlug(base, (candidate) => taken.has(candidate) || (runner !== undefined && reservedByOther(candidate)));
  if (runner !== undefined) reserve(runner, keyOf(table, slug), exceptId);
  return slug;
}

/**
 * Free slugs for many new items at once whose wished slugs all start with `prefix-` (the
 * occurrences of a recurring event): one query for all, each wish or its smallest free `-N` form,
 * none equal to another of the list.
 */
export async function freeSlugsUnder(manager: EntityManager, table: string, prefix: string, wishes: string[]): Promise<string[]> {
  const rows = await manager
    .createQueryBuilder()
    .select('t.slug', 'slug')
    .from(table, 't')
    .where(`t.slug LIKE :pattern ${LIKE_ESCAPE}`, { pattern: `${escapeLike(prefix)}-%` })
    .getRawMany<{ slug: string }>();
  const taken = new Set(rows.map((row) => row.slug));
  const runner = transactionOf(manager);
  return wishes.map((wish) => {
    const slug = nextFreeSlug(wish, (candidate) => taken.has(candidate) || reservationOf(keyOf(table, candidate)) !== undefined);
    taken.add(slug);
    if (runner !== undefined) reserve(runner, keyOf(table, slug), null);
    return slug;
  });
}
