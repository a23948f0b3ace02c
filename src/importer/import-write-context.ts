/** The state an import writer keeps over a run (mappings, ids and slugs a dry run took, notes) and the steps every write shares: decisions, ids, slugs, mapping rows, transactions. */
import { type DataSource, type EntityManager, In } from 'typeorm';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { retryOnConflict } from '../common/errors/db-errors.js';
import { freeSlug } from '../common/sql/free-slug.js';
import { sanitizeSlug } from '../common/text/slug.js';
import { CategoryEntity } from '../categories/category.entity.js';
import { recordingChanges, type ChangeKind } from '../changes/change-recording.js';
import { EventEntity } from '../events/event.entity.js';
import { ItemIdEntity, type ItemKind } from '../items/item-id.entity.js';
import { OrganizerEntity } from '../organizers/organizer.entity.js';
import { TagEntity } from '../tags/tag.entity.js';
import { TermIdEntity } from '../terms/term-id.entity.js';
import { VenueEntity } from '../venues/venue.entity.js';
import { ImportMappingEntity, type ImportKind } from './import-mapping.entity.js';
import type { Action, Outcome, PasswordLookup, WriterSettings } from './import-outcome.js';

export const TERM_ENTITY = { category: CategoryEntity, tag: TagEntity } as const;
export const ITEM_ENTITY = { event: EventEntity, venue: VenueEntity, organizer: OrganizerEntity } as const;
export const TABLE: Record<ImportKind, string> = {
  category: 'categories',
  tag: 'tags',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
  image: 'images',
};

const keyOf = (kind: ImportKind, sourceId: number) => `${kind}:${sourceId}`;

/** The base of {@link ImportWriter}: what the writes of terms, items and events, and the removal of vanished records, share. */
export class ImportWriteContext {
  private readonly mappings = new Map<string, ImportMappingEntity>();
  /** Ids and slugs a dry run would have taken, so that later records of the same run see them taken. */
  private readonly simulatedIds = { item: new Set<number>(), term: new Set<number>() };
  private readonly simulatedSlugs = new Set<string>();
  /** Records that could not be written in this run (a later link to them is left out). */
  readonly failed = new Set<string>();
  /** Things worth a line in the summary (custom fields not defined here). */
  readonly notes: string[] = [];
  /** Whether anything was written (the data version is bumped once at the end of a page). */
  wrote = false;
  /** Images registered under a new id since the engine last looked (they are no records of their own in the summary). */
  readonly renumberedImages: Array<{ sourceId: number; localId: number }> = [];
  /** Links left out, or kept to a record in the trash, gathered per linked record: one note each, naming its events. */
  private readonly linkNotes = new Map<string, { text: string; events: Set<number> }>();

  constructor(
    private readonly dataSource: DataSource,
    readonly settings: WriterSettings,
    readonly passwords: PasswordLookup,
  ) {}

  /** Remembers that event `eventId` links to the record `kind` `sourceId`, which `what` (the phrase is followed by the events). */
  noteLink(kind: ImportKind, sourceId: number, what: string, eventId: number): void {
    const key = `${kind}:${sourceId}:${what}`;
    let note = this.linkNotes.get(key);
    if (!note) this.linkNotes.set(key, (note = { text: `${kind} ${sourceId} ${what}`, events: new Set() }));
    note.events.add(eventId);
  }

  /** The notes of the run: {@link notes}, then one line per linked record of {@link noteLink}. */
  allNotes(): string[] {
    const links = [...this.linkNotes.values()].map(({ text, events }) => {
      const ids = [...events].sort((a, b) => a - b);
      const shown = `${ids.slice(0, 10).join(', ')}${ids.length > 10 ? `, … ${ids.length - 10} more` : ''}`;
      return `${text} ${ids.length} event(s) (${shown})`;
    });
    return [...this.notes, ...links];
  }

  async loadMappings(): Promise<void> {
    const rows = await this.dataSource.getRepository(ImportMappingEntity).findBy({ sourceId: this.settings.sourceId });
    for (const row of rows) this.mappings.set(keyOf(row.kind, row.sourceRecordId), row);
  }

