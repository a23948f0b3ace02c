import type { EntityManager } from 'typeorm';
import type { ListsConfig } from '../config/app-config.js';
import { recordingChanges, recordingCreation } from '../changes/change-recording.js';
import { canCreate } from '../common/auth/permissions.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { ApiError, ParamProblems } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { retryOnConflict } from '../common/errors/db-errors.js';
import { freeSlug } from '../common/sql/free-slug.js';
import { IfMatch, preconditionFailed } from '../common/http/preconditions.js';
import type { RequestContext } from '../common/http/request-context.js';
import { rowUnchanged } from '../common/sql/unchanged-row.js';
import { modifiedWindow, orderAndModifiedEcho } from '../common/paging/list-order.js';
import { listLinks, resolvePaging, totalPages } from '../common/paging/paging.js';
import { paramOrder } from '../common/validation/param.js';
import { sanitizeSlug } from '../common/text/slug.js';
import { stripTags } from '../common/text/html.js';
import type { ContentTranslationsService } from '../translations/content-translations.service.js';
import type { TranslatedTexts } from '../translations/content-translations.js';
import type { TermWriteFields } from './dto/term-write.dto.js';
import { TermAssignments, type TaxonomyDefinition } from './term-assignments.js';
import type { TermDeps } from './term-deps.js';
import type { TermEvents } from './term-events.js';
import { TermIdEntity } from './term-id.entity.js';
import { assertNameFree, assertSlugFree } from './term-uniqueness.js';
import { toTermPayload } from './term.mapper.js';
import type { TermResponse } from './term.response.js';
import { isSelfOrDescendant, sortTerms, termView, usedTermIds, type AnyTerm, type TermListQuery } from './term-tree.js';

/**
 * Categories and tags behave the same apart from hierarchy, so one service serves both, configured
 * by a {@link TaxonomyDefinition}. Taxonomies are small, so lists are filtered in memory after one
 * read of the terms, which carry their stored published-event counts (events/event-term-counts.ts).
 */
export class TermsService extends TermAssignments {
  private readonly lists: ListsConfig;
  private readonly events: TermEvents;
  private readonly siteTimezone: string;
  private readonly translations: ContentTranslationsService;

