import { DataSource, type EntityManager } from 'typeorm';
import { type TermContribution, termCountStatements } from './event-term-counts.js';

/** Just what building the statements asks of a manager: the driver's quoting of names. */
const manager = { connection: { driver: { escape: (name: string) => `"${name}"` } } } as unknown as EntityManager;

/** A contribution of category and tag links: term id → links. */
function contribution(categories: Record<number, number>, tags: Record<number, number> = {}): TermContribution {
  const of = (counts: Record<number, number>) => new Map(Object.entries(counts).map(([id, n]) => [Number(id), n]));
  return new Map([
    ['categories', of(categories)],
    ['tags', of(tags)],
  ]);
}

describe('termCountStatements', () => {
  it('moves one term of a taxonomy by a plain statement, and leaves untouched terms and taxonomies out', () => {
    expect(termCountStatements(manager, contribution({ 3: 1, 4: 1 }), contribution({ 3: 1, 4: 2 }, {}))).toEqual([
      { sql: 'UPDATE "categories" SET published_count = published_count + ? WHERE id = ?', parameters: [1, 4] },
    ]);
    expect(termCountStatements(manager, contribution({ 3: 1 }, { 7: 1 }), contribution({ 3: 1 }, { 7: 1 }))).toEqual([]);
  });

  it('moves several terms of a taxonomy by one statement, in the order of their ids', () => {
    const [categories, tags] = termCountStatements(manager, contribution({ 9: 1, 2: 1 }, { 5: 1 }), contribution({ 4: 1 }, { 5: 1, 1: 1 }));
    expect(categories).toEqual({
      sql: 'UPDATE "categories" SET published_count = published_count + CASE id WHEN ? THEN ? WHEN ? THEN ? WHEN ? THEN ? END WHERE id IN (?, ?, ?)',
      parameters: [2, -1, 4, 1, 9, -1, 2, 4, 9],
    });
    expect(tags).toEqual({ sql: 'UPDATE "tags" SET published_count = published_count + ? WHERE id = ?', parameters: [1, 1] });
  });

  it('leaves every count where the links say, run against a real table', async () => {
    const db = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    await db.initialize();
    for (const table of ['categories', 'tags']) {
      await db.query(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, published_count INTEGER NOT NULL)`);
      for (let id = 1; id <= 10; id++) await db.query(`INSERT INTO ${table} (id, published_count) VALUES (?, 5)`, [id]);
    }
    const before = contribution({ 1: 1, 2: 2, 3: 1 }, { 4: 1, 6: 1, 8: 1 });
    const after = contribution({ 2: 1, 3: 1, 10: 3 }, { 4: 1, 5: 1 });
    for (const { sql, parameters } of termCountStatements(manager, before, after)) await db.query(sql, parameters);
    const counts = async (table: string) => {
      const rows = await db.query<Array<{ id: number; n: number }>>(`SELECT id, published_count AS n FROM ${table} ORDER BY id`);
      return Object.fromEntries(rows.map(({ id, n }) => [id, n]));
    };
    expect(await counts('categories')).toEqual({ 1: 4, 2: 4, 3: 5, 4: 5, 5: 5, 6: 5, 7: 5, 8: 5, 9: 5, 10: 8 });
    expect(await counts('tags')).toEqual({ 1: 5, 2: 5, 3: 5, 4: 5, 5: 6, 6: 4, 7: 5, 8: 4, 9: 5, 10: 5 });
    await db.destroy();
  });
});
