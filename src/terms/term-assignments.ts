import { type DataSource, type EntityManager, type Repository } from 'typeorm';
import type { ParamProblems } from '../common/errors/api-error.js';
import { forUpdate } from '../common/sql/for-update.js';
import { idChunks } from '../common/sql/id-chunks.js';
import { taggedIdsQuery } from '../common/sql/find-in.js';
import { freeSlug } from '../common/sql/free-slug.js';
import { stripTags } from '../common/text/html.js';
import { sanitizeSlug } from '../common/text/slug.js';
import type { DataVersionService } from '../cache/data-version.service.js';
import { TermIdEntity, type Taxonomy } from './term-id.entity.js';
import { recordingCreation } from '../changes/change-recording.js';
import { toEventTermPayload, type TaxonomyShape } from './term.mapper.js';
import type { EventTermResponse } from './term.response.js';
import { compareTermNames, termView, type AnyTerm } from './term-tree.js';
import { nowUtcWall } from '../common/dates/wall-time.js';

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

/** One link between an event and a term. */
export interface TermLink {
  eventId: number;
  termId: number;
  /** The column named for this link table in `extraColumns`, when one was. */
  extra?: number;
}

/**
 * The links of events to the rows of several link tables (the terms of taxonomies, the organizers),
 * read in one statement per thousand events. `extraColumns`: a numeric column to read as well, per
 * link table (the organizers' position).
 */
export async function termLinksOfEvents(
  runner: EntityManager,
  definitions: readonly Pick<TaxonomyDefinition, 'joinTable' | 'joinColumn'>[],
  eventIds: number[],
  extraColumns: Record<string, string> = {},
): Promise<TermLink[][]> {
  const links = definitions.map((): TermLink[] => []);
  for (const chunk of idChunks(eventIds)) {
    const rows: LinkRow[] = await runner.query(linksSql(definitions, chunk, extraColumns).join(' UNION ALL '));
    addLinks(links, rows);
  }
  return links;
}

/**
 * The links of one event as {@link termLinksOfEvents} reads them, and in the same statement the
 * values of some scalar SQL expressions (what a write's transaction reads anyway: one round trip
 * instead of several). The values come as strings, null for SQL NULL.
 */
export async function termLinksOfEventWith(
  runner: EntityManager,
  definitions: readonly Pick<TaxonomyDefinition, 'joinTable' | 'joinColumn'>[],
  eventId: number,
  extraColumns: Record<string, string>,
  expressions: readonly string[],
): Promise<{ links: TermLink[][]; values: Array<string | null> }> {
  const parts = linksSql(definitions, [eventId], extraColumns);
  expressions.forEach((expression, index) =>
    parts.push(`SELECT ${definitions.length + index} AS t, 0 AS event_id, (${expression}) AS term_id, 0 AS extra`),
  );
  const rows: LinkRow[] = await runner.query(parts.join(' UNION ALL '));
  const values = expressions.map((): string | null => null);
  const links = definitions.map((): TermLink[] => []);
  addLinks(
    links,
    rows.filter((row) => {
      const index = Number(row.t) - definitions.length;
      if (index < 0) return true;
      values[index] = row.term_id === null ? null : String(row.term_id);
      return false;
    }),
  );
  return { links, values };
}

type LinkRow = { t: number | string; event_id: number | string; term_id: number | string | null; extra: number | string };

function linksSql(
  definitions: readonly Pick<TaxonomyDefinition, 'joinTable' | 'joinColumn'>[],
  eventIds: number[],
  extraColumns: Record<string, string>,
): string[] {
  return definitions.map(
    (definition, index) =>
      `SELECT ${index} AS t, event_id, ${definition.joinColumn} AS term_id, ${extraColumns[definition.joinTable] ?? 0} AS extra FROM ${definition.joinTable} WHERE event_id IN (${eventIds.map(Number).join(', ')})`,
  );
}

function addLinks(links: TermLink[][], rows: LinkRow[]): void {
  for (const row of rows)
    links[Number(row.t)].push({ eventId: Number(row.event_id), termId: Number(row.term_id), extra: Number(row.extra) });
}

/** Whether `terms` hold every term of `links` and every ancestor of those. */
function holdsLinksAndAncestors(terms: AnyTerm[], links: TermLink[]): boolean {
  const byId = new Map(terms.map((term) => [term.id, term]));
  for (const link of links) {
    const seen = new Set<number>();
    for (let id: number | null | undefined = Number(link.termId); id; id = byId.get(id)?.parentId) {
      if (!byId.has(id)) return false;
      if (seen.has(id)) break;
      seen.add(id);
    }
  }
  return true;
}