  constructor(definition: TaxonomyDefinition, deps: TermDeps) {
    super(definition, deps.dataSource, deps.publicUrl, deps.version);
    this.lists = deps.lists;
    this.events = deps.events;
    this.siteTimezone = deps.siteTimezone;
    this.translations = deps.translations;
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
    if (post !== undefined && !(await this.events.exists(post))) problems.add(postParam, 'unknown_event');
    const modified = modifiedWindow(query, this.siteTimezone, new Date(), problems);
    this.translations.checkMissingLanguage(query.missing_translation, 'missing_translation', problems);
    problems.throwIfAny(paramOrder(queryClass));

    let selected = terms;
    if (post !== undefined) {
      const assigned = new Set(await this.termIdsOfEvent(post));
      selected = selected.filter((term) => assigned.has(term.id));
    } else if (query.hide_empty ?? true) {
      const used = usedTermIds(terms);
      selected = selected.filter((term) => used.has(term.id));
    }
    if (query.search !== undefined) {
      const needle = query.search.toLowerCase();
      // through an edition's path, the name the edition answers
      const names = await this.translations.read(ctx, { [this.definition.taxonomy]: selected.map((term) => term.id) });
      const nameOf = (term: AnyTerm) => (names ? names.textOf(this.definition.taxonomy, term.id, term) : term).name;
      selected = selected.filter((term) => nameOf(term).toLowerCase().includes(needle) || term.slug.includes(needle));
    }
    if (query.missing_translation !== undefined) {
      const translated = await this.translations.translatedIds(this.definition.taxonomy, query.missing_translation);
      selected = selected.filter((term) => !translated.has(term.id));
    }
    if (include) selected = selected.filter((term) => include.includes(term.id));
    if (exclude) selected = selected.filter((term) => !exclude.includes(term.id));
    if (hierarchical && query.parent !== undefined) selected = selected.filter((term) => (term.parentId ?? 0) === query.parent);
    if (query.slug) selected = selected.filter((term) => query.slug!.includes(term.slug));
    if (modified.after !== undefined) selected = selected.filter((term) => term.modifiedUtc !== null && term.modifiedUtc > modified.after!);
    if (modified.before !== undefined)
      selected = selected.filter((term) => term.modifiedUtc !== null && term.modifiedUtc < modified.before!);

    const sorted = sortTerms(selected, query, include);
    const paging = resolvePaging(query, this.lists);
    const total = sorted.length;
    const pages = totalPages(total, paging.perPage);
    const page = sorted.slice(paging.offset, paging.offset + paging.perPage);
    const texts = await this.translations.read(ctx, { [this.definition.taxonomy]: page.map((term) => term.id) });
    const links = listLinks(`${ctx.api}/${this.definition.resource}`, paging, pages, [
      ['search', query.search],
      ['missing_translation', query.missing_translation],
      ['exclude', query.exclude],
      ['include', query.include],
      ['order', query.order],
      ['orderby', query.orderby],
      ['hide_empty', query.hide_empty],
      ['parent', hierarchical ? query.parent : undefined],
      ['post', post],
      ['slug', query.slug],
      ...orderAndModifiedEcho({}, modified),
    ]);
    return {
      headers: { total, totalPages: pages },
      body: {
        rest_url: links.rest_url,
        total,
        total_pages: pages,
        [this.definition.resource]: page.map((term) => this.inLanguage(texts, term, byId, ctx, false)),
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
    const { changes: translated } = await this.validateWrite(input, null, ctx);
    this.assertMayManage(ctx);
    this.refuseParentOnFlatTaxonomy(input);
    const name = stripTags(input.name ?? '');
    const description = input.description === undefined ? '' : stripTags(input.description);
    const parentId = this.definition.hierarchical ? ((input.parent as number | undefined) ?? 0) : undefined;
    await assertNameFree(this.repository, name, parentId, null);
    // a sent slug that another term holds is suffixed, like a generated one (spec §3.3, §11.9)
    const wantedSlug = input.slug === undefined ? undefined : sanitizeSlug(input.slug);

    const id = await retryOnConflict(() =>
      this.dataSource.transaction(async (manager) => {
        const { id } = await manager.save(TermIdEntity, manager.create(TermIdEntity, { taxonomy: this.definition.taxonomy }));
        const slug = await freeSlug(manager, this.tableName, wantedSlug ?? (sanitizeSlug(name) || String(id)), null);
        const term = manager.create(this.definition.entity, {
          id,
          name,
          slug,
          description,
          modifiedUtc: nowUtcWall(),
          ...(parentId !== undefined ? { parentId } : {}),
        });
        await recordingCreation(manager, this.definition.taxonomy, [id], async () => {
          await manager.insert(this.definition.entity, term);
          await this.translations.write(manager, this.definition.taxonomy, id, translated);
        });
        return id;
      }),
    );
    await this.version.bump();
    return { id, body: await this.payload(await this.requireTerm(id), ctx, true) };
  }

  async update(id: number, given: TermWriteFields, ctx: RequestContext): Promise<TermResponse> {
    const ifMatch = IfMatch.of(ctx);
    const term = await this.requireTermToWrite(id, ctx, ifMatch);
    const { input, changes: translated } = await this.validateWrite(given, term, ctx);
    this.assertMayManage(ctx);
    this.refuseParentOnFlatTaxonomy(input);
    if (ifMatch) await ifMatch.assert(() => this.findOne(id, ctx));
    const changes: Partial<AnyTerm> = {};
    if (input.name !== undefined) changes.name = stripTags(input.name);
    if (input.description !== undefined) changes.description = stripTags(input.description);
    if (this.definition.hierarchical && input.parent !== undefined) changes.parentId = input.parent as number;
    const name = changes.name ?? term.name;
    const parentId = this.definition.hierarchical ? (changes.parentId ?? term.parentId ?? 0) : undefined;
    if (changes.name !== undefined || changes.parentId !== undefined) await assertNameFree(this.repository, name, parentId, id);
    if (input.slug !== undefined) {
      changes.slug = sanitizeSlug(input.slug);
      await assertSlugFree(this.repository, changes.slug, id);
    }
    if (Object.keys(changes).length > 0 || Object.keys(translated).length > 0) {
      changes.modifiedUtc = nowUtcWall();
      await retryOnConflict(() =>
        this.dataSource.transaction(async (manager) => {
          if (ifMatch) await this.assertUnchanged(manager, term);
          await recordingChanges(manager, this.definition.taxonomy, [id], async () => {
            await manager.update(this.definition.entity, { id }, changes);
            await this.translations.write(manager, this.definition.taxonomy, id, translated);
          });
        }),
      );
      await this.version.bump();
    }
    return this.payload(await this.requireTerm(id), ctx, true);
  }

  /** Permanent removal: links to events go, direct children move up to the removed term's parent. */
  async remove(id: number, ctx: RequestContext): Promise<TermResponse> {
    const ifMatch = IfMatch.of(ctx);
    const term = await this.requireTermToWrite(id, ctx, ifMatch);
    this.assertMayManage(ctx);
    if (ifMatch) await ifMatch.assert(() => this.findOne(id, ctx));
    const before = await this.payload(term, ctx, false);
    await this.dataSource.transaction(async (manager) => {
      if (ifMatch) await this.assertUnchanged(manager, term);
      await manager
        .createQueryBuilder()
        .delete()
        .from(this.definition.joinTable)
        .where(`${this.definition.joinColumn} = :id`, { id })
        .execute();
      if (this.definition.hierarchical) {
        const children = (await manager.findBy(this.definition.entity, { parentId: id })).map((child) => child.id);
        await recordingChanges(manager, this.definition.taxonomy, children, () =>
          manager.update(this.definition.entity, { parentId: id }, { parentId: term.parentId ?? 0 }),
        );
      }
      // declared: the term goes for good, so its last state is kept with the change
      await recordingChanges(manager, this.definition.taxonomy, [id], () => manager.delete(this.definition.entity, { id }), 'deleted');
      await this.translations.removeAll(manager, this.definition.taxonomy, [id]);
    });
    await this.version.bump();
    return before;
  }

  /** The term as `GET` by id answers, read through `manager` (inside a write's transaction); null when there is none. */
  async renderForChange(manager: EntityManager, id: number, ctx: RequestContext): Promise<TermResponse | null> {
    const repository = manager.getRepository(this.definition.entity);
    const term = await repository.findOneBy({ id });
    if (!term) return null;
    const terms = this.definition.hierarchical ? await repository.find() : [term];
    const byId = new Map(terms.map((candidate) => [candidate.id, candidate]));
    const texts = await this.translations.read(ctx, { [this.definition.taxonomy]: [term.id] }, manager);
    return this.inLanguage(texts, term, byId, ctx, true);
  }

  async requireTerm(id: number): Promise<AnyTerm> {
    const term = Number.isSafeInteger(id) ? await this.repository.findOneBy({ id }) : null;
    if (!term) throw ApiError.invalidParam('id', this.definition.unknownKey, { value: String(id) });
    return term;
  }

  /**
   * The term an update or delete addresses. Without `If-Match` an unknown id is a parameter error
   * (400, spec §4.6); with it, the precondition fails (412) once the requester may manage terms.
   */
  private async requireTermToWrite(id: number, ctx: RequestContext, ifMatch: IfMatch | null): Promise<AnyTerm> {
    if (!ifMatch) return this.requireTerm(id);
    const term = Number.isSafeInteger(id) ? await this.repository.findOneBy({ id }) : null;
    if (term) return term;
    this.assertMayManage(ctx);
    throw preconditionFailed();
  }

  /** A conditional write: the term's row, now locked, must still be the one the condition was evaluated on. */
  private async assertUnchanged(manager: EntityManager, seen: AnyTerm): Promise<void> {
    if (!(await rowUnchanged(manager, this.definition.entity, seen))) throw preconditionFailed();
  }

  private async payload(term: AnyTerm, ctx: RequestContext, withLinks: boolean) {
    const [terms, texts] = await Promise.all([
      this.definition.hierarchical ? this.allTerms() : [term],
      this.translations.read(ctx, { [this.definition.taxonomy]: [term.id] }),
    ]);
    const byId = new Map(terms.map((candidate) => [candidate.id, candidate]));
    return this.inLanguage(texts, term, byId, ctx, withLinks);
  }

  /** The term's payload, in the reader's languages with its language key when `texts` (an edition's path) is given. */
  private inLanguage(texts: TranslatedTexts | null, term: AnyTerm, byId: Map<number, AnyTerm>, ctx: RequestContext, withLinks: boolean) {
    const kind = this.definition.taxonomy;
    const shown = texts ? texts.textOf(kind, term.id, term) : term;
    const payload = toTermPayload(this.definition, ctx.api, termView(this.definition, this.publicUrl, shown, byId), withLinks);
    return texts ? texts.withKey(kind, term.id, payload) : payload;
  }

  /** Checks a write; returns it without the text fields that go to a translation, and the translations' changes. */
  private async validateWrite(input: TermWriteFields, current: AnyTerm | null, ctx: RequestContext) {
    const problems = ParamProblems.from(input);
    const split = this.translations.split(this.definition.taxonomy, ctx, input, problems, current ? 'update' : 'create');
    if (input.slug !== undefined && sanitizeSlug(input.slug) === '') problems.add('slug', 'not_empty');
    if (this.definition.hierarchical && typeof input.parent === 'number' && input.parent !== 0) {
      const terms = await this.repository.find();
      const byId = new Map(terms.map((term) => [term.id, term]));
      if (!byId.has(input.parent)) problems.add('parent', this.definition.unknownKey, { value: String(input.parent) });
      else if (current && isSelfOrDescendant(input.parent, current.id, byId)) problems.add('parent', 'parent_cycle');
    }
    problems.throwIfAny(['name', 'description', 'slug', 'parent', 'translations']);
    return split;
  }

  private assertMayManage(ctx: RequestContext): void {
    if (!canCreate(this.definition.resource, ctx.user)) throw ApiError.forbidden(ctx.user !== null);
  }

  private refuseParentOnFlatTaxonomy(input: TermWriteFields): void {
    if (!this.definition.hierarchical && input.parent !== undefined) throw new ApiError(400, ErrorCode.TaxonomyNotHierarchical);
  }
}
