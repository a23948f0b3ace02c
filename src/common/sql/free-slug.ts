import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from 'typeorm';
import { nextFreeSlug } from '../text/slug.js';
import { escapeLike, LIKE_ESCAPE } from './like.js';

/**
 * Slugs chosen by write transactions of this process that have not ended yet, with the item that
 * chose each (null for a new term). Parallel writers that would pick the same "smallest free"
 * slug skip each other's choices instead of colliding on the unique index and retrying in lockstep.
 */
const chosen = new Map<string, number | null>();
const attempt = new AsyncLocalStorage<string[]>();

const keyOf = (table: string, slug: string) => `${table}\u0000${slug}`;

/** Runs one write attempt; the slugs it chooses stay reserved for this process until it ends. */
export async function withSlugReservations<T>(work: () => Promise<T>): Promise<T> {
  const keys: string[] = [];
  try {
    return await attempt.run(keys, work);
  } finally {
    for (const key of keys) chosen.delete(key);
  }
}

/** The smallest free `base`, `base-2`, `base-3`... among the rows of `table` other than `exceptId`. */
export async function freeSlug(manager: EntityManager, table: string, base: string, exceptId: number | null): Promise<string> {
  const rows = await manager
    .createQueryBuilder()
    .select('t.slug', 'slug')
    .addSelect('t.id', 'id')
    .from(table, 't')
    .where(`t.slug = :base OR t.slug LIKE :pattern ${LIKE_ESCAPE}`, { base, pattern: `${escapeLike(base)}-%` })
    .getRawMany<{ slug: string; id: number }>();
  const taken = new Set(rows.filter((row) => Number(row.id) !== exceptId).map((row) => row.slug));
  const reservations = attempt.getStore();
  const reservedByOther = (slug: string) => {
    const key = keyOf(table, slug);
    return chosen.has(key) && (exceptId === null || chosen.get(key) !== exceptId);
  };
  const slug = nextFreeSlug(base, (candidate) => taken.has(candidate) || (reservations !== undefined && reservedByOther(candidate)));
  if (reservations !== undefined) {
    const key = keyOf(table, slug);
    chosen.set(key, exceptId);
    reservations.push(key);
  }
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
  const reservations = attempt.getStore();
  return wishes.map((wish) => {
    const slug = nextFreeSlug(wish, (candidate) => taken.has(candidate) || chosen.has(keyOf(table, candidate)));
    taken.add(slug);
    if (reservations !== undefined) {
      chosen.set(keyOf(table, slug), null);
      reservations.push(keyOf(table, slug));
    }
    return slug;
  });
}