/**
 * The terms of events: which terms an event has, terms named in an event write (by id, slug or
 * name, created when new) and term filters of the event list. Events use it through their
 * taxonomy services; it knows the link tables by name only.
 */
export class TermAssignments {
  /** All terms with their stored counts, read once per data version (taxonomies are small). */
  protected readonly allTerms: () => Promise<AnyTerm[]>;

  constructor(
    readonly definition: TaxonomyDefinition,
    protected readonly dataSource: DataSource,
    protected readonly publicUrl: string,
    protected readonly version: DataVersionService,
  ) {
    this.allTerms = version.memo(() => this.dataSource.manager.find(this.definition.entity));
  }

  protected get tableName(): string {
    return this.dataSource.getMetadata(this.definition.entity).tableName;
  }

  protected get repository(): Repository<AnyTerm> {
    return this.dataSource.getRepository(this.definition.entity);
  }

  /**
   * Embedded term objects of events, keyed by event id, sorted by name then id (spec §8.2). `links`:
   * the events' links to this taxonomy when the caller read them already ({@link termLinksOfEvents}).
   */
  async embeddedTermsOfEvents(
    eventIds: number[],
    api: string,
    manager?: EntityManager,
    links?: TermLink[],
    known?: AnyTerm[],
  ): Promise<Map<number, EventTermResponse[]>> {
    const result = new Map<number, EventTermResponse[]>();
    if (eventIds.length === 0) return result;
    links ??= (await termLinksOfEvents(manager ?? this.dataSource.manager, [this.definition], eventIds))[0];
    if (links.length === 0) return result;
    // terms the caller read already serve when they hold every linked term and its ancestors
    const terms =
      known && holdsLinksAndAncestors(known, links) ? known : manager ? await manager.find(this.definition.entity) : await this.allTerms();
    const byId = new Map(terms.map((term) => [term.id, term]));
    for (const link of links) {
      const term = byId.get(Number(link.termId));
      if (!term) continue;
      const list = result.get(Number(link.eventId)) ?? [];
      list.push(toEventTermPayload(this.definition, api, termView(this.definition, this.publicUrl, term, byId)));
      result.set(Number(link.eventId), list);
    }
    for (const list of result.values()) {
      list.sort(compareTermNames);
    }
    return result;
  }

  /**
   * The statement that lists which of `ids` are terms of this taxonomy, each row tagged `t` (an
   * event write checks all its links in one statement). `ids` must be safe integers.
   */
  existingIdsQuery(ids: number[], t: number): string {
    return taggedIdsQuery(this.dataSource.manager, this.definition.entity, t, ids);
  }

  /**
   * Event writes name terms by id or by name/slug; unknown ids are refused (spec §11.4). `existing`:
   * the ids of `refs` that name terms, read by the caller ({@link existingIdsQuery}).
   */
  checkEventRefs(refs: string[], param: string, problems: ParamProblems, existing: ReadonlySet<number>): void {
    const unknown = refs
      .filter((ref) => /^\d+$/.test(ref))
      .map(Number)
      .find((id) => !existing.has(id));
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

  protected async insertTerm(manager: EntityManager, name: string): Promise<number> {
    const { id } = await manager.save(TermIdEntity, manager.create(TermIdEntity, { taxonomy: this.definition.taxonomy }));
    const slug = await freeSlug(manager, this.tableName, sanitizeSlug(name) || String(id), null);
    await recordingCreation(manager, this.definition.taxonomy, [id], () =>
      manager.insert(
        this.definition.entity,
        manager.create(this.definition.entity, {
          id,
          name,
          slug,
          description: '',
          modifiedUtc: nowUtcWall(),
          ...(this.definition.hierarchical ? { parentId: 0 } : {}),
        }),
      ),
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

  protected async termIdsOfEvent(eventId: number): Promise<number[]> {
    const rows = await this.dataSource
      .createQueryBuilder()
      .select(`l.${this.definition.joinColumn}`, 'termId')
      .from(this.definition.joinTable, 'l')
      .where('l.event_id = :eventId', { eventId })
      .getRawMany<{ termId: number }>();
    return rows.map((row) => Number(row.termId));
  }
}
