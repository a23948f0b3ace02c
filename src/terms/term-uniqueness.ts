import type { Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { AnyTerm } from './term-tree.js';

/** A term's name is free among its siblings (any parent for a flat taxonomy), compared without case; 400 `term_exists` naming the other term. */
export async function assertNameFree(
  repository: Repository<AnyTerm>,
  name: string,
  parentId: number | undefined,
  exceptId: number | null,
): Promise<void> {
  const query = repository.createQueryBuilder('t').where('LOWER(t.name) = LOWER(:name)', { name });
  if (parentId !== undefined) query.andWhere('t.parent_id = :parentId', { parentId });
  if (exceptId !== null) query.andWhere('t.id <> :exceptId', { exceptId });
  const existing = await query.getOne();
  if (existing) throw new ApiError(400, ErrorCode.TermExists, {}, { termId: existing.id });
}

/** A term's slug is taken by no other term of the taxonomy; 400 `duplicate_term_slug`. */
export async function assertSlugFree(repository: Repository<AnyTerm>, slug: string, exceptId: number | null): Promise<void> {
  const existing = await repository.findOneBy({ slug });
  if (existing && existing.id !== exceptId) throw new ApiError(400, ErrorCode.DuplicateTermSlug, { slug });
}
