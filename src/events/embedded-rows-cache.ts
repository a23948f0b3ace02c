import { LRUCache } from 'lru-cache';
import type { OrganizerEntity } from '../organizers/organizer.entity.js';
import type { AnyTerm } from '../terms/term-tree.js';
import type { VenueEntity } from '../venues/venue.entity.js';

/** The rows an event's answer embeds, by kind. */
export interface EmbeddedRows {
  venues: VenueEntity[];
  organizers: OrganizerEntity[];
  categories: AnyTerm[];
  tags: AnyTerm[];
}

export type EmbeddedKind = keyof EmbeddedRows;
export const EMBEDDED_KINDS: readonly EmbeddedKind[] = ['venues', 'organizers', 'categories', 'tags'];

/**
 * Rows kept per kind at most, and bytes of them (as {@link approximateSize} counts them): the most
 * recently used stay, the others are read again when needed. Enough for the venues and organizers
 * of tens of thousands of events (the 30,000 events the bench updates at one million name 6,237
 * venues and 7,775 organizers), about 8 MB per kind at worst.
 */
export const EMBEDDED_ROWS_PER_KIND = 20_000;
export const EMBEDDED_BYTES_PER_KIND = 8 * 1024 * 1024;

/** About what a row takes in memory: a share for the object and each field, and its strings' lengths. */
export function approximateSize(row: object): number {
  let size = 64;
  for (const value of Object.values(row)) size += 32 + (typeof value === 'string' ? value.length : 0);
  return size;
}

/**
 * Rows of venues, organizers and terms this process read inside a transaction, each with the
 * version of such rows (`data_version.embedded_version`, read by `EventPayloadsService.writeContext`) read earlier in it: rows read
 * after that version are at least as new as what it stands for, and stay right for as long as it has
 * not moved, since every write that changes such a row moves it (in its transaction, or after its
 * commit and before its answer). An event write that reads the same version takes them from here
 * instead of reading them again for its answer. The rows are frozen: whoever gets them shares them.
 */
export class EmbeddedRowsCache {
  private readonly rows: Record<EmbeddedKind, LRUCache<number, { version: string; row: object }>>;

  constructor(limit = EMBEDDED_ROWS_PER_KIND, bytes = EMBEDDED_BYTES_PER_KIND) {
    const kept = () =>
      new LRUCache<number, { version: string; row: object }>({
        max: limit,
        maxSize: bytes,
        sizeCalculation: (entry) => approximateSize(entry.row),
      });
    this.rows = { venues: kept(), organizers: kept(), categories: kept(), tags: kept() };
  }

  /** The rows of these ids kept at `version` (in the order asked), and by kind the ids of those that were not. */
  find(version: string, ids: Record<EmbeddedKind, number[]>): { kept: EmbeddedRows; missing: Record<EmbeddedKind, number[]> } {
    const kept: Record<EmbeddedKind, object[]> = { venues: [], organizers: [], categories: [], tags: [] };
    const missing: Record<EmbeddedKind, number[]> = { venues: [], organizers: [], categories: [], tags: [] };
    for (const kind of EMBEDDED_KINDS) {
      for (const id of ids[kind]) {
        const entry = this.rows[kind].get(id);
        if (entry?.version === version) kept[kind].push(entry.row);
        else missing[kind].push(id);
      }
    }
    return { kept: kept as unknown as EmbeddedRows, missing };
  }

  /** Keeps `rows` of `kind`, read after the version `version` was read in the same transaction. */
  keep<K extends EmbeddedKind>(version: string, kind: K, rows: EmbeddedRows[K]): void {
    for (const row of rows) this.rows[kind].set(row.id, { version, row: Object.freeze(row) });
  }
}
