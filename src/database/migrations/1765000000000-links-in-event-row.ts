import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event's organizer, category and tag links, also kept in its own row, and the number of active
 * webhook subscriptions, kept in the data version row, both by the database's own triggers, so that
 * every writer of the link tables and of the subscriptions (the API, the importer, series
 * generation, the seeder, a foreign-key cascade, a hand-written statement) keeps them right:
 *
 * - `events.organizer_links`: `<organizer id>:<position>` of each link, comma-separated;
 *   `events.category_links`, `events.tag_links`: the term ids, comma-separated; NULL for none. The
 *   order is unspecified (readers sort). Each is worked out again from its link table whenever a
 *   row of that table is inserted, updated or deleted. Deleting an organizer, a category or a tag
 *   first deletes its links (before the foreign key's cascade, which MySQL and MariaDB run without triggers).
 * - `data_version.active_webhooks`: moved by one when a subscription becomes or stops being active,
 *   under the data version row's lock, so that concurrent changes add up.
 *
 * A single-event write reads them with the rows it locks and reads already (docs/PERFORMANCE.md),
 * instead of three link tables and the subscriptions. The triggers are made before the columns are
 * filled, so that a link written meanwhile is not missed.
 */
export class LinksInEventRow1765000000000 implements MigrationInterface {
  name = 'LinksInEventRow1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = isSqlite(queryRunner);
    const q = quoter(sqlite);
    // MySQL and MariaDB commit each change of the schema: a run stopped part way (a trigger refused)
    // is taken up again where it stopped
    for (const column of LINK_COLUMNS)
      if (!(await queryRunner.hasColumn('events', column.column)))
        await queryRunner.query(`ALTER TABLE ${q('events')} ADD ${sqlite ? 'COLUMN ' : ''}${q(column.column)} text NULL`);
    if (!(await queryRunner.hasColumn('data_version', 'active_webhooks')))
      await queryRunner.query(
        sqlite
          ? 'ALTER TABLE "data_version" ADD COLUMN "active_webhooks" integer NOT NULL DEFAULT (0)'
          : 'ALTER TABLE `data_version` ADD `active_webhooks` int NOT NULL DEFAULT 0',
      );
    for (const { name } of triggers(sqlite)) await queryRunner.query(`DROP TRIGGER IF EXISTS ${q(name)}`).catch(explainRefusal);
    for (const { sql } of triggers(sqlite)) await queryRunner.query(sql).catch(explainRefusal);
    for (const column of LINK_COLUMNS)
      await queryRunner.query(`UPDATE ${q('events')} SET ${q(column.column)} = ${linksOf(sqlite, column, `${q('events')}.${q('id')}`)}`);
    await queryRunner.query(
      `UPDATE ${q('data_version')} SET ${q('active_webhooks')} = (SELECT COUNT(*) FROM ${q('webhook_subscriptions')} WHERE ${q('active')} <> 0) WHERE ${q('id')} = 1`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const sqlite = isSqlite(queryRunner);
    const q = quoter(sqlite);
    for (const { name } of triggers(sqlite)) await queryRunner.query(`DROP TRIGGER IF EXISTS ${q(name)}`);
    for (const column of LINK_COLUMNS) await queryRunner.query(`ALTER TABLE ${q('events')} DROP COLUMN ${q(column.column)}`);
    await queryRunner.query(`ALTER TABLE ${q('data_version')} DROP COLUMN ${q('active_webhooks')}`);
  }
}

/** MySQL's and MariaDB's refusals to make a trigger: the privilege is missing, or binary logging wants `SUPER`. */
const TRIGGER_REFUSALS = new Set([1142, 1419, 1227]);

function explainRefusal(error: unknown): never {
  const errno = (error as { driverError?: { errno?: number }; errno?: number }).driverError?.errno ?? (error as { errno?: number }).errno;
  if (errno !== undefined && TRIGGER_REFUSALS.has(errno))
    throw new Error(
      `The migration LinksInEventRow makes triggers, and the database refused: ${(error as Error).message}. ` +
        'Grant the migrating user the TRIGGER privilege on the database and, with binary logging on, ' +
        'start the server with log_bin_trust_function_creators = ON (docs/OPERATIONS.md, "Triggers").',
    );
  throw error;
}

interface LinkColumn {
  /** The column of `events`. */
  column: string;
  /** The link table, its term column and what else a link holds (the organizers' position). */
  table: string;
  term: string;
  position?: string;
  /** The table of the linked rows. */
  terms: string;
}

const LINK_COLUMNS: readonly LinkColumn[] = [
  { column: 'organizer_links', table: 'event_organizers', term: 'organizer_id', position: 'position', terms: 'organizers' },
  { column: 'category_links', table: 'event_categories', term: 'category_id', terms: 'categories' },
  { column: 'tag_links', table: 'event_tags', term: 'tag_id', terms: 'tags' },
];

function isSqlite(queryRunner: QueryRunner): boolean {
  return queryRunner.connection.driver.options.type === 'better-sqlite3';
}

/** A name quoted for SQLite or for MySQL/MariaDB. */
function quoter(sqlite: boolean): (name: string) => string {
  return (name) => (sqlite ? `"${name}"` : `\`${name}\``);
}

/** The value of `column` for the event whose id is `eventId` (an SQL expression), read from its link table. */
function linksOf(sqlite: boolean, column: LinkColumn, eventId: string): string {
  const q = quoter(sqlite);
  const item = column.position
    ? sqlite
      ? `${q(column.term)} || ':' || ${q(column.position)}`
      : `${q(column.term)}, ':', ${q(column.position)}`
    : q(column.term);
  return `(SELECT ${sqlite ? 'group_concat' : 'GROUP_CONCAT'}(${item}) FROM ${q(column.table)} WHERE ${q('event_id')} = ${eventId})`;
}

/** The triggers, by name, as made for SQLite or for MySQL/MariaDB. */
function triggers(sqlite: boolean): Array<{ name: string; sql: string }> {
  const q = quoter(sqlite);
  // a trigger's one statement: SQLite wants it in BEGIN … END, MySQL and MariaDB take it as it is
  const trigger = (name: string, when: string, table: string, statement: string) => ({
    name,
    sql: `CREATE TRIGGER ${q(name)} ${when} ON ${q(table)} FOR EACH ROW ${sqlite ? `BEGIN ${statement}; END` : statement}`,
  });
  const made: Array<{ name: string; sql: string }> = [];
  for (const column of LINK_COLUMNS) {
    // the column of the events a changed link concerns (both, when an update moved it to another event)
    const refresh = (...rows: Array<'NEW' | 'OLD'>) =>
      `UPDATE ${q('events')} SET ${q(column.column)} = ${linksOf(sqlite, column, `${q('events')}.${q('id')}`)} WHERE ${q('id')} IN (${rows.map((row) => `${row}.${q('event_id')}`).join(', ')})`;
    made.push(
      trigger(`${column.table}_row_insert`, 'AFTER INSERT', column.table, refresh('NEW')),
      trigger(`${column.table}_row_update`, 'AFTER UPDATE', column.table, refresh('OLD', 'NEW')),
      trigger(`${column.table}_row_delete`, 'AFTER DELETE', column.table, refresh('OLD')),
      // foreign-key cascades fire no trigger on MySQL and MariaDB: the links go first, through the link table's own
      trigger(
        `${column.terms}_links_delete`,
        'BEFORE DELETE',
        column.terms,
        `DELETE FROM ${q(column.table)} WHERE ${q(column.term)} = OLD.${q('id')}`,
      ),
    );
  }
  const move = (by: string, condition = '') =>
    `UPDATE ${q('data_version')} SET ${q('active_webhooks')} = ${q('active_webhooks')} ${by} WHERE ${q('id')} = 1${condition}`;
  const active = (row: 'NEW' | 'OLD') => `(${row}.${q('active')} <> 0)`;
  made.push(
    trigger('webhook_subscriptions_active_insert', 'AFTER INSERT', 'webhook_subscriptions', move(`+ ${active('NEW')}`)),
    trigger(
      'webhook_subscriptions_active_update',
      'AFTER UPDATE',
      'webhook_subscriptions',
      move(`+ ${active('NEW')} - ${active('OLD')}`, ` AND ${active('NEW')} <> ${active('OLD')}`),
    ),
    trigger('webhook_subscriptions_active_delete', 'AFTER DELETE', 'webhook_subscriptions', move(`- ${active('OLD')}`)),
  );
  return made;
}
