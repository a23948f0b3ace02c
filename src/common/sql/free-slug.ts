import type { EntityManager } from 'typeorm';
import { nextFreeSlug } from '../text/slug.js';
import { escapeLike, LIKE_ESCAPE } from './like.js';

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
  return nextFreeSlug(base, taken);
}
