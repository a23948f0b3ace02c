import type { EntityManager } from 'typeorm';
import { forUpdate } from '../common/sql/for-update.js';
import { idChunks } from '../common/sql/id-chunks.js';
import { EventEntity } from './event.entity.js';

/** Taxonomies whose stored counts follow the events' links: term table, link table, its term column. */
const COUNTED = [
  { terms: 'categories', links: 'event_categories', column: 'category_id' },
  { terms: 'tags', links: 'event_tags', column: 'tag_id' },
] as const;

/** What some events add to term counts: per term table, term id → number of links. */
export type TermContribution = Map<string, Map<number, number>>;

/**
 * What the given events add to the stored term counts (spec §8.5: published events, direct links
 * only). A write transaction reads it for the events it changes before and after changing them
 * (the events' rows locked first, so nobody else moves them meanwhile) and hands both to
 * {@link moveTermCounts}.
 */
export async function termContribution(manager: EntityManager, eventIds: number[]): Promise<TermContribution> {
  const result: TermContribution = new Map(COUNTED.map(({ terms }) => [terms, new Map<number, number>()]));
  for (const chunk of idChunks(eventIds)) {
    for (const { terms, links, column } of COUNTED) {
      const rows = await manager
        .createQueryBuilder()
        .select(`l.${column}`, 'termId')
        .addSelect('COUNT(*)', 'n')
        .from(links, 'l')
        .innerJoin(EventEntity, 'e', 'e.id = l.event_id')
        .where("l.event_id IN (:...chunk) AND e.status = 'publish'", { chunk })
        .groupBy(`l.${column}`)
        .getRawMany<{ termId: number | string; n: number | string }>();
      const counts = result.get(terms) as Map<number, number>;
      for (const row of rows) counts.set(Number(row.termId), (counts.get(Number(row.termId)) ?? 0) + Number(row.n));
    }
  }
  return result;
}

/**
 * Moves the stored counts by `after - before` per term, inside the caller's transaction. Terms are
 * updated in one order (taxonomy, then id) so that concurrent writers take their row locks alike;
 * terms with no change are not touched. Answers whether any count moved.
 */
export async function moveTermCounts(manager: EntityManager, before: TermContribution, after: TermContribution): Promise<boolean> {
  const statements = termCountStatements(manager, before, after);
  for (const { sql, parameters } of statements) await manager.query(sql, parameters);
  return statements.length > 0;
}

/** One statement with its `?` parameters. */
interface Statement {
  sql: string;
  parameters: unknown[];
}

/**
 * The statements of {@link moveTermCounts}, in its order: one per taxonomy whose counts move. Several terms of a taxonomy are moved by one statement whose
 * `CASE` gives each its change; the server reads their rows in the order of their ids (the primary
 * key), the order a statement per term would have taken.
 */
export function termCountStatements(manager: EntityManager, before: TermContribution, after: TermContribution): Statement[] {
  const statements: Statement[] = [];
  for (const { terms } of COUNTED) {
    const table = manager.connection.driver.escape(terms);
    const was = before.get(terms) ?? new Map<number, number>();
    const now = after.get(terms) ?? new Map<number, number>();
    const moves = [...new Set([...was.keys(), ...now.keys()])]
      .sort((a, b) => a - b)
      .map((id) => ({ id, delta: (now.get(id) ?? 0) - (was.get(id) ?? 0) }))
      .filter(({ delta }) => delta !== 0);
    if (moves.length === 1) {
      const [{ id, delta }] = moves;
      statements.push({ sql: `UPDATE ${table} SET published_count = published_count + ? WHERE id = ?`, parameters: [delta, id] });
    } else if (moves.length > 1) {
      const cases = moves.map(() => 'WHEN ? THEN ?').join(' ');
      const ids = moves.map(() => '?').join(', ');
      statements.push({
        sql: `UPDATE ${table} SET published_count = published_count + CASE id ${cases} END WHERE id IN (${ids})`,
        parameters: [...moves.flatMap(({ id, delta }) => [id, delta]), ...moves.map(({ id }) => id)],
      });
    }
  }
  return statements;
}

/**
 * What a new event adds, known without reading it back: one per term it links (`links`: the link
 * table of the taxonomy) when it is published, nothing otherwise. The same as
 * {@link termContribution} of the event once linked.
 */
export function newEventContribution(published: boolean, linked: Array<{ links: string; ids: number[] }>): TermContribution {
  const result: TermContribution = new Map(COUNTED.map(({ terms }) => [terms, new Map<number, number>()]));
  if (!published) return result;
  for (const { links, ids } of linked) {
    const counted = COUNTED.find((taxonomy) => taxonomy.links === links);
    const counts = counted && result.get(counted.terms);
    for (const id of new Set(ids)) counts?.set(id, 1);
  }
  return result;
}

/** What an event with these category and tag links adds (see {@link newEventContribution}), for a write that read them. */
export function linkedContribution(
  published: boolean,
  links: { categories: Array<{ termId: number }>; tags: Array<{ termId: number }> },
): TermContribution {
  return newEventContribution(published, [
    { links: COUNTED[0].links, ids: links.categories.map((link) => Number(link.termId)) },
    { links: COUNTED[1].links, ids: links.tags.map((link) => Number(link.termId)) },
  ]);
}

/** No contribution: the "before" of a newly created event. */
export const NO_CONTRIBUTION: TermContribution = new Map();

/**
 * Runs `change` on existing events inside the caller's transaction and moves the term counts by
 * what it changed. The events' rows are locked first (MySQL/MariaDB; SQLite has one writer at a
 * time), so the "before" read sees the latest committed state and nobody else moves them meanwhile.
 */
export async function keepingTermCounts<T>(manager: EntityManager, eventIds: number[], change: () => Promise<T>): Promise<T> {
  for (const chunk of idChunks(eventIds)) {
    await forUpdate(
      manager.getRepository(EventEntity).createQueryBuilder('e').select('e.id').where('e.id IN (:...chunk)', { chunk }),
    ).getRawMany();
  }
  const before = await termContribution(manager, eventIds);
  const result = await change();
  await moveTermCounts(manager, before, await termContribution(manager, eventIds));
  return result;
}
