import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A second counter on the data version row: the version of the rows an event's answer embeds
 * (venues, organizers, categories, tags, with the terms' counts). Every write moves it, but a write
 * that shows it left those rows alone (`cache/data-version.service.ts`); a process reuses embedded
 * rows it read while it has not moved (`events/embedded-rows-cache.ts`).
 */
export class EmbeddedVersion1764900000000 implements MigrationInterface {
  name = 'EmbeddedVersion1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'better-sqlite3') {
      // SQLite adds a NOT NULL column only with a default: the table is made again without one, as TypeORM does
      await queryRunner.query(
        'CREATE TABLE "temporary_data_version" ("id" integer PRIMARY KEY NOT NULL, "version" bigint NOT NULL, "embedded_version" bigint NOT NULL)',
      );
      await queryRunner.query(
        'INSERT INTO "temporary_data_version" ("id", "version", "embedded_version") SELECT "id", "version", 1 FROM "data_version"',
      );
      await queryRunner.query('DROP TABLE "data_version"');
      await queryRunner.query('ALTER TABLE "temporary_data_version" RENAME TO "data_version"');
      return;
    }
    await queryRunner.query('ALTER TABLE `data_version` ADD `embedded_version` bigint NOT NULL DEFAULT 1');
    await queryRunner.query('ALTER TABLE `data_version` ALTER `embedded_version` DROP DEFAULT');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'better-sqlite3') {
      await queryRunner.query('CREATE TABLE "temporary_data_version" ("id" integer PRIMARY KEY NOT NULL, "version" bigint NOT NULL)');
      await queryRunner.query('INSERT INTO "temporary_data_version" ("id", "version") SELECT "id", "version" FROM "data_version"');
      await queryRunner.query('DROP TABLE "data_version"');
      await queryRunner.query('ALTER TABLE "temporary_data_version" RENAME TO "data_version"');
      return;
    }
    await queryRunner.query('ALTER TABLE `data_version` DROP COLUMN `embedded_version`');
  }
}
