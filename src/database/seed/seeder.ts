import type { DataSource, EntityManager } from 'typeorm';
import { wallToDate } from '../../common/sql/columns.js';
import { moveTermCounts, NO_CONTRIBUTION, type TermContribution } from '../../events/event-term-counts.js';

/** How much to create; proportions follow a real calendar (many events, fewer places and people). */
export interface SeedPlan {
  events: number;
  runId: string;
  batchSize: number;
  authorId: number;
}

export interface SeedProgress {
  start(total: number, done: number): void;
  update(done: number): void;
  stop(): void;
}

const STATUS_MIX: Array<[string, number]> = [
  ['publish', 0.85],
  ['draft', 0.04],
  ['pending', 0.03],
  ['private', 0.03],
  ['future', 0.03],
  ['trash', 0.02],
];
const WORDS = [
  'Lantern',
  'Harbour',
  'Jazz',
  'Market',
  'Choir',
  'Workshop',
  'Festival',
  'Lecture',
  'Walk',
  'Concert',
  'Gallery',
  'Family',
  'Garden',
  'Film',
  'Dance',
];
const DAY_MS = 86_400_000;

/** Small deterministic generator, so a run id always produces the same data. */
function random(seed: string, index: number): () => number {
  let state = 2166136261;
  for (const char of `${seed}:${index}`) state = Math.imul(state ^ char.charCodeAt(0), 16777619) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function wall(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ');
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

  async run(plan: SeedPlan): Promise<{ created: number; total: number }> {
    const venueCount = Math.max(5, Math.ceil(plan.events / 50));
    const organizerCount = Math.max(5, Math.ceil(plan.events / 40));
    const categories = await this.ensureTerms(plan, 'categories', 'category', 20);
    const tags = await this.ensureTerms(plan, 'tags', 'tag', 40);
    const venues = await this.ensureItems(plan, 'venues', 'venue', venueCount);
    const organizers = await this.ensureItems(plan, 'organizers', 'organizer', organizerCount);

    const existing = await this.countWithPrefix('events', `${this.prefix(plan)}e`);
    this.progress.start(plan.events, Math.min(existing, plan.events));
    const now = Date.now();
    for (let first = existing; first < plan.events; first += plan.batchSize) {
      const count = Math.min(plan.batchSize, plan.events - first);
      await this.dataSource.transaction(async (manager) => {
        const ids = await this.allocate(manager, 'event', count);
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
          const rnd = random(plan.runId, index);
          const start = now - 3 * 365 * DAY_MS + Math.floor(rnd() * 6 * 365 * DAY_MS);
          const startMs = start - (start % 900_000);
          const endMs = startMs + (1 + Math.floor(rnd() * 4)) * 3_600_000;
          let status = 'publish';
          let acc = 0;
          const pick = rnd();
          for (const [candidate, share] of STATUS_MIX) {
            acc += share;
            if (pick < acc) {
              status = candidate;
              break;
            }
          }
          const published = status === 'future' ? now + Math.floor(rnd() * 90) * DAY_MS : startMs - 30 * DAY_MS;
          const slug = `${this.prefix(plan)}e${index}`;
          const title = `${WORDS[index % WORDS.length]} ${WORDS[Math.floor(rnd() * WORDS.length)]} ${index}`;
          events.push({
            id,
            author_id: plan.authorId,
            status,
            pre_trash_status: status === 'trash' ? 'publish' : null,
            slug: status === 'trash' ? `${slug}__trashed` : slug,
            description: `Seeded event ${index} of run ${plan.runId}.`,
            excerpt: '',
            password: null,
            image_id: null,
            date_utc: wallToDate(wall(Math.min(published, now + 365 * DAY_MS))),
            date_floating: false,
            modified_utc: wallToDate(wall(now)),
            title,
            timezone: 'UTC',
            all_day: false,
            start_local: wallToDate(wall(startMs)),
            end_local: wallToDate(wall(endMs)),
            start_utc: wallToDate(wall(startMs)),
            end_utc: wallToDate(wall(endMs)),
            cost: JSON.stringify([String(Math.floor(rnd() * 40))]),
            cost_symbol: '$',
            cost_position: 'prefix',
            website: null,
            show_map: true,
            show_map_link: true,
            hide_from_listings: rnd() < 0.01,
            sticky: false,
            featured: rnd() < 0.1,
            venue_id: rnd() < 0.8 ? venues[Math.floor(rnd() * venues.length)] : null,
            parent_id: null,
            custom_fields: null,
          });
          const categoryCount = 1 + Math.floor(rnd() * 2);
          for (const categoryId of new Set(
            Array.from({ length: categoryCount }, () => categories[Math.floor(rnd() * categories.length)]),
          )) {
            eventCategories.push({ event_id: id, category_id: categoryId });
            if (status === 'publish') addLink('categories', categoryId);
          }
          for (const tagId of new Set(Array.from({ length: Math.floor(rnd() * 4) }, () => tags[Math.floor(rnd() * tags.length)]))) {
            eventTags.push({ event_id: id, tag_id: tagId });
            if (status === 'publish') addLink('tags', tagId);
          }
          [...new Set(Array.from({ length: Math.floor(rnd() * 3) }, () => organizers[Math.floor(rnd() * organizers.length)]))].forEach(
            (organizerId, position) => eventOrganizers.push({ event_id: id, organizer_id: organizerId, position }),
          );
        });
        await this.insert(manager, 'events', events);
        await this.insert(manager, 'event_categories', eventCategories);
        await this.insert(manager, 'event_tags', eventTags);
        await this.insert(manager, 'event_organizers', eventOrganizers);
        await moveTermCounts(manager, NO_CONTRIBUTION, published);
      });
      this.progress.update(first + count);
    }
    this.progress.stop();
    return { created: Math.max(0, plan.events - existing), total: plan.events };
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

  /** Ids for new items from the shared sequence (`item_ids`), inserted explicitly in one statement. */
  private async allocate(manager: EntityManager, kind: string, count: number): Promise<number[]> {
    const [row]: Array<{ id: number | string }> = await manager.query('SELECT COALESCE(MAX(id), 0) AS id FROM item_ids');
    const first = Number(row.id) + 1;
    const ids = Array.from({ length: count }, (_, index) => first + index);
    await this.insert(
      manager,
      'item_ids',
      ids.map((id) => ({ id, kind })),
    );
    return ids;
  }

  private async ensureItems(plan: SeedPlan, table: 'venues' | 'organizers', kind: string, count: number): Promise<number[]> {
    const prefix = `${this.prefix(plan)}${kind[0]}`;
    const existing = await this.countWithPrefix(table, prefix);
    if (existing < count) {
      await this.dataSource.transaction(async (manager) => {
        const ids = await this.allocate(manager, kind, count - existing);
        const now = wallToDate(wall(Date.now()));
        const rows = ids.map((id, offset) => {
          const index = existing + offset;
          const base = {
            id,
            author_id: plan.authorId,
            status: 'publish',
            pre_trash_status: null,
            slug: `${prefix}${index}`,
            description: '',
            excerpt: '',
            password: null,
            image_id: null,
            date_utc: now,
            date_floating: false,
            modified_utc: now,
            name: `${WORDS[index % WORDS.length]} ${kind} ${index}`,
          };
          return table === 'venues'
            ? {
                ...base,
                address: `${index} Quay Road`,
                city: 'Port Halden',
                country: 'United States',
                province: '',
                state: 'WI',
                zip: '54301',
                phone: '',
                stateprovince: '',
                website: '',
                show_map: true,
                show_map_link: true,
                geo_lat: 44 + (index % 100) / 100,
                geo_lng: -88 - (index % 100) / 100,
              }
            : { ...base, phone: '', website: '', email: `contact${index}@example.org` };
        });
        for (let at = 0; at < rows.length; at += plan.batchSize) await this.insert(manager, table, rows.slice(at, at + plan.batchSize));
      });
    }
    const found: Array<{ id: number }> = await this.dataSource.query(`SELECT id FROM ${table} WHERE slug LIKE ? ORDER BY id`, [
      `${prefix}%`,
    ]);
    return found.map((row) => Number(row.id));
  }

  private async ensureTerms(plan: SeedPlan, table: 'categories' | 'tags', taxonomy: string, count: number): Promise<number[]> {
    const prefix = `${this.prefix(plan)}${taxonomy[0]}`;
    const existing = await this.countWithPrefix(table, prefix);
    if (existing < count) {
      await this.dataSource.transaction(async (manager) => {
        const [row]: Array<{ id: number | string }> = await manager.query('SELECT COALESCE(MAX(id), 0) AS id FROM term_ids');
        const ids = Array.from({ length: count - existing }, (_, index) => Number(row.id) + 1 + index);
        await this.insert(
          manager,
          'term_ids',
          ids.map((id) => ({ id, taxonomy })),
        );
        const rows = ids.map((id, offset) => {
          const index = existing + offset;
          const term = {
            id,
            name: `${WORDS[index % WORDS.length]} ${taxonomy} ${plan.runId} ${index}`,
            slug: `${prefix}${index}`,
            description: '',
          };
          return table === 'categories' ? { ...term, parent_id: 0 } : term;
        });
        await this.insert(manager, table, rows);
      });
    }
    const found: Array<{ id: number }> = await this.dataSource.query(`SELECT id FROM ${table} WHERE slug LIKE ? ORDER BY id`, [
      `${prefix}%`,
    ]);
    return found.map((row) => Number(row.id));
  }

  /** Plain multi-row INSERT with column names as given (the query builder would expect entity properties). */
  private async insert(manager: EntityManager, table: string, rows: Record<string, unknown>[]): Promise<void> {
    if (rows.length === 0) return;
    const driver = manager.connection.driver;
    const sqlite = driver.options.type === 'better-sqlite3';
    const columns = Object.keys(rows[0]);
    const value = (input: unknown) => {
      if (typeof input === 'boolean') return input ? 1 : 0;
      if (input instanceof Date && sqlite) return input.toISOString().replace('T', ' ').slice(0, 23);
      return input;
    };
    // SQLite allows at most 32766 bound values per statement.
    const perStatement = Math.max(1, Math.floor(30000 / columns.length));
    const head = `INSERT INTO ${driver.escape(table)} (${columns.map((column) => driver.escape(column)).join(', ')}) VALUES `;
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    for (let at = 0; at < rows.length; at += perStatement) {
      const chunk = rows.slice(at, at + perStatement);
      await manager.query(
        head + chunk.map(() => tuple).join(', '),
        chunk.flatMap((row) => columns.map((column) => value(row[column]))),
      );
    }
  }
}
