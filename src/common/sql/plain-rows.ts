import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { idChunks } from './id-chunks.js';
import { isRowId } from './row-id.js';
import type { Statement, StatementRead } from './together.js';

/**
 * Inserts and simple reads of whole rows without TypeORM's query builder, for the hot paths of
 * writes and single reads (docs/PERFORMANCE.md). The statements are worked out once per entity and
 * set of columns; values go through the driver's own conversions and the columns' transformers,
 * both ways, so a row written or read here is stored and hydrated exactly as `insert` and `find`
 * would store and hydrate it. No relations, no embedded columns: plain columns only.
 */
interface Shape {
  metadata: EntityMetadata;
  table: string;
  /** Every stored column, in the entity's order. */
  columns: ColumnMetadata[];
  /** `SELECT <every column> FROM <table>` */
  select: string;
  inserts: Map<string, string>;
  /** An entity with `values` as its columns, in {@link columns}' order ({@link entityMaker}). */
  make: (values: unknown[]) => ObjectLiteral;
}

const shapes = new WeakMap<EntityMetadata, Shape>();

function shapeOf(manager: EntityManager, target: EntityTarget<ObjectLiteral>): Shape {
  const metadata = manager.connection.getMetadata(target);
  let shape = shapes.get(metadata);
  if (!shape) {
    const driver = manager.connection.driver;
    const columns = metadata.columns.filter((column) => !column.isVirtual && column.isSelect && !column.embeddedMetadata);
    const table = driver.escape(metadata.tableName);
    shape = {
      metadata,
      table,
      columns,
      select: `SELECT ${columns.map((column) => driver.escape(column.databaseName)).join(', ')} FROM ${table}`,
      inserts: new Map(),
      make: entityMaker(metadata, columns),
    };
    shapes.set(metadata, shape);
  }
  return shape;
}

/**
 * Makes entities with every column set, as `ColumnMetadata.setEntityValue` sets a plain column
 * (`entity[propertyName] = value`), but by a store of a fixed name each, in a function made once per
 * entity: V8 then keeps the entities as fast objects that share one hidden class. Set by a computed
 * name each, an entity of more than about a dozen columns becomes a dictionary, slower to read and
 * several times slower to copy (docs/PERFORMANCE.md). The names are the entity's own property names,
 * written as string literals.
 */
function entityMaker(metadata: EntityMetadata, columns: ColumnMetadata[]): (values: unknown[]) => ObjectLiteral {
  const stores = columns.map((column, index) => `entity[${JSON.stringify(column.propertyName)}] = values[${index}];`).join('\n');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- code made from the entity's metadata only
  const fill = new Function('entity', 'values', stores) as (entity: ObjectLiteral, values: unknown[]) => void;
  return (values) => {
    const entity = metadata.create() as ObjectLiteral;
    fill(entity, values);
    return entity;
  };
}

/**
 * The statement that inserts rows (see {@link insertRows}), to send with others (`runTogether`);
 * null for no rows.
 */
export function insertStatement<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  rows: Partial<T>[],
): Statement | null {
  if (rows.length === 0) return null;
  const shape = shapeOf(manager, target);
  const driver = manager.connection.driver;
  const columns = shape.columns.filter((column) => column.getEntityValue(rows[0]) !== undefined);
  const key = `${rows.length}:${columns.map((column) => column.databaseName).join(',')}`;
  let sql = shape.inserts.get(key);
  if (sql === undefined) {
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    sql = `INSERT INTO ${shape.table} (${columns.map((column) => driver.escape(column.databaseName)).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`;
    if (shape.inserts.size < 64) shape.inserts.set(key, sql);
  }
  const parameters: unknown[] = [];
  for (const row of rows) for (const column of columns) parameters.push(driver.preparePersistentValue(column.getEntityValue(row), column));
  return { sql, parameters };
}

/**
 * Inserts rows in one statement. Each row sets the columns it defines (the first row decides which:
 * every row must define the same ones); a column left undefined takes its default in the database.
 */
export async function insertRows<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  rows: Partial<T>[],
): Promise<unknown> {
  const statement = insertStatement(manager, target, rows);
  return statement ? manager.query(statement.sql, statement.parameters) : undefined;
}

/**
 * {@link insertRows} into a table numbered by the database (auto-increment id), answering the ids
 * the rows got, in order (see {@link numberedIds}).
 */
export async function insertNumberedRows<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  rows: Partial<T>[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  return numberedIds(manager, target, rows.length, await insertRows(manager, target, rows));
}

/**
 * The ids a statement inserting `count` rows into a table numbered by the database got, in order,
 * from its result: a statement of known length is numbered in one go, so the ids follow the first
 * one (MySQL/MariaDB answer it) or end at the last one (SQLite answers that).
 */
