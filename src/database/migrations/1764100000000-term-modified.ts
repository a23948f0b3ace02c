import type { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['categories', 'tags'];

/**
 * The last change of a term (`modified_after`/`modified_before` of the term lists). Terms written
 * before it have no known time: they take the time of the migration.
 */
export class TermModified1764100000000 implements MigrationInterface {
  name = 'TermModified1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.driver.options.type === 'better-sqlite3';
    for (const table of TABLES) {
      if (sqlite) {
        await queryRunner.query(`ALTER TABLE "${table}" ADD COLUMN "modified_utc" datetime`);
        // the text form TypeORM writes for a datetime on SQLite
        await queryRunner.query(`UPDATE "${table}" SET "modified_utc" = strftime('%Y-%m-%d %H:%M:%S.000', 'now')`);
      } else {
        await queryRunner.query(`ALTER TABLE \`${table}\` ADD \`modified_utc\` datetime NULL`);
        await queryRunner.query(`UPDATE \`${table}\` SET \`modified_utc\` = UTC_TIMESTAMP()`);
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const quote = queryRunner.connection.driver.options.type === 'better-sqlite3' ? '"' : '`';
    for (const table of TABLES) await queryRunner.query(`ALTER TABLE ${quote}${table}${quote} DROP COLUMN ${quote}modified_utc${quote}`);
  }
}
