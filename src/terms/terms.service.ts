import { In, type DataSource, type EntityManager, type Repository } from 'typeorm';
import type { ListsConfig } from '../config/app-config.js';
import { canCreate } from '../common/auth/permissions.js';
import { ApiError, ParamProblems } from '../common/errors/api-error.js';
import { retryOnConflict } from '../common/errors/db-errors.js';
import { freeSlug } from '../common/sql/free-slug.js';
import { forUpdate } from '../common/sql/for-update.js';
import type { RequestContext } from '../common/http/request-context.js';
import { listLinks, resolvePaging, totalPages } from '../common/paging/paging.js';
import { paramOrder } from '../common/validation/param.js';
import { sanitizeSlug } from '../common/text/slug.js';
import { stripTags } from '../common/text/html.js';
import { EventEntity } from '../events/event.entity.js';
import type { TermListBaseQueryDto, TermListTail } from './dto/term-list.query.js';
import type { TermWriteFields } from './dto/term-write.dto.js';
import { TermIdEntity, type Taxonomy } from './term-id.entity.js';
import type { DataVersionService } from '../cache/data-version.service.js';
import type { TermEntity } from './term.entity.js';
import { toEventTermPayload, toTermPayload, type TaxonomyShape, type TermView } from './term.mapper.js';
import type { EventTermResponse, TermResponse } from './term.response.js';
import { ErrorCode } from '../common/errors/error-codes.js';

type AnyTerm = TermEntity & { parentId?: number };

export interface TaxonomyDefinition extends TaxonomyShape {
  taxonomy: Taxonomy;
  entity: new () => AnyTerm;
  /** Link table between events and terms of this taxonomy, and its term column. */
  joinTable: string;
  joinColumn: string;
  /** `params` message key for a term that does not exist (`Unknown category: %s.`). */
  unknownKey: string;
  /** `{public_url}/...` page of a term, given the slugs from the root ancestor down to the term. */
  pageUrl: (publicUrl: string, slugChain: string[]) => string;
}

export type TermListQuery = TermListBaseQueryDto & TermListTail & { parent?: number };

/**
 * Categories and tags behave the same apart from hierarchy, so one service serves both, configured
 * by a {@link TaxonomyDefinition}. Taxonomies are small, so lists are filtered in memory after one
 * read of the terms, which carry their stored published-event counts (see term-counts.ts).
 */
export class TermsService {
  /** All terms with their stored counts, read once per data version (taxonomies are small). */
  private readonly allTerms: () => Promise<AnyTerm[]>;

  constructor(
    readonly definition: TaxonomyDefinition,
    private readonly dataSource: DataSource,
    private readonly lists: ListsConfig,
    private readonly publicUrl: string,
    private readonly version: DataVersionService,
  ) {
    this.allTerms = version.memo(() => this.repository.find());
  }

  private get tableName(): string {
    return this.dataSource.getMetadata(this.definition.entity).tableName;
  }

  private get repository(): Repository<AnyTerm> {
    return this.dataSource.getRepository(this.definition.entity);
  }

  async list(query: TermListQuery, queryClass: { prototype: object }, ctx: RequestContext) {
    const { hierarchical } = this.definition;
    const terms = await this.allTerms();
    const byId = new Map(terms.map((term) => [term.id, term]));
    const problems = ParamProblems.from(query);
    const include = query.include && this.resolveRefs(query.include, terms, 'include', problems);
    const exclude = query.exclude && this.resolveRefs(query.exclude, terms, 'exclude', problems);
    if (hierarchical && query.parent !== undefined && query.parent !== 0 && !byId.has(query.parent)) {
      problems.add('parent', this.definition.unknownKey, { value: String(query.parent) });
    }
    const postParam = query.event !== undefined ? 'event' : 'post';
    const post = query.event ?? query.post;
    if (post !== undefined && !(await this.eventExists(post))) problems.add(postParam, 'unknown_event');
    problems.throwIfAny(paramOrder(queryClass));

    let selected = terms;
    if (post !== undefined) {
      const assigned = new Set(await this.termIdsOfEvent(post));
      selected = selected.filter((term) => assigned.has(term.id));
    } else if (query.hide_empty ?? true) {
      const used = this.usedTermIds(terms);
      selected = selected.filter((term) => used.has(term.id));
    }
    if (query.search !== undefined) {
      const needle = query.search.toLowerCase();
      selected = selected.filter((term) => term.name.toLowerCase().includes(needle) || term.slug.includes(needle));
    }
    if (include) selected = selected.filter((term) => include.includes(term.id));
    if (exclude) selected = selected.filter((term) => !exclude.includes(term.id));
    if (hierarchical && query.parent !== undefined) selected = selected.filter((term) => (term.parentId ?? 0) === query.parent);
    if (query.slug) selected = selected.filter((term) => query.slug!.includes(term.slug));

    const sorted = this.sort(selected, query, include);
    const paging = resolvePaging(query, this.lists);
    const total = sorted.length;
    const pages = totalPages(total, paging.perPage);
    const page = sorted.slice(paging.offset, paging.offset + paging.perPage);
    const links = listLinks(`${ctx.api}/${this.definition.resource}`, paging, pages, [
      ['search', query.search],
      ['exclude', query.exclude],
      ['include', query.include],
      ['order', query.order],
      ['orderby', query.orderby],
      ['hide_empty', query.hide_empty],
      ['parent', hierarchical ? query.parent : undefined],
      ['post', post],
      ['slug', query.slug],
    ]);
    return {
      headers: { total, totalPages: pages },
      body: {
        rest_url: links.rest_url,
        total,
        total_pages: pages,
        [this.definition.resource]: page.map((term) => toTermPayload(this.definition, ctx.api, this.view(term, byId), false)),
        ...(links.next_rest_url ? { next_rest_url: links.next_rest_url } : {}),
        ...(links.previous_rest_url ? { previous_rest_url: links.previous_rest_url } : {}),
      },
    };
  }

