import type { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { hasRowLocks } from './for-update.js';
import { idChunks } from './id-chunks.js';
import { checkedId } from './row-id.js';

/** The statement that reads whole rows of one entity by id, how its rows become entities, and the names an update by id needs. */
interface RowsStatement {
  metadata: EntityMetadata;
  /** `SELECT <every selected column> FROM <table> WHERE <id> IN (` */
  head: string;
  /** The table's and the primary column's names, escaped. */
  table: string;
  primary: string;
  /** Appended to a locking read on drivers with row locks. */
  lock: string;
  columns: Array<{ name: string; column: ColumnMetadata }>;
}

const statements = new WeakMap<DataSource, Map<EntityTarget<ObjectLiteral>, RowsStatement>>();

/** The statement of `target` on this data source, made once from TypeORM's metadata of the entity. */
function statementOf(manager: EntityManager, target: EntityTarget<ObjectLiteral>): RowsStatement {
  const dataSource = manager.connection;
  let ofSource = statements.get(dataSource);
  if (!ofSource) statements.set(dataSource, (ofSource = new Map<EntityTarget<ObjectLiteral>, RowsStatement>()));
  let statement = ofSource.get(target);
  if (statement) return statement;
  const metadata = dataSource.getMetadata(target);
  const [primary, ...others] = metadata.primaryColumns;
  if (!primary || others.length > 0) throw new TypeError(`${metadata.name} has no single primary column`);
  const driver = dataSource.driver;
  const columns = metadata.columns
    .filter((column) => column.isSelect && !column.isVirtual && !column.isVirtualProperty)
    .map((column) => ({ name: column.databaseName, column }));
  const list = columns.map(({ name }) => driver.escape(name)).join(', ');
  const table = driver.escape(metadata.tableName);
  const primaryName = driver.escape(primary.databaseName);
  statement = {
    metadata,
    table,
    primary: primaryName,
    head: `SELECT ${list} FROM ${table} WHERE ${primaryName} IN (`,
    lock: hasRowLocks(driver.options) ? ' FOR UPDATE' : '',
    columns,
  };
  ofSource.set(target, statement);
  return statement;
}

/**
 * Rows of `target` whose id is one of `ids`, as entities, in no particular order; one statement per
 * chunk of ids, none for no ids. The same entities as `manager.find(target, { where: { id: In(ids) } })`
 * gives — every selected column, hydrated by the driver with the columns' transformers — from a
 * statement made once per entity instead of built by the query builder on every call: the reads by
 * id that every write and answer makes. With `lock`, a locking read inside the caller's transaction
 * (`FOR UPDATE` on MySQL/MariaDB; SQLite has one writer at a time and no row locks).
 */
export async function rowsById<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  ids: readonly number[],
  lock = false,
): Promise<T[]> {
  if (ids.length === 0) return [];
  const statement = statementOf(manager, target);
  const driver = manager.connection.driver;
  const found: T[] = [];
  for (const chunk of idChunks(ids as number[])) {
    const list = chunk.map(checkedId).join(', ');
    const rows = await manager.query<Array<Record<string, unknown>>>(`${statement.head}${list})${lock ? statement.lock : ''}`);
    for (const row of rows) {
      const entity = statement.metadata.create(manager.queryRunner, { fromDeserializer: true }) as T;
      for (const { name, column } of statement.columns) {
        const value = row[name];
        if (value !== undefined) column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
      }
      found.push(entity);
    }
  }
  return found;
}

/** The row of `target` with this id, as {@link rowsById} reads it; null when there is none. */
export async function rowById<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  id: number,
  lock = false,
): Promise<T | null> {
  const [row] = await rowsById(manager, target, [id], lock);
  return row ?? null;
}

/**
 * Writes `changed` (entity properties and their new values) to the row of `target` with this id, in
 * one `UPDATE` written out from the entity's metadata, each value prepared by the driver as TypeORM
 * prepares it (the columns' transformers, then the column type): the statement
 * `manager.update(target, { id }, changed)` sends, without the query builder. No statement when
 * nothing changed.
 */
export async function updateById<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  id: number,
  changed: Partial<T>,
): Promise<void> {
  const statement = statementOf(manager, target);
  const { names, values } = columnValues(manager, statement, changed);
  if (names.length === 0) return;
  const assignments = names.map((name) => `${name} = ?`).join(', ');
  await manager.query(`UPDATE ${statement.table} SET ${assignments} WHERE ${statement.primary} = ?`, [...values, checkedId(id)]);
}

/**
 * Inserts one row of `target` (entity properties and their values; the generated primary key left
 * to the database) in one `INSERT` written out from the entity's metadata, each value prepared by the
 * driver as TypeORM prepares it; answers the generated key: what `manager.insert(target, row)` sends
 * and answers for one row, without the query builder.
 */
export async function insertRow<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  row: Partial<T>,
): Promise<number> {
  const statement = statementOf(manager, target);
  const { names, values } = columnValues(manager, statement, row);
  const result: unknown = await manager.query(
    `INSERT INTO ${statement.table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    values,
  );
  // MySQL/MariaDB answer the statement's result (`insertId`); SQLite the last row id
  const id = typeof result === 'object' && result !== null && 'insertId' in result ? result.insertId : result;
  if (typeof id !== 'number' && typeof id !== 'bigint') throw new TypeError(`${statement.metadata.name}: no generated id`);
  return Number(id);
}

/** The escaped column names of `properties` (entity properties and values), and each value prepared by the driver for its column. */
function columnValues(manager: EntityManager, statement: RowsStatement, properties: ObjectLiteral): { names: string[]; values: unknown[] } {
  const driver = manager.connection.driver;
  const names: string[] = [];
  const values: unknown[] = [];
  for (const [property, value] of Object.entries(properties)) {
    const column = statement.metadata.findColumnWithPropertyPath(property);
    if (!column || column.isVirtual) throw new TypeError(`${statement.metadata.name} has no column ${property}`);
    names.push(driver.escape(column.databaseName));
    values.push(driver.preparePersistentValue(value, column));
  }
  return { names, values };
}
