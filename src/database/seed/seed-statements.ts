import type { EntityManager } from 'typeorm';

/** Plain multi-row INSERT with column names as given (the query builder would expect entity properties). */
export async function insertRows(manager: EntityManager, table: string, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const driver = manager.connection.driver;
  const sqlite = driver.options.type === 'better-sqlite3';
  const columns = Object.keys(rows[0]);
  const value = (input: unknown) => {
    if (typeof input === 'boolean') return input ? 1 : 0;
    if (input instanceof Date && sqlite) return input.toISOString().replace('T', ' ').slice(0, 23);
    return input;
  };
  // SQLite allows at most 32766 bound values per statement.
  const perStatement = Math.max(1, Math.floor(30000 / columns.length));
  const head = `INSERT INTO ${driver.escape(table)} (${columns.map((column) => driver.escape(column)).join(', ')}) VALUES `;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (let at = 0; at < rows.length; at += perStatement) {
    const chunk = rows.slice(at, at + perStatement);
    await manager.query(
      head + chunk.map(() => tuple).join(', '),
      chunk.flatMap((row) => columns.map((column) => value(row[column]))),
    );
  }
}

/**
 * Ids for new records from a shared sequence (`item_ids` with their kind, `term_ids` with their
 * taxonomy), inserted explicitly in one statement.
 */
export async function allocateIds(
  manager: EntityManager,
  sequence: 'item_ids' | 'term_ids',
  label: { kind: string } | { taxonomy: string },
  count: number,
): Promise<number[]> {
  const [row]: Array<{ id: number | string }> = await manager.query(`SELECT COALESCE(MAX(id), 0) AS id FROM ${sequence}`);
  const first = Number(row.id) + 1;
  const ids = Array.from({ length: count }, (_, index) => first + index);
  await insertRows(
    manager,
    sequence,
    ids.map((id) => ({ id, ...label })),
  );
  return ids;
}