  async findOne(id: number, ctx: RequestContext) {
    const term = await this.requireTerm(id);
    return this.payload(term, ctx, true);
  }

  async create(input: TermWriteFields, ctx: RequestContext): Promise<{ id: number; body: TermResponse }> {
    await this.validateWrite(input, null);
    this.assertMayManage(ctx);
    this.refuseParentOnFlatTaxonomy(input);
    const name = stripTags(input.name ?? '');
    const description = input.description === undefined ? '' : stripTags(input.description);
    const parentId = this.definition.hierarchical ? ((input.parent as number | undefined) ?? 0) : undefined;
    await this.assertNameFree(name, parentId, null);
    const wantedSlug = input.slug === undefined ? undefined : sanitizeSlug(input.slug);
    if (wantedSlug !== undefined) await this.assertSlugFree(wantedSlug, null);

    const id = await retryOnConflict(() =>
      this.dataSource.transaction(async (manager) => {
        const { id } = await manager.save(TermIdEntity, manager.create(TermIdEntity, { taxonomy: this.definition.taxonomy }));
        const slug = wantedSlug ?? (await freeSlug(manager, this.tableName, sanitizeSlug(name) || String(id), null));
        const term = manager.create(this.definition.entity, {
          id,
          name,
          slug,
          description,
          ...(parentId !== undefined ? { parentId } : {}),
        });
        await manager.insert(this.definition.entity, term);
        return id;
      }),
    );
    await this.version.bump();
    return { id, body: await this.payload(await this.requireTerm(id), ctx, true) };
  }

  async update(id: number, input: TermWriteFields, ctx: RequestContext): Promise<TermResponse> {
    const term = await this.requireTerm(id);
    await this.validateWrite(input, term);
    this.assertMayManage(ctx);
    this.refuseParentOnFlatTaxonomy(input);
    const changes: Partial<AnyTerm> = {};
    if (input.name !== undefined) changes.name = stripTags(input.name);
    if (input.description !== undefined) changes.description = stripTags(input.description);
    if (this.definition.hierarchical && input.parent !== undefined) changes.parentId = input.parent as number;
    const name = changes.name ?? term.name;
    const parentId = this.definition.hierarchical ? (changes.parentId ?? term.parentId ?? 0) : undefined;
    if (changes.name !== undefined || changes.parentId !== undefined) await this.assertNameFree(name, parentId, id);
    if (input.slug !== undefined) {
      changes.slug = sanitizeSlug(input.slug);
      await this.assertSlugFree(changes.slug, id);
    }
    if (Object.keys(changes).length > 0) {
      await retryOnConflict(() => this.repository.update({ id }, changes as never));
      await this.version.bump();
    }
    return this.payload(await this.requireTerm(id), ctx, true);
  }

  /** Permanent removal: links to events go, direct children move up to the removed term's parent. */
  async remove(id: number, ctx: RequestContext): Promise<TermResponse> {
    const term = await this.requireTerm(id);
    this.assertMayManage(ctx);
    const before = await this.payload(term, ctx, false);
    await this.dataSource.transaction(async (manager) => {
      await manager
        .createQueryBuilder()
        .delete()
        .from(this.definition.joinTable)
        .where(`${this.definition.joinColumn} = :id`, { id })
        .execute();
      if (this.definition.hierarchical) {
        await manager.update(this.definition.entity, { parentId: id } as never, { parentId: term.parentId ?? 0 } as never);
      }
      await manager.delete(this.definition.entity, { id });
    });
    await this.version.bump();
    return before;
  }

