import type { MigrationInterface, QueryRunner } from 'typeorm';

const MYSQL = [
  'CREATE TABLE `event_notes` (`id` int NOT NULL AUTO_INCREMENT, `event_id` int NOT NULL, `author_id` int NOT NULL, `body` text NOT NULL, `created_utc` datetime NOT NULL, INDEX `IDX_event_notes_event` (`event_id`, `id`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
  'ALTER TABLE `event_notes` ADD CONSTRAINT `FK_event_notes_event` FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON DELETE CASCADE ON UPDATE NO ACTION',
];

const SQLITE = [
  'CREATE TABLE "event_notes" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "event_id" integer NOT NULL, "author_id" integer NOT NULL, "body" text NOT NULL, "created_utc" datetime NOT NULL, CONSTRAINT "FK_event_notes_event" FOREIGN KEY ("event_id") REFERENCES "events" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
  'CREATE INDEX "IDX_event_notes_event" ON "event_notes" ("event_id", "id")',
];

/** The table of the event-notes example; it runs after the core's migrations (later timestamp). */
export class EventNotes1795400000000 implements MigrationInterface {
  name = 'EventNotes1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.driver.options.type === 'better-sqlite3';
    for (const statement of sqlite ? SQLITE : MYSQL) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.driver.options.type === 'better-sqlite3';
    await queryRunner.query(sqlite ? 'DROP TABLE "event_notes"' : 'DROP TABLE `event_notes`');
  }
}
