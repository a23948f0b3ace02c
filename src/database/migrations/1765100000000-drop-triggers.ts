import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The triggers an earlier version of `LinksInEventRow1765000000000` made, by name. */
const TRIGGERS = [
  ...['event_organizers', 'event_categories', 'event_tags'].flatMap((table) =>
    ['insert', 'update', 'delete'].map((when) => `${table}_row_${when}`),
  ),
  ...['organizers', 'categories', 'tags'].map((table) => `${table}_links_delete`),
  ...['insert', 'update', 'delete'].map((when) => `webhook_subscriptions_active_${when}`),
];

/** The columns those triggers kept, by table. */
const COPIED_COLUMNS: ReadonlyArray<[table: string, column: string]> = [
  ['events', 'organizer_links'],
  ['events', 'category_links'],
  ['events', 'tag_links'],
  ['data_version', 'active_webhooks'],
];

/**
 * Removes the triggers and the columns they kept from a database that ran the earlier
 * `LinksInEventRow1765000000000`: the application reads the links from the link tables and counts
 * active webhook subscriptions itself. Nothing to do on a database that never had them, so a fresh
 * one needs no privilege beyond the usual. Triggers first, then their columns: a run stopped part
 * way (a refused `DROP TRIGGER`) leaves triggers and columns that still agree, and is taken up
 * again where it stopped.
 */
export class DropTriggers1765100000000 implements MigrationInterface {
  name = 'DropTriggers1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const present: Array<[string, string]> = [];
    for (const [table, column] of COPIED_COLUMNS) if (await queryRunner.hasColumn(table, column)) present.push([table, column]);
    if (present.length === 0) return;
    const sqlite = queryRunner.connection.driver.options.type === 'better-sqlite3';
    const q = (name: string) => (sqlite ? `"${name}"` : `\`${name}\``);
    for (const name of TRIGGERS) await queryRunner.query(`DROP TRIGGER IF EXISTS ${q(name)}`).catch(explainRefusal);
    for (const [table, column] of present) await queryRunner.query(`ALTER TABLE ${q(table)} DROP COLUMN ${q(column)}`);
  }

  async down(): Promise<void> {
    // the triggers and their columns are not made again
  }
}

/** MySQL's refusal to drop a trigger: the migrating user lacks the `TRIGGER` privilege. */
function explainRefusal(error: unknown): never {
  const errno = (error as { driverError?: { errno?: number }; errno?: number }).driverError?.errno ?? (error as { errno?: number }).errno;
  if (errno === 1142 || errno === 1227)
    throw new Error(
      `The migration DropTriggers removes the triggers an earlier version made, and the database refused: ${(error as Error).message}. ` +
        'Run it once as the user that made them, or grant the migrating user the TRIGGER privilege (docs/OPERATIONS.md, "Triggers").',
    );
  throw error;
}