  /** Embedded term objects of events, keyed by event id, sorted by name then id (spec §8.2). */
  async embeddedTermsOfEvents(eventIds: number[], api: string, manager?: EntityManager): Promise<Map<number, EventTermResponse[]>> {
    const result = new Map<number, EventTermResponse[]>();
    if (eventIds.length === 0) return result;
    const runner = manager ?? this.dataSource.manager;
    const links = await runner
      .createQueryBuilder()
      .select('l.event_id', 'eventId')
      .addSelect(`l.${this.definition.joinColumn}`, 'termId')
      .from(this.definition.joinTable, 'l')
      .where('l.event_id IN (:...eventIds)', { eventIds })
      .getRawMany<{ eventId: number; termId: number }>();
    if (links.length === 0) return result;
    const terms = manager ? await manager.getRepository(this.definition.entity).find() : await this.allTerms();
    const byId = new Map(terms.map((term) => [term.id, term]));
    for (const link of links) {
      const term = byId.get(Number(link.termId));
      if (!term) continue;
      const list = result.get(Number(link.eventId)) ?? [];
      list.push(toEventTermPayload(this.definition, api, this.view(term, byId)));
      result.set(Number(link.eventId), list);
    }
    for (const list of result.values()) {
      list.sort((a, b) => compareText(String(a.name), String(b.name)) || Number(a.id) - Number(b.id));
    }
    return result;
  }

  /** Event writes name terms by id or by name/slug; unknown ids are refused (spec §11.4). */
  async checkEventRefs(refs: string[], param: string, problems: ParamProblems): Promise<void> {
    const ids = refs.filter((ref) => /^\d+$/.test(ref)).map(Number);
    if (ids.length === 0) return;
    const found = new Set((await this.repository.findBy({ id: In(ids) } as never)).map((term) => term.id));
    const unknown = ids.find((id) => !found.has(id));
    if (unknown !== undefined) problems.add(param, this.definition.unknownKey, { value: String(unknown) });
  }

