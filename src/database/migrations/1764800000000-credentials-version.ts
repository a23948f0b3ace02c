import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The credentials version: one row whose counter moves with every change that can turn accepted
 * credentials away or change what they allow (a password revoked, a role changed, a failed login
 * counted). A process keeps the outcome of credentials it has checked and reuses it while this
 * counter has not moved (`users/credentials-version.ts`).
 */
export class CredentialsVersion1764800000000 implements MigrationInterface {
  name = 'CredentialsVersion1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.driver.options.type === 'better-sqlite3';
    await queryRunner.query(
      sqlite
        ? 'CREATE TABLE "credentials_version" ("id" integer PRIMARY KEY NOT NULL, "version" bigint NOT NULL)'
        : 'CREATE TABLE `credentials_version` (`id` int NOT NULL, `version` bigint NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
    await queryRunner.query(
      sqlite
        ? 'INSERT INTO "credentials_version" ("id", "version") VALUES (1, 1)'
        : 'INSERT INTO `credentials_version` (`id`, `version`) VALUES (1, 1)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      queryRunner.connection.driver.options.type === 'better-sqlite3'
        ? 'DROP TABLE "credentials_version"'
        : 'DROP TABLE `credentials_version`',
    );
  }
}
