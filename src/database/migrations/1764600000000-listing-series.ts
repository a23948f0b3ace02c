import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The listing index also carries `series_id`, so that `collapse=series` reads both of its parts
 * (single events in date order, and each series' first occurrence) from the index alone. Rebuilding
 * it takes a few seconds per million events.
 */
export class ListingSeries1764600000000 implements MigrationInterface {
  name = 'ListingSeries1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.listingIndex(queryRunner, ['status', 'hide_from_listings', 'start_local', 'id', 'end_local', 'series_id']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.listingIndex(queryRunner, ['status', 'hide_from_listings', 'start_local', 'id', 'end_local']);
  }

  private async listingIndex(queryRunner: QueryRunner, columns: string[]): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'better-sqlite3') {
      await queryRunner.query('DROP INDEX "IDX_events_listing"');
      await queryRunner.query(`CREATE INDEX "IDX_events_listing" ON "events" (${columns.map((column) => `"${column}"`).join(', ')})`);
    } else {
      await queryRunner.query(
        `ALTER TABLE \`events\` DROP INDEX \`IDX_events_listing\`, ADD INDEX \`IDX_events_listing\` (${columns.map((column) => `\`${column}\``).join(', ')})`,
      );
    }
  }
}
