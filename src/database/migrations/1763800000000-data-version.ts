import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The data version row that writes bump and cached reads check. */
export class DataVersion1763800000000 implements MigrationInterface {
  name = 'DataVersion1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.driver.options.type === 'better-sqlite3';
    await queryRunner.query(
      sqlite
        ? 'CREATE TABLE "data_version" ("id" integer PRIMARY KEY NOT NULL, "version" bigint NOT NULL)'
        : 'CREATE TABLE `data_version` (`id` int NOT NULL, `version` bigint NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
    await queryRunner.query(
      sqlite ? 'INSERT INTO "data_version" ("id", "version") VALUES (1, 1)' : 'INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      queryRunner.connection.driver.options.type === 'better-sqlite3' ? 'DROP TABLE "data_version"' : 'DROP TABLE `data_version`',
    );
  }
}