  mapping(kind: ImportKind, sourceId: number): ImportMappingEntity | undefined {
    return this.mappings.get(keyOf(kind, sourceId));
  }

  /** Source ids of every mapping of a kind. */
  mappedIds(kind: ImportKind): number[] {
    return [...this.mappings.values()].filter((row) => row.kind === kind).map((row) => row.sourceRecordId);
  }

  /** Mappings of a kind the current run has not seen (yet). */
  unseen(kind: ImportKind): ImportMappingEntity[] {
    return [...this.mappings.values()].filter((row) => row.kind === kind && row.lastSeenRun !== this.settings.runId);
  }

  /** Marks records seen without writing them (unchanged records of a page), in one statement per kind. */
  async markSeen(kind: ImportKind, sourceIds: number[]): Promise<void> {
    const ids = sourceIds.filter((id) => {
      const row = this.mapping(kind, id);
      return row && row.lastSeenRun !== this.settings.runId;
    });
    for (const id of ids) (this.mapping(kind, id) as ImportMappingEntity).lastSeenRun = this.settings.runId;
    if (ids.length === 0 || this.settings.dryRun) return;
    for (let start = 0; start < ids.length; start += 500) {
      await this.dataSource
        .createQueryBuilder()
        .update(ImportMappingEntity)
        .set({ lastSeenRun: this.settings.runId })
        .where({ sourceId: this.settings.sourceId, kind, sourceRecordId: In(ids.slice(start, start + 500)) })
        .execute();
    }
  }

  // ---------------------------------------------------------------- decisions

  /**
   * What to do with a source record that was imported before: nothing (unchanged), keep the edit made
   * here, skip it (policy `skip`), or write it. `localModified` is null when the local record is gone.
   */
  decide(
    row: ImportMappingEntity,
    sourceModified: string | null,
    hash: string,
    localModified: string | null,
  ): { write: boolean; action?: Action; reason?: string } {
    const localEdited = localModified === null || localModified !== row.localModifiedUtc;
    const sourceChanged = row.contentHash !== hash || row.sourceModifiedUtc !== sourceModified;
    if (!localEdited && !sourceChanged) return { write: false, action: 'unchanged' };
    if (localEdited) {
      if (this.settings.policy === 'overwrite') return { write: true };
      if (this.settings.policy === 'keep-local' || !sourceChanged) return { write: false, action: 'kept' };
      return {
        write: false,
        action: 'skipped',
        reason: 'edited here since the last import and changed at the source (--on-conflict skip)',
      };
    }
    return { write: true };
  }

  older(sourceModified: string | null): boolean {
    return this.settings.since !== null && sourceModified !== null && sourceModified < this.settings.since;
  }

  // ---------------------------------------------------------------- ids and slugs

  /**
   * Highest source ids the run expects (item and term sequences): new ids for records whose source id
   * is taken here are handed out above them, so that a renumbered record never takes the id of a
   * source record imported later in the run (which would then have to move too).
   */
  floors = { item: 0, term: 0 };

  /** The source id when no item or image holds it here, else a new one above every source id. */
  async itemId(manager: EntityManager, kind: ItemKind, sourceId: number | null): Promise<{ id: number; renumbered: boolean }> {
    const free = sourceId !== null && !this.simulatedIds.item.has(sourceId) && !(await manager.existsBy(ItemIdEntity, { id: sourceId }));
    if (this.settings.dryRun) {
      const id = free ? sourceId : await this.simulatedNextAbove(manager, 'item');
      this.simulatedIds.item.add(id);
      return { id, renumbered: !free && sourceId !== null };
    }
    const id = free ? sourceId : await this.nextAbove(manager, 'item_ids', this.floors.item);
    await manager.createQueryBuilder().insert().into(ItemIdEntity).values({ id, kind }).execute();
    return { id, renumbered: !free && sourceId !== null };
  }

  async termId(manager: EntityManager, taxonomy: 'category' | 'tag', sourceId: number): Promise<{ id: number; renumbered: boolean }> {
    const free = !this.simulatedIds.term.has(sourceId) && !(await manager.existsBy(TermIdEntity, { id: sourceId }));
    if (this.settings.dryRun) {
      const id = free ? sourceId : await this.simulatedNextAbove(manager, 'term');
      this.simulatedIds.term.add(id);
      return { id, renumbered: !free };
    }
    const id = free ? sourceId : await this.nextAbove(manager, 'term_ids', this.floors.term);
    await manager.createQueryBuilder().insert().into(TermIdEntity).values({ id, taxonomy }).execute();
    return { id, renumbered: !free };
  }

