import type { TermListBaseQueryDto, TermListTail } from './dto/term-list.query.js';
import type { TermEntity } from './term.entity.js';
import type { TermView } from './term.mapper.js';

/** A category or a tag (tags have no parent). */
export type AnyTerm = TermEntity & { parentId?: number };

export type TermListQuery = TermListBaseQueryDto & TermListTail & { parent?: number };

/** The part of a taxonomy's definition that builds a term's page address. */
export interface TaxonomyShapeWithPage {
  /** `{public_url}/...` page of a term, given the slugs from the root ancestor down to the term. */
  pageUrl: (publicUrl: string, slugChain: string[]) => string;
}

/** A term with its count and page address; the address names its ancestors' slugs. */
export function termView(definition: TaxonomyShapeWithPage, publicUrl: string, term: AnyTerm, byId: Map<number, AnyTerm>): TermView {
  const chain: string[] = [term.slug];
  const seen = new Set([term.id]);
  for (let parent = byId.get(term.parentId ?? 0); parent && !seen.has(parent.id); parent = byId.get(parent.parentId ?? 0)) {
    seen.add(parent.id);
    chain.unshift(parent.slug);
  }
  return { term, count: term.publishedCount, url: definition.pageUrl(publicUrl, chain) };
}

/** Terms with a count, and (hierarchies) every ancestor of one: `hide_empty` keeps them. */
export function usedTermIds(terms: AnyTerm[]): Set<number> {
  const byId = new Map(terms.map((term) => [term.id, term]));
  const used = new Set<number>();
  for (const term of terms) {
    if (term.publishedCount === 0) continue;
    for (let current: AnyTerm | undefined = term; current && !used.has(current.id); current = byId.get(current.parentId ?? 0)) {
      used.add(current.id);
    }
  }
  return used;
}

/** A list's order (`orderby`, `order`), ties broken by id. */
export function sortTerms(terms: AnyTerm[], query: TermListQuery, include: number[] | undefined): AnyTerm[] {
  const direction = query.order === 'desc' ? -1 : 1;
  const orderby = query.orderby ?? 'name';
  const key = (term: AnyTerm): string | number => {
    switch (orderby) {
      case 'id':
      case 'term_group':
        return orderby === 'id' ? term.id : 0;
      case 'slug':
        return term.slug;
      case 'count':
        return term.publishedCount;
      case 'description':
        return term.description.toLowerCase();
      case 'include':
        return include ? positionIn(include, term.id) : term.id;
      case 'include_slugs':
        return query.slug ? positionIn(query.slug, term.slug) : term.id;
      default:
        return term.name.toLowerCase();
    }
  };
  return [...terms].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const primary = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : compareText(String(ka), String(kb));
    return primary * direction || a.id - b.id;
  });
}

/** Whether `candidate` is the term `termId` or lies below it. */
export function isSelfOrDescendant(candidate: number, termId: number, byId: Map<number, AnyTerm>): boolean {
  const seen = new Set<number>();
  for (let current = byId.get(candidate); current && !seen.has(current.id); current = byId.get(current.parentId ?? 0)) {
    if (current.id === termId) return true;
    seen.add(current.id);
  }
  return false;
}

function positionIn<T>(list: readonly T[], value: T): number {
  const index = list.indexOf(value);
  return index === -1 ? list.length : index;
}

/** The order of the terms embedded in an event: by name, then id. */
export function compareTermNames(a: { name: unknown; id: unknown }, b: { name: unknown; id: unknown }): number {
  return compareText(String(a.name), String(b.name)) || Number(a.id) - Number(b.id);
}

/**
 * Sorts an event's few embedded terms in place in the order of {@link compareTermNames}: an
 * insertion sort, which asks for no work arrays (as `Array.prototype.sort` does for every list)
 * and compares each term once with the one before when the list is in order already.
 */
export function sortTermsByName<T extends { name: unknown; id: unknown }>(terms: T[]): T[] {
  for (let index = 1; index < terms.length; index++) {
    const term = terms[index];
    let at = index;
    while (at > 0 && compareTermNames(terms[at - 1], term) > 0) {
      terms[at] = terms[at - 1];
      at--;
    }
    terms[at] = term;
  }
  return terms;
}

export function compareText(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}
