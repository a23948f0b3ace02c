import type { DataSource } from 'typeorm';
import { moveTermCounts, NO_CONTRIBUTION, type TermContribution } from '../../events/event-term-counts.js';
import { seedDate, seededEvent, seededLinkedItem, seededTerm, type SeedLinks } from './seed-records.js';
import { allocateIds, insertRows } from './seed-statements.js';
import { seedTranslations } from './seed-translations.js';

/** How much to create; proportions follow a real calendar (many events, fewer places and people). */
export interface SeedPlan {
  events: number;
  runId: string;
  batchSize: number;
  authorId: number;
  /** Languages every record of the run is translated into (issue 48); none unless given. */
  translations?: readonly string[];
}

export interface SeedProgress {
  start(total: number, done: number): void;
  update(done: number): void;
  stop(): void;
}

/**
 * Bulk seeding for benchmarks and demos: batches of multi-row inserts, each batch in a transaction.
 * Records are named after the run id, so running again with the same id only adds what is missing.
 */
export class Seeder {
  constructor(
    private readonly dataSource: DataSource,
    private readonly progress: SeedProgress,
  ) {}

  async run(plan: SeedPlan): Promise<{ created: number; total: number; translated: number }> {
    const venueCount = Math.max(5, Math.ceil(plan.events / 50));
    const organizerCount = Math.max(5, Math.ceil(plan.events / 40));
    const links: SeedLinks = {
      authorId: plan.authorId,
      categories: await this.ensureTerms(plan, 'categories', 'category', 20),
      tags: await this.ensureTerms(plan, 'tags', 'tag', 40),
      venues: await this.ensureItems(plan, 'venues', 'venue', venueCount),
      organizers: await this.ensureItems(plan, 'organizers', 'organizer', organizerCount),
    };

    const existing = await this.countWithPrefix('events', `${this.prefix(plan)}e`);
    this.progress.start(plan.events, Math.min(existing, plan.events));
    const now = Date.now();
    for (let first = existing; first < plan.events; first += plan.batchSize) {
      const count = Math.min(plan.batchSize, plan.events - first);
      await this.dataSource.transaction(async (manager) => {
        const ids = await allocateIds(manager, 'item_ids', { kind: 'event' }, count);
        const events: Record<string, unknown>[] = [];
        const eventCategories: Record<string, unknown>[] = [];
        const eventTags: Record<string, unknown>[] = [];
        const eventOrganizers: Record<string, unknown>[] = [];
        /** What the batch's published events add to term counts. */
        const published: TermContribution = new Map([
          ['categories', new Map<number, number>()],
          ['tags', new Map<number, number>()],
        ]);
        const addLink = (table: string, termId: number) => {
          const counts = published.get(table) as Map<number, number>;
          counts.set(termId, (counts.get(termId) ?? 0) + 1);
        };
        ids.forEach((id, offset) => {
          const index = first + offset;
          const event = seededEvent(plan.runId, `${this.prefix(plan)}e${index}`, index, id, now, links);
          const isPublished = event.row.status === 'publish';
          events.push(event.row);
          for (const categoryId of event.categories) {
            eventCategories.push({ event_id: id, category_id: categoryId });
            if (isPublished) addLink('categories', categoryId);
          }
          for (const tagId of event.tags) {
            eventTags.push({ event_id: id, tag_id: tagId });
            if (isPublished) addLink('tags', tagId);
          }
          event.organizers.forEach((organizerId, position) => eventOrganizers.push({ event_id: id, organizer_id: organizerId, position }));
        });
        await insertRows(manager, 'events', events);
        await insertRows(manager, 'event_categories', eventCategories);
        await insertRows(manager, 'event_tags', eventTags);
        await insertRows(manager, 'event_organizers', eventOrganizers);
        await moveTermCounts(manager, NO_CONTRIBUTION, published);
      });
      this.progress.update(first + count);
    }
    this.progress.stop();
    const translated = plan.translations?.length ? await seedTranslations(this.dataSource, this.prefix(plan), plan.translations) : 0;
    return { created: Math.max(0, plan.events - existing), total: plan.events, translated };
  }

  private prefix(plan: SeedPlan): string {
    return `seed-${plan.runId}-`;
  }

  private async countWithPrefix(table: string, prefix: string): Promise<number> {
    const [row]: Array<{ n: number | string }> = await this.dataSource.query(`SELECT COUNT(*) AS n FROM ${table} WHERE slug LIKE ?`, [
      `${prefix}%`,
    ]);
    return Number(row.n);
  }

  private async idsWithPrefix(table: string, prefix: string): Promise<number[]> {
    const found: Array<{ id: number }> = await this.dataSource.query(`SELECT id FROM ${table} WHERE slug LIKE ? ORDER BY id`, [
      `${prefix}%`,
    ]);
    return found.map((row) => Number(row.id));
  }

  private async ensureItems(plan: SeedPlan, table: 'venues' | 'organizers', kind: string, count: number): Promise<number[]> {
    const prefix = `${this.prefix(plan)}${kind[0]}`;
    const existing = await this.countWithPrefix(table, prefix);
    if (existing < count) {
      await this.dataSource.transaction(async (manager) => {
        const ids = await allocateIds(manager, 'item_ids', { kind }, count - existing);
        const now = seedDate(Date.now());
        const rows = ids.map((id, offset) =>
          seededLinkedItem(table, kind, `${prefix}${existing + offset}`, existing + offset, id, plan.authorId, now),
        );
        for (let at = 0; at < rows.length; at += plan.batchSize) await insertRows(manager, table, rows.slice(at, at + plan.batchSize));
      });
    }
    return this.idsWithPrefix(table, prefix);
  }

  private async ensureTerms(plan: SeedPlan, table: 'categories' | 'tags', taxonomy: string, count: number): Promise<number[]> {
    const prefix = `${this.prefix(plan)}${taxonomy[0]}`;
    const existing = await this.countWithPrefix(table, prefix);
    if (existing < count) {
      await this.dataSource.transaction(async (manager) => {
        const ids = await allocateIds(manager, 'term_ids', { taxonomy }, count - existing);
        const rows = ids.map((id, offset) =>
          seededTerm(table, taxonomy, plan.runId, `${prefix}${existing + offset}`, existing + offset, id),
        );
        await insertRows(manager, table, rows);
      });
    }
    return this.idsWithPrefix(table, prefix);
  }
}
