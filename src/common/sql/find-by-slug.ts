import { In, type ObjectLiteral, type Repository } from 'typeorm';
import { slugLookupForms } from '../text/slug.js';

/** The record of a by-slug path (see {@link slugLookupForms}); an exact match wins. */
export async function findBySlug<T extends ObjectLiteral & { slug: string }>(repository: Repository<T>, slug: string): Promise<T | null> {
  const forms = slugLookupForms(slug);
  const found = await repository.findBy({ slug: forms.length === 1 ? slug : In(forms) } as never);
  return found.find((record) => record.slug === slug) ?? found[0] ?? null;
}
