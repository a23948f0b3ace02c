import type { EntityManager } from 'typeorm';
import { StatementBatch } from './together.js';

/** A manager whose connection runs one statement per query (as SQLite does), answering from `answers` in order. */
function recordingManager(answers: unknown[]): { manager: EntityManager; sent: Array<[string, unknown[] | undefined]> } {
  const sent: Array<[string, unknown[] | undefined]> = [];
  const manager = {
    connection: { driver: { options: { type: 'better-sqlite3' } } },
    query: (sql: string, parameters?: unknown[]) => {
      sent.push([sql, parameters]);
      return Promise.resolve(answers[sent.length - 1]);
    },
  } as unknown as EntityManager;
  return { manager, sent };
}

describe('StatementBatch', () => {
  it('sends its statements in the order they were added, skipping the absent ones, and hands each its own result', async () => {
    const { manager, sent } = recordingManager([{ affectedRows: 1 }, [{ id: 4 }, { id: 9 }], { insertId: 12 }]);
    const batch = new StatementBatch();
    const seen: unknown[] = [];
    batch.send({ sql: 'UPDATE a SET x = ? WHERE id = ?', parameters: [1, 2] }, (result) => seen.push(['update', result]));
    batch.send(null, () => seen.push('never'));
    batch.read({ statement: { sql: 'SELECT id FROM b' }, read: (rows) => (rows as Array<{ id: number }>).map((row) => row.id) }, (ids) =>
      seen.push(['ids', ids]),
    );
    batch.read(null, () => seen.push('never either'));
    batch.send({ sql: 'INSERT INTO c (y) VALUES (?)', parameters: ['z'] });
    expect(sent).toEqual([]);
    await batch.run(manager);
    expect(sent).toEqual([
      ['UPDATE a SET x = ? WHERE id = ?', [1, 2]],
      ['SELECT id FROM b', undefined],
      ['INSERT INTO c (y) VALUES (?)', ['z']],
    ]);
    expect(seen).toEqual([
      ['update', { affectedRows: 1 }],
      ['ids', [4, 9]],
    ]);
  });

  it('hands no result on when a statement fails: the whole run fails with its error', async () => {
    const sent: string[] = [];
    const manager = {
      connection: { driver: { options: { type: 'better-sqlite3' } } },
      query: (sql: string) => {
        sent.push(sql);
        return sql.startsWith('BAD') ? Promise.reject(new Error('no such table')) : Promise.resolve([]);
      },
    } as unknown as EntityManager;
    const batch = new StatementBatch();
    const kept: unknown[] = [];
    batch.send({ sql: 'SELECT 1' }, (result) => kept.push(result));
    batch.send({ sql: 'BAD statement' });
    batch.send({ sql: 'SELECT 2' });
    await expect(batch.run(manager)).rejects.toThrow('no such table');
    expect(sent).toEqual(['SELECT 1', 'BAD statement']);
    expect(kept).toEqual([]);
  });
});