export function numberedIds(manager: EntityManager, target: EntityTarget<ObjectLiteral>, count: number, result: unknown): number[] {
  const first =
    manager.connection.driver.options.type === 'better-sqlite3'
      ? Number(result) - count + 1
      : Number((result as { insertId: number | string }).insertId);
  if (!isRowId(first)) throw new Error(`No id for the rows inserted into ${shapeOf(manager, target).table}`);
  return Array.from({ length: count }, (_, index) => first + index);
}

/**
 * A statement that lists which of `ids` are rows of `target` (and meet `condition`, SQL over its
 * columns, when given), each row tagged with the number `t`: several joined by `UNION ALL` check
 * rows of many tables in one statement. `ids` must be safe integers.
 */
export function taggedIdsQuery(
  manager: EntityManager,
  target: EntityTarget<ObjectLiteral>,
  t: number,
  ids: number[],
  condition?: string,
): string {
  const list = ids.map((id) => String(Number(id))).join(', ');
  return `SELECT ${Number(t)} AS t, id FROM ${shapeOf(manager, target).table} WHERE id IN (${list})${condition ? ` AND ${condition}` : ''}`;
}

/** Whether `row` sets every stored column of its entity (then it equals what a read of the row written from it gives). */
export function definesEveryColumn<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>, row: Partial<T>): boolean {
  return shapeOf(manager, target).columns.every((column) => column.getEntityValue(row) !== undefined);
}

/** Entities of `target` whose `property` is one of `values` (one statement per chunk of values), in `orderBy`'s order when given. */
export async function findRowsIn<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  property: keyof T & string,
  values: Array<number | string>,
  orderBy?: keyof T & string,
): Promise<T[]> {
  if (values.length === 0) return [];
  const shape = shapeOf(manager, target);
  const driver = manager.connection.driver;
  const where = columnOf(shape, property);
  const order = orderBy === undefined ? '' : ` ORDER BY ${driver.escape(columnOf(shape, orderBy).databaseName)} ASC`;
  const found: T[] = [];
  const chunks = [...idChunks(values as number[])];
  for (const chunk of chunks) {
    const rows: Array<Record<string, unknown>> = await manager.query(
      `${shape.select} WHERE ${driver.escape(where.databaseName)} IN (${chunk.map(() => '?').join(', ')})${order}`,
      chunk,
    );
    for (const row of rows) found.push(hydrate<T>(shape, driver, row));
  }
  if (orderBy !== undefined && chunks.length > 1) {
    const column = columnOf(shape, orderBy);
    found.sort((a, b) => compare(column.getEntityValue(a), column.getEntityValue(b)));
  }
  return found;
}

/**
 * {@link findRowsIn} for at most one chunk of values, as a statement to send with others
 * (`runTogether`) and the reading of its result; null for no values.
 */
export function rowsInQuery<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  property: keyof T & string,
  values: Array<number | string>,
): StatementRead<T[]> | null {
  if (values.length === 0) return null;
  const chunks = [...idChunks(values as number[])];
  if (chunks.length > 1) throw new Error(`rowsInQuery takes one chunk of values, not ${values.length}`);
  const shape = shapeOf(manager, target);
  const driver = manager.connection.driver;
  return {
    statement: {
      sql: `${shape.select} WHERE ${driver.escape(columnOf(shape, property).databaseName)} IN (${values.map(() => '?').join(', ')})`,
      parameters: values,
    },
    read: (result) => (result as Array<Record<string, unknown>>).map((row) => hydrate<T>(shape, driver, row)),
  };
}

/**
 * The row of `target` with this `id`, read inside the caller's transaction as a locking read
 * (`FOR UPDATE` on MySQL/MariaDB: the latest committed row, held until the transaction ends; SQLite
 * has one writer at a time), as a statement to send with others (`runTogether`) and the reading of
 * its result: the entity, or null when there is no such row.
 */
export function lockedRowQuery<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  id: number,
): StatementRead<T | null> {
  const locking = lockedRowWithQuery(manager, target, id, []);
  return { statement: locking.statement, read: (result) => locking.read(result)?.row ?? null };
}

/**
 * {@link lockedRowQuery} reading, besides the entity's columns, the columns `also` names (columns of
 * the table the entity does not select), given as the driver returns them.
 */