  /** Term ids for an event write: ids as given, names matched by slug or name, new terms created. */
  async resolveEventRefs(manager: EntityManager, refs: string[]): Promise<number[]> {
    const ids: number[] = [];
    for (const ref of refs) {
      let id: number | undefined;
      if (/^\d+$/.test(ref)) id = Number(ref);
      else {
        const existing = await manager
          .getRepository(this.definition.entity)
          .createQueryBuilder('t')
          .where('t.slug = :slug OR LOWER(t.name) = LOWER(:name)', { slug: sanitizeSlug(ref), name: stripTags(ref) })
          .orderBy('t.id', 'ASC')
          .getOne();
        id = existing?.id ?? (await this.insertTerm(manager, stripTags(ref)));
      }
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  }

  /**
   * Locks terms an event write is about to link (MySQL/MariaDB). The link's foreign key would
   * otherwise take a shared lock on each term, and two writers holding one would both wait to raise
   * it when they move the term's count: a deadlock. Taken in id order, like the count updates.
   */
  async lockForLinking(manager: EntityManager, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await forUpdate(
      manager
        .getRepository(this.definition.entity)
        .createQueryBuilder('t')
        .select('t.id')
        .where('t.id IN (:...ids)', { ids })
        .orderBy('t.id'),
    ).getRawMany();
  }

  private async insertTerm(manager: EntityManager, name: string): Promise<number> {
    const { id } = await manager.save(TermIdEntity, manager.create(TermIdEntity, { taxonomy: this.definition.taxonomy }));
    const slug = await freeSlug(manager, this.tableName, sanitizeSlug(name) || String(id), null);
    await manager.insert(
      this.definition.entity,
      manager.create(this.definition.entity, { id, name, slug, description: '', ...(this.definition.hierarchical ? { parentId: 0 } : {}) }),
    );
    return id;
  }

  /** Ids of the given terms and, for hierarchies, of all their descendants (list filters, spec §9.4). */
  async withDescendants(ids: number[]): Promise<number[]> {
    if (!this.definition.hierarchical) return ids;
    const terms = await this.repository.find();
    const result = new Set(ids);
    let grew = true;
    while (grew) {
      grew = false;
      for (const term of terms) {
        if (!result.has(term.id) && result.has(term.parentId ?? 0)) {
          result.add(term.id);
          grew = true;
        }
      }
    }
    return [...result];
  }

  /** Ids or slugs (all-digit items are ids) of this taxonomy; unknown ones are reported under `param`. */
  resolveRefs(refs: string[], terms: AnyTerm[], param: string, problems: ParamProblems): number[] {
    const ids: number[] = [];
    for (const ref of refs) {
      const term = /^\d+$/.test(ref)
        ? terms.find((candidate) => candidate.id === Number(ref))
        : terms.find((candidate) => candidate.slug === ref);
      if (term) ids.push(term.id);
      else problems.add(param, this.definition.unknownKey, { value: ref });
    }
    return ids;
  }

  async requireTerm(id: number): Promise<AnyTerm> {
    const term = Number.isSafeInteger(id) ? await this.repository.findOneBy({ id }) : null;
    if (!term) throw ApiError.invalidParam('id', this.definition.unknownKey, { value: String(id) });
    return term;
  }

  private async payload(term: AnyTerm, ctx: RequestContext, withLinks: boolean) {
    const terms = this.definition.hierarchical ? await this.allTerms() : [term];
    const byId = new Map(terms.map((candidate) => [candidate.id, candidate]));
    return toTermPayload(this.definition, ctx.api, this.view(term, byId), withLinks);
  }

  private view(term: AnyTerm, byId: Map<number, AnyTerm>): TermView {
    const chain: string[] = [term.slug];
    const seen = new Set([term.id]);
    for (let parent = byId.get(term.parentId ?? 0); parent && !seen.has(parent.id); parent = byId.get(parent.parentId ?? 0)) {
      seen.add(parent.id);
      chain.unshift(parent.slug);
    }
    return { term, count: term.publishedCount, url: this.definition.pageUrl(this.publicUrl, chain) };
  }

  /** Terms with a count, and (hierarchies) every ancestor of one: `hide_empty` keeps them. */
  private usedTermIds(terms: AnyTerm[]): Set<number> {
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

  private sort(terms: AnyTerm[], query: TermListQuery, include: number[] | undefined): AnyTerm[] {
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

  private async validateWrite(input: TermWriteFields, current: AnyTerm | null): Promise<void> {
    const problems = ParamProblems.from(input);
    if (input.slug !== undefined && sanitizeSlug(input.slug) === '') problems.add('slug', 'not_empty');
    if (this.definition.hierarchical && typeof input.parent === 'number' && input.parent !== 0) {
      const terms = await this.repository.find();
      const byId = new Map(terms.map((term) => [term.id, term]));
      if (!byId.has(input.parent)) problems.add('parent', this.definition.unknownKey, { value: String(input.parent) });
      else if (current && this.isSelfOrDescendant(input.parent, current.id, byId)) problems.add('parent', 'parent_cycle');
    }
    problems.throwIfAny(['name', 'description', 'slug', 'parent']);
  }

  private isSelfOrDescendant(candidate: number, termId: number, byId: Map<number, AnyTerm>): boolean {
    const seen = new Set<number>();
    for (let current = byId.get(candidate); current && !seen.has(current.id); current = byId.get(current.parentId ?? 0)) {
      if (current.id === termId) return true;
      seen.add(current.id);
    }
    return false;
  }

  private assertMayManage(ctx: RequestContext): void {
    if (!canCreate(this.definition.resource, ctx.user)) throw ApiError.forbidden(ctx.user !== null);
  }

  private refuseParentOnFlatTaxonomy(input: TermWriteFields): void {
    if (!this.definition.hierarchical && input.parent !== undefined) throw new ApiError(400, ErrorCode.TaxonomyNotHierarchical);
  }

  private async assertNameFree(name: string, parentId: number | undefined, exceptId: number | null): Promise<void> {
    const query = this.repository.createQueryBuilder('t').where('LOWER(t.name) = LOWER(:name)', { name });
    if (parentId !== undefined) query.andWhere('t.parent_id = :parentId', { parentId });
    if (exceptId !== null) query.andWhere('t.id <> :exceptId', { exceptId });
    const existing = await query.getOne();
    if (existing) throw new ApiError(400, ErrorCode.TermExists, {}, { termId: existing.id });
  }

  private async assertSlugFree(slug: string, exceptId: number | null): Promise<void> {
    const existing = await this.repository.findOneBy({ slug });
    if (existing && existing.id !== exceptId) throw new ApiError(400, ErrorCode.DuplicateTermSlug, { slug });
  }

  private async eventExists(id: number): Promise<boolean> {
    return Number.isSafeInteger(id) && id > 0 && (await this.dataSource.getRepository(EventEntity).existsBy({ id }));
  }

  private async termIdsOfEvent(eventId: number): Promise<number[]> {
    const rows = await this.dataSource
      .createQueryBuilder()
      .select(`l.${this.definition.joinColumn}`, 'termId')
      .from(this.definition.joinTable, 'l')
      .where('l.event_id = :eventId', { eventId })
      .getRawMany<{ termId: number }>();
    return rows.map((row) => Number(row.termId));
  }
}

function positionIn<T>(list: readonly T[], value: T): number {
  const index = list.indexOf(value);
  return index === -1 ? list.length : index;
}

export function compareText(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}
