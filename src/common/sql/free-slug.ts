import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { nextFreeSlug } from '../text/slug.js';
import { escapeLike, LIKE_ESCAPE } from './like.js';

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
 * every promise of the process, which cost about a tenth of a read's time.
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

/** The smallest free `base`, `base-2`, `base-3`... among the rows of `table` other than `exceptId`. */
export async function freeSlug(manager: EntityManager, table: string, base: string, exceptId: number | null): Promise<string> {
  const runner = transactionOf(manager);
  // `base` itself and its `-N` forms; written out rather than built: every create and every slug change runs it
  const rows: Array<{ slug: string; id: number }> = await manager.query(
    `SELECT slug, id FROM ${manager.connection.driver.escape(table)} WHERE slug = ? OR slug LIKE ? ${LIKE_ESCAPE}`,
    [base, `${escapeLike(base)}-%`],
  );
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