export function lockedRowWithQuery<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  id: number,
  also: readonly string[],
): StatementRead<{ row: T; also: Record<string, unknown> } | null> {
  const shape = shapeOf(manager, target);
  const driver = manager.connection.driver;
  const lock = driver.options.type === 'better-sqlite3' ? '' : ' FOR UPDATE';
  const select =
    also.length === 0
      ? shape.select
      : `SELECT ${[...shape.columns.map((column) => column.databaseName), ...also].map((name) => driver.escape(name)).join(', ')} FROM ${shape.table}`;
  return {
    statement: { sql: `${select} WHERE ${driver.escape(columnOf(shape, 'id').databaseName)} = ?${lock}`, parameters: [id] },
    read: (result) => {
      const [row] = result as Array<Record<string, unknown>>;
      return row ? { row: hydrate<T>(shape, driver, row), also: row } : null;
    },
  };
}

/**
 * The statement that writes to the row of `after.id` the stored columns whose values differ between
 * `before` (the row as read) and `after` (the same entity changed), each value as `insert` would
 * store it; null when no column changed.
 */
export function updateStatement<T extends ObjectLiteral & { id: number }>(
  manager: EntityManager,
  target: EntityTarget<T>,
  before: T,
  after: T,
): Statement | null {
  const shape = shapeOf(manager, target);
  const driver = manager.connection.driver;
  const changed = shape.columns.filter((column) => {
    if (column.isPrimary) return false;
    const was: unknown = column.getEntityValue(before) ?? null;
    const is: unknown = column.getEntityValue(after) ?? null;
    // a value the change left as it was (the same one) needs no comparison of its JSON
    return was !== is && JSON.stringify(was) !== JSON.stringify(is);
  });
  if (changed.length === 0) return null;
  return {
    sql: `UPDATE ${shape.table} SET ${changed.map((column) => `${driver.escape(column.databaseName)} = ?`).join(', ')} WHERE ${driver.escape(columnOf(shape, 'id').databaseName)} = ?`,
    parameters: [...changed.map((column): unknown => driver.preparePersistentValue(column.getEntityValue(after), column)), after.id],
  };
}

/**
 * A copy of an entity of `target` read here (every stored column set), with `changes` to its columns
 * over it: what `manager.create(target, { ...row, ...changes })` gives for such a row, without walking
 * the entity's metadata, and made as {@link hydrate} makes rows (a fast object).
 */
export function copyRow<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>, row: T, changes?: Partial<T>): T {
  const shape = shapeOf(manager, target);
  const values = shape.columns.map((column): unknown => row[column.propertyName]);
  const copy = (values.includes(undefined) ? manager.create(target, { ...row }) : shape.make(values)) as T;
  return changes ? Object.assign(copy, changes) : copy;
}

/** Every row of a (small) table, as entities. */
export async function allRows<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>): Promise<T[]> {
  const shape = shapeOf(manager, target);
  const rows: Array<Record<string, unknown>> = await manager.query(shape.select);
  return rows.map((row) => hydrate<T>(shape, manager.connection.driver, row));
}

/** The select list of every stored column of `target` under a table alias, each named `<prefix><column>` (for {@link hydrateRow}). */
export function selectColumns(manager: EntityManager, target: EntityTarget<ObjectLiteral>, alias: string, prefix: string): string {
  const driver = manager.connection.driver;
  return shapeOf(manager, target)
    .columns.map((column) => `${alias}.${driver.escape(column.databaseName)} AS ${driver.escape(prefix + column.databaseName)}`)
    .join(', ');
}

/** The entity of a raw row read with {@link selectColumns}. */
export function hydrateRow<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  row: Record<string, unknown>,
  prefix: string,
): T {
  return hydrate<T>(shapeOf(manager, target), manager.connection.driver, row, prefix);
}

function hydrate<T extends ObjectLiteral>(
  shape: Shape,
  driver: EntityManager['connection']['driver'],
  row: Record<string, unknown>,
  prefix = '',
): T {
  const values: unknown[] = [];
  for (const column of shape.columns) {
    const raw = row[prefix + column.databaseName];
    if (raw === undefined) return hydrateSome<T>(shape, driver, row, prefix);
    values.push(driver.prepareHydratedValue(raw, column));
  }
  return shape.make(values) as T;
}

/** {@link hydrate} for a row that lacks some columns: those stay unset. */
function hydrateSome<T extends ObjectLiteral>(
  shape: Shape,
  driver: EntityManager['connection']['driver'],
  row: Record<string, unknown>,
  prefix: string,
): T {
  const entity = shape.metadata.create() as T;
  for (const column of shape.columns) {
    const raw = row[prefix + column.databaseName];
    if (raw !== undefined) column.setEntityValue(entity, driver.prepareHydratedValue(raw, column));
  }
  return entity;
}

function columnOf(shape: Shape, property: string): ColumnMetadata {
  const column = shape.columns.find((candidate) => candidate.propertyName === property);
  if (!column) throw new Error(`${shape.metadata.name} has no stored column ${property}`);
  return column;
}

function compare(a: unknown, b: unknown): number {
  return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
}
