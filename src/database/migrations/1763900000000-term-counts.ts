import type { MigrationInterface, QueryRunner } from 'typeorm';

const TAXONOMIES = [
  { table: 'categories', links: 'event_categories', column: 'category_id' },
  { table: 'tags', links: 'event_tags', column: 'tag_id' },
];

/** Stored published-event counts on terms, filled from the existing links. */
export class TermCounts1763900000000 implements MigrationInterface {
  name = 'TermCounts1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.driver.options.type === 'better-sqlite3';
    for (const { table, links, column } of TAXONOMIES) {
      const published = `SELECT COUNT(*) FROM ${links} l JOIN events e ON e.id = l.event_id WHERE l.${column} = ${table}.id AND e.status = 'publish'`;
      if (sqlite) {
        await queryRunner.query(`ALTER TABLE "${table}" ADD COLUMN "published_count" integer NOT NULL DEFAULT (0)`);
        await queryRunner.query(`UPDATE "${table}" SET "published_count" = (${published})`);
      } else {
        await queryRunner.query(`ALTER TABLE \`${table}\` ADD \`published_count\` int NOT NULL DEFAULT 0`);
        await queryRunner.query(
          `UPDATE \`${table}\` t JOIN (SELECT l.${column} AS id, COUNT(*) AS n FROM ${links} l JOIN events e ON e.id = l.event_id WHERE e.status = 'publish' GROUP BY l.${column}) c ON c.id = t.id SET t.published_count = c.n`,
        );
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const quote = queryRunner.connection.driver.options.type === 'better-sqlite3' ? '"' : '`';
    for (const { table } of TAXONOMIES)
      await queryRunner.query(`ALTER TABLE ${quote}${table}${quote} DROP COLUMN ${quote}published_count${quote}`);
  }
}