  /** The next id of a sequence, and at least `floor + 1`; a concurrent writer that takes it first makes the transaction run again. */
  private async nextAbove(manager: EntityManager, table: 'item_ids' | 'term_ids', floor: number): Promise<number> {
    const [row]: Array<{ highest: number | string | null }> = await manager.query(`SELECT MAX(id) AS highest FROM ${table}`);
    return Math.max(Number(row?.highest ?? 0), floor) + 1;
  }

  /** The id a real run would hand out next, counting the ids this dry run already took. */
  private async simulatedNextAbove(manager: EntityManager, sequence: 'item' | 'term'): Promise<number> {
    let highest = await this.nextAbove(manager, sequence === 'item' ? 'item_ids' : 'term_ids', this.floors[sequence]);
    for (const id of this.simulatedIds[sequence]) if (id >= highest) highest = id + 1;
    return highest;
  }

  /** The wanted slug when free among the records of the table (other than `localId`), else `-2`, `-3`… */
  async slug(manager: EntityManager, kind: ImportKind, wanted: string, name: string, localId: number): Promise<string> {
    const base = wanted || sanitizeSlug(name) || String(localId);
    if (!this.settings.dryRun) return freeSlug(manager, TABLE[kind], base, localId);
    let slug = await freeSlug(manager, TABLE[kind], base, localId);
    for (let n = 2; this.simulatedSlugs.has(`${kind}:${slug}`); n++) slug = await freeSlug(manager, TABLE[kind], `${base}-${n}`, localId);
    this.simulatedSlugs.add(`${kind}:${slug}`);
    return slug;
  }

  async saveMapping(manager: EntityManager, row: Omit<ImportMappingEntity, 'sourceId' | 'lastSeenRun' | 'importedUtc'>): Promise<void> {
    const entity: ImportMappingEntity = {
      ...row,
      sourceId: this.settings.sourceId,
      lastSeenRun: this.settings.runId,
      importedUtc: nowUtcWall(),
    };
    if (!this.settings.dryRun) await manager.save(ImportMappingEntity, entity);
    this.mappings.set(keyOf(row.kind, row.sourceRecordId), entity);
  }

  /** One transaction per record; lost races (a slug or id taken meanwhile) are run again. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.settings.dryRun) return work(this.dataSource.manager);
    return retryOnConflict(() => this.dataSource.transaction(work));
  }

  async recording<T>(manager: EntityManager, kind: ChangeKind, id: number, work: () => Promise<T>): Promise<T | undefined> {
    if (this.settings.dryRun) return undefined;
    this.wrote = true;
    return recordingChanges(manager, kind, [id], work);
  }

  /** An unchanged, kept or skipped record: only marked seen. */
  async settle(manager: EntityManager, row: ImportMappingEntity, action: Action, reason?: string): Promise<Outcome> {
    if (row.lastSeenRun !== this.settings.runId) {
      row.lastSeenRun = this.settings.runId;
      if (!this.settings.dryRun) {
        await manager.update(
          ImportMappingEntity,
          { sourceId: this.settings.sourceId, kind: row.kind, sourceRecordId: row.sourceRecordId },
          { lastSeenRun: this.settings.runId },
        );
      }
    }
    return { action, kind: row.kind, sourceId: row.sourceRecordId, localId: row.localId, ...(reason ? { reason } : {}) };
  }

  async forget(manager: EntityManager, row: ImportMappingEntity): Promise<Outcome> {
    this.mappings.delete(keyOf(row.kind, row.sourceRecordId));
    if (!this.settings.dryRun) {
      await manager.delete(ImportMappingEntity, { sourceId: this.settings.sourceId, kind: row.kind, sourceRecordId: row.sourceRecordId });
    }
    return { action: 'unchanged', kind: row.kind, sourceId: row.sourceRecordId, localId: row.localId };
  }
}
