import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The two listing indexes this migration adds: the listing's own columns with the filter's column before the dates. */
const INDEXES: Array<[name: string, columns: string[]]> = [
  // `featured=true`: the count and the page read the featured events of the window from the index alone
  ['IDX_events_featured', ['status', 'hide_from_listings', 'featured', 'start_local', 'id', 'end_local']],
  // `modified_after` / `modified_before` (a client syncing what changed): a range of modification times
  // whose window check needs no row
  ['IDX_events_modified', ['status', 'hide_from_listings', 'modified_utc', 'start_local', 'end_local']],
];

/**
 * Indexes for the list filters that read every event of the window without them: on a calendar of
 * a million events `featured=true` and `modified_after` ran past the statement time limit (503);
 * with them they answer in tens to hundreds of milliseconds. Building both took 3.5 s at a million
 * events (MariaDB builds them without blocking writes).
 */
export class ListingFilters1764700000000 implements MigrationInterface {
  name = 'ListingFilters1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'better-sqlite3') {
      for (const [name, columns] of INDEXES)
        await queryRunner.query(`CREATE INDEX "${name}" ON "events" (${columns.map((column) => `"${column}"`).join(', ')})`);
      return;
    }
    const adds = INDEXES.map(([name, columns]) => `ADD INDEX \`${name}\` (${columns.map((column) => `\`${column}\``).join(', ')})`);
    await queryRunner.query(`ALTER TABLE \`events\` ${adds.join(', ')}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'better-sqlite3') {
      for (const [name] of INDEXES) await queryRunner.query(`DROP INDEX "${name}"`);
      return;
    }
    await queryRunner.query(`ALTER TABLE \`events\` ${INDEXES.map(([name]) => `DROP INDEX \`${name}\``).join(', ')}`);
  }
}
