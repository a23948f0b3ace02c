import type { MigrationInterface } from 'typeorm';

/**
 * Made database triggers once (copies of an event's links in its row, a count of active webhook
 * subscriptions). Triggers need privileges a managed MySQL does not grant by default, so a fresh
 * database gets none: this step does nothing, and `DropTriggers1765100000000` removes what it made
 * from databases that ran it before. Kept under its name so those databases' history still matches.
 */
export class LinksInEventRow1765000000000 implements MigrationInterface {
  name = 'LinksInEventRow1765000000000';

  async up(): Promise<void> {}

  async down(): Promise<void> {}
}
