import { wallToDate } from '../../common/sql/columns.js';

/** What the generated records refer to: the author and the linked records of the run. */
export interface SeedLinks {
  authorId: number;
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
}

/** An event's row and its links, as ids of the run's records. */
export interface SeededEvent {
  row: Record<string, unknown> & { status: string };
  categories: number[];
  tags: number[];
  organizers: number[];
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

/** A moment as a stored wall-time column (UTC). */
export function seedDate(epochMs: number): Date {
  return wallToDate(new Date(epochMs).toISOString().slice(0, 19).replace('T', ' '));
}

/** The `index`th event of a run: dates around `now`, a status of the mix, links drawn from the run's records. */
export function seededEvent(runId: string, slug: string, index: number, id: number, now: number, links: SeedLinks): SeededEvent {
  const rnd = random(runId, index);
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
  const title = `${WORDS[index % WORDS.length]} ${WORDS[Math.floor(rnd() * WORDS.length)]} ${index}`;
  const row = {
    id,
    author_id: links.authorId,
    status,
    pre_trash_status: status === 'trash' ? 'publish' : null,
    slug: status === 'trash' ? `${slug}__trashed` : slug,
    description: `Seeded event ${index} of run ${runId}.`,
    excerpt: '',
    password: null,
    image_id: null,
    date_utc: seedDate(Math.min(published, now + 365 * DAY_MS)),
    date_floating: false,
    modified_utc: seedDate(now),
    title,
    timezone: 'UTC',
    all_day: false,
    start_local: seedDate(startMs),
    end_local: seedDate(endMs),
    start_utc: seedDate(startMs),
    end_utc: seedDate(endMs),
    cost: JSON.stringify([String(Math.floor(rnd() * 40))]),
    cost_symbol: '$',
    cost_position: 'prefix',
    website: null,
    show_map: true,
    show_map_link: true,
    hide_from_listings: rnd() < 0.01,
    sticky: false,
    featured: rnd() < 0.1,
    venue_id: rnd() < 0.8 ? links.venues[Math.floor(rnd() * links.venues.length)] : null,
    parent_id: null,
    custom_fields: null,
  };
  const draw = (count: number, from: number[]) => [...new Set(Array.from({ length: count }, () => from[Math.floor(rnd() * from.length)]))];
  const categories = draw(1 + Math.floor(rnd() * 2), links.categories);
  const tags = draw(Math.floor(rnd() * 4), links.tags);
  const organizers = draw(Math.floor(rnd() * 3), links.organizers);
  return { row, categories, tags, organizers };
}

/** The `index`th venue or organizer of a run, published. */
export function seededLinkedItem(
  table: 'venues' | 'organizers',
  kind: string,
  slug: string,
  index: number,
  id: number,
  authorId: number,
  now: Date,
): Record<string, unknown> {
  const base = {
    id,
    author_id: authorId,
    status: 'publish',
    pre_trash_status: null,
    slug,
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
}

/** The `index`th category or tag of a run. */
export function seededTerm(
  table: 'categories' | 'tags',
  taxonomy: string,
  runId: string,
  slug: string,
  index: number,
  id: number,
): Record<string, unknown> {
  const term = { id, name: `${WORDS[index % WORDS.length]} ${taxonomy} ${runId} ${index}`, slug, description: '' };
  return table === 'categories' ? { ...term, parent_id: 0 } : term;
}
