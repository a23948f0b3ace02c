import { createHash, randomBytes } from 'node:crypto';
import { type DataSource, type EntityManager, In } from 'typeorm';
import type { ItemStatus } from '../common/auth/item-status.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { retryOnConflict } from '../common/errors/db-errors.js';
import { forUpdate } from '../common/sql/for-update.js';
import { freeSlug } from '../common/sql/free-slug.js';
import { sanitizeSlug } from '../common/text/slug.js';
import { CategoryEntity } from '../categories/category.entity.js';
import { recordingChanges, type ChangeKind } from '../changes/change-recording.js';
import { EventOrganizerEntity } from '../events/event-organizer.entity.js';
import { keepingTermCounts, moveTermCounts, NO_CONTRIBUTION, termContribution } from '../events/event-term-counts.js';
import { EventEntity } from '../events/event.entity.js';
import { ImageEntity } from '../images/image.entity.js';
import { ItemIdEntity, type ItemKind } from '../items/item-id.entity.js';
import type { PublishableEntity } from '../items/publishable.entity.js';
import { OrganizerEntity } from '../organizers/organizer.entity.js';
import { TagEntity } from '../tags/tag.entity.js';
import { TermIdEntity } from '../terms/term-id.entity.js';
import { VenueEntity } from '../venues/venue.entity.js';
import { ImportMappingEntity, type ImportKind } from './import-mapping.entity.js';
import type { EventRecord, LinkedRecord, OrganizerRecord, SourceImage, TermRecord, VenueRecord } from './source-records.js';
import { recordHash } from './source-records.js';

export type ConflictPolicy = 'overwrite' | 'keep-local' | 'skip';
export const CONFLICT_POLICIES: readonly ConflictPolicy[] = ['overwrite', 'keep-local', 'skip'];

/** What happened to one source record. */
export type Action = 'created' | 'updated' | 'unchanged' | 'kept' | 'skipped' | 'trashed' | 'older';

export interface Outcome {
  action: Action;
  kind: ImportKind;
  sourceId: number;
  localId: number | null;
  /** The source id was taken here: the record got `localId` instead (or was merged into an existing term). */
  renumbered?: boolean;
  merged?: boolean;
  /** The source slug was taken here: the record got `slug` instead. */
  slugChanged?: { from: string; to: string };
  reason?: string;
}

export interface WriterSettings {
  sourceId: number;
  runId: number;
  dryRun: boolean;
  policy: ConflictPolicy;
  defaultAuthorId: number;
  /** Source author id → local user id, where the same login exists here. */
  authors: Map<number, number>;
  /** Keys of `EVENT_CUSTOM_FIELDS` here. */
  customFieldKeys: Set<string>;
  /** Only records the source modified at or after this UTC wall time are written (`--since`). */
  since: string | null;
}

/** Passwords of protected source records: the real one when the source told it, else null (a random one is set). */
export type PasswordLookup = (kind: 'event' | 'venue' | 'organizer', sourceId: number) => Promise<string | null>;

const TERM_ENTITY = { category: CategoryEntity, tag: TagEntity } as const;
const ITEM_ENTITY = { event: EventEntity, venue: VenueEntity, organizer: OrganizerEntity } as const;
const TABLE: Record<ImportKind, string> = {
  category: 'categories',
  tag: 'tags',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
  image: 'images',
};

const keyOf = (kind: ImportKind, sourceId: number) => `${kind}:${sourceId}`;

/** A random password for a protected record whose password the source does not tell. */
function placeholderPassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * Writes source records here, one transaction per record with its links, its change-log entries
 * and its term counts: ids and slugs kept when free, new ones (and a mapping) otherwise; updates by
 * the source's `modified` and a hash of the values; edits made here since the last import handled
 * by the conflict policy. A dry run decides the same way and writes nothing.
 */
export class ImportWriter {
  private readonly mappings = new Map<string, ImportMappingEntity>();
  /** Ids and slugs a dry run would have taken, so that later records of the same run see them taken. */
  private readonly simulatedIds = { item: new Set<number>(), term: new Set<number>() };
  private readonly simulatedSlugs = new Set<string>();
  private simulatedNext = -1;
  /** Records that could not be written in this run (a later link to them is left out). */
  readonly failed = new Set<string>();
  /** Things worth a line in the summary (custom fields not defined here, links left out). */
  readonly notes: string[] = [];
  /** Whether anything was written (the data version is bumped once at the end of a page). */
  wrote = false;
  /** Images registered under a new id since the engine last looked (they are no records of their own in the summary). */
  readonly renumberedImages: Array<{ sourceId: number; localId: number }> = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: WriterSettings,
    private readonly passwords: PasswordLookup,
  ) {}

  async loadMappings(): Promise<void> {
    const rows = await this.dataSource.getRepository(ImportMappingEntity).findBy({ sourceId: this.settings.sourceId });
    for (const row of rows) this.mappings.set(keyOf(row.kind, row.sourceRecordId), row);
  }

  mapping(kind: ImportKind, sourceId: number): ImportMappingEntity | undefined {
    return this.mappings.get(keyOf(kind, sourceId));
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
  private decide(
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

  private older(sourceModified: string | null): boolean {
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
  private async itemId(manager: EntityManager, kind: ItemKind, sourceId: number | null): Promise<{ id: number; renumbered: boolean }> {
    const free = sourceId !== null && !this.simulatedIds.item.has(sourceId) && !(await manager.existsBy(ItemIdEntity, { id: sourceId }));
    if (this.settings.dryRun) {
      if (free) this.simulatedIds.item.add(sourceId);
      return free ? { id: sourceId, renumbered: false } : { id: this.simulatedNext--, renumbered: sourceId !== null };
    }
    const id = free ? sourceId : await this.nextAbove(manager, 'item_ids', this.floors.item);
    await manager.createQueryBuilder().insert().into(ItemIdEntity).values({ id, kind }).execute();
    return { id, renumbered: !free && sourceId !== null };
  }

  private async termId(
    manager: EntityManager,
    taxonomy: 'category' | 'tag',
    sourceId: number,
  ): Promise<{ id: number; renumbered: boolean }> {
    const free = !this.simulatedIds.term.has(sourceId) && !(await manager.existsBy(TermIdEntity, { id: sourceId }));
    if (this.settings.dryRun) {
      if (free) this.simulatedIds.term.add(sourceId);
      return free ? { id: sourceId, renumbered: false } : { id: this.simulatedNext--, renumbered: true };
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

  /** The wanted slug when free among the records of the table (other than `localId`), else `-2`, `-3`… */
  private async slug(manager: EntityManager, kind: ImportKind, wanted: string, name: string, localId: number): Promise<string> {
    const base = wanted || sanitizeSlug(name) || String(Math.abs(localId));
    if (!this.settings.dryRun) return freeSlug(manager, TABLE[kind], base, localId);
    let slug = await freeSlug(manager, TABLE[kind], base, localId);
    for (let n = 2; this.simulatedSlugs.has(`${kind}:${slug}`); n++) slug = await freeSlug(manager, TABLE[kind], `${base}-${n}`, localId);
    this.simulatedSlugs.add(`${kind}:${slug}`);
    return slug;
  }

  private async saveMapping(
    manager: EntityManager,
    row: Omit<ImportMappingEntity, 'sourceId' | 'lastSeenRun' | 'importedUtc'>,
  ): Promise<void> {
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
  private transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.settings.dryRun) return work(this.dataSource.manager);
    return retryOnConflict(() => this.dataSource.transaction(work));
  }

  private async recording<T>(manager: EntityManager, kind: ChangeKind, id: number, work: () => Promise<T>): Promise<T | undefined> {
    if (this.settings.dryRun) return undefined;
    this.wrote = true;
    return recordingChanges(manager, kind, [id], work);
  }

  // ---------------------------------------------------------------- terms

  async writeTerm(record: TermRecord): Promise<Outcome> {
    const { kind, sourceId } = record;
    const parentId =
      kind === 'category' && record.parentSourceId !== 0 ? (this.mapping('category', record.parentSourceId)?.localId ?? 0) : 0;
    if (kind === 'category' && record.parentSourceId !== 0 && parentId === 0) {
      this.notes.push(`category ${sourceId}: its parent ${record.parentSourceId} could not be imported, it is at the top here`);
    }
    const hash = recordHash(record, parentId);
    const entity = TERM_ENTITY[kind];
    return this.transaction(async (manager) => {
      const row = this.mapping(kind, sourceId);
      const local = row ? await manager.findOneBy(entity, { id: row.localId }) : null;
      if (row) {
        const decision = this.decide(row, null, hash, local?.modifiedUtc ?? null);
        if (!decision.write) return this.settle(manager, row, decision.action as Action, decision.reason);
      }
      const modifiedUtc = nowUtcWall();
      const values = { name: record.name, description: record.description, modifiedUtc, ...(kind === 'category' ? { parentId } : {}) };
      let localId: number;
      let renumbered = false;
      let merged = false;
      let action: Action = 'created';
      let slug: string;
      if (row && local) {
        localId = row.localId;
        slug = record.slug === row.sourceSlug ? local.slug : await this.slug(manager, kind, record.slug, record.name, localId);
        action = 'updated';
        await this.recording(manager, kind, localId, () => manager.update(entity, { id: localId }, { ...values, slug }));
      } else if (row) {
        // deleted here and written again (policy overwrite): the same id
        localId = row.localId;
        slug = await this.slug(manager, kind, record.slug, record.name, localId);
        await this.recording(manager, kind, localId, () => manager.insert(entity, { id: localId, slug, ...values }));
      } else {
        // a term of the same name under the same parent is the same term (names are unique, §11.9)
        const same = await manager
          .getRepository(entity)
          .createQueryBuilder('t')
          .where('LOWER(t.name) = LOWER(:name)', { name: record.name })
          .andWhere(kind === 'category' ? 't.parent_id = :parentId' : '1 = 1', { parentId })
          .orderBy('t.id')
          .getOne();
        if (same) {
          localId = same.id;
          slug = same.slug;
          merged = true;
          renumbered = same.id !== sourceId;
          action = 'unchanged';
        } else {
          const claimed = await this.termId(manager, kind, sourceId);
          localId = claimed.id;
          renumbered = claimed.renumbered;
          slug = await this.slug(manager, kind, record.slug, record.name, localId);
          await this.recording(manager, kind, localId, () => manager.insert(entity, { id: localId, slug, ...values }));
        }
      }
      const written = merged ? ((await manager.findOneBy(entity, { id: localId }))?.modifiedUtc ?? null) : modifiedUtc;
      await this.saveMapping(manager, {
        kind,
        sourceRecordId: sourceId,
        localId,
        sourceSlug: record.slug,
        sourceModifiedUtc: null,
        contentHash: hash,
        localModifiedUtc: written,
        sourceStatus: 'publish',
      });
      return {
        action,
        kind,
        sourceId,
        localId,
        ...(renumbered ? { renumbered } : {}),
        ...(merged ? { merged } : {}),
        ...(record.slug !== '' && slug !== record.slug && !merged ? { slugChanged: { from: record.slug, to: slug } } : {}),
      };
    });
  }

  /** An unchanged, kept or skipped record: only marked seen. */
  private async settle(manager: EntityManager, row: ImportMappingEntity, action: Action, reason?: string): Promise<Outcome> {
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

  // ---------------------------------------------------------------- images

  /** The local image of a source image: mapped before, registered with the same URL, or registered now. */
  private async image(manager: EntityManager, image: SourceImage | null, authorId: number): Promise<number | null> {
    if (!image) return null;
    const urlHash = createHash('sha256').update(image.url).digest('hex');
    const mapped = image.sourceId !== null ? this.mapping('image', image.sourceId) : undefined;
    if (mapped) {
      const local = await manager.findOneBy(ImageEntity, { id: mapped.localId });
      if (local && local.urlHash === urlHash) return local.id;
    }
    const existing = await manager.findOneBy(ImageEntity, { urlHash });
    let localId = existing?.id;
    if (localId === undefined) {
      const claimed = await this.itemId(manager, 'image', image.sourceId);
      localId = claimed.id;
      if (claimed.renumbered && image.sourceId !== null) this.renumberedImages.push({ sourceId: image.sourceId, localId });
      if (!this.settings.dryRun) {
        await manager.insert(ImageEntity, {
          id: localId,
          url: image.url,
          urlHash,
          extension: image.extension,
          authorId,
          createdUtc: nowUtcWall(),
        });
      }
    }
    if (image.sourceId !== null) {
      await this.saveMapping(manager, {
        kind: 'image',
        sourceRecordId: image.sourceId,
        localId,
        sourceSlug: '',
        sourceModifiedUtc: null,
        contentHash: urlHash,
        localModifiedUtc: null,
        sourceStatus: 'publish',
      });
    }
    return localId;
  }

  // ---------------------------------------------------------------- items

  private authorOf(sourceAuthorId: number | null): number {
    return (sourceAuthorId !== null ? this.settings.authors.get(sourceAuthorId) : undefined) ?? this.settings.defaultAuthorId;
  }

  /** The password a record gets here: the source's, the one set here before, or a random one. */
  private async password(
    kind: 'event' | 'venue' | 'organizer',
    record: EventRecord | LinkedRecord,
    previous: string | null,
    protectedAtSource: boolean,
  ) {
    if (!protectedAtSource && !record.redacted) return null;
    return (await this.passwords(kind, record.sourceId)) ?? previous ?? placeholderPassword();
  }

  /** Status fields of a write: a record trashed at the source keeps the status it had here before. */
  private statusFields(record: EventRecord | LinkedRecord, local: PublishableEntity | null) {
    if (record.status !== 'trash') return { status: record.status, preTrashStatus: null };
    const before: ItemStatus = local && local.status !== 'trash' ? local.status : (local?.preTrashStatus ?? 'draft');
    return { status: 'trash' as const, preTrashStatus: before };
  }

  /** A venue or an organizer. `protectedAtSource`: the anonymous view of the source showed it redacted. */
  async writeLinked(record: LinkedRecord, protectedAtSource: boolean, dependency = false): Promise<Outcome> {
    const { kind, sourceId } = record;
    const row = this.mapping(kind, sourceId);
    const older = !dependency && this.older(record.modifiedUtc);
    if (!row && older) return { action: 'older', kind, sourceId, localId: null };
    const hash = recordHash(record, protectedAtSource);
    const entity = ITEM_ENTITY[kind];
    const outcome = await this.transaction(async (manager) => {
      const local = row ? ((await manager.findOneBy(entity, { id: row.localId })) as PublishableEntity | null) : null;
      if (row) {
        if (older) return this.settle(manager, row, 'older');
        const decision = this.decide(row, record.modifiedUtc, hash, local?.modifiedUtc ?? null);
        if (!decision.write) return this.settle(manager, row, decision.action as Action, decision.reason);
      }
      const authorId = this.authorOf(record.authorSourceId);
      const fields = {
        authorId,
        ...this.statusFields(record, local),
        description: record.description,
        excerpt: record.excerpt,
        password: await this.password(kind, record, local?.password ?? null, protectedAtSource),
        imageId: await this.image(manager, record.image, authorId),
        dateUtc: record.dateUtc,
        dateFloating: record.dateFloating,
        modifiedUtc: record.modifiedUtc,
        name: record.name,
        ...(record.kind === 'venue' ? venueFields(record) : organizerFields(record)),
      };
      return this.upsertItem(manager, kind, record, row, local, fields, hash, async (localId, isNew) => {
        if (!isNew && record.status === 'trash' && local?.status !== 'trash') {
          // trashing unlinks from every event (§5.7), as a trash here does
          if (kind === 'venue')
            await manager
              .createQueryBuilder()
              .update(EventEntity)
              .set({ venueId: null })
              .where('venue_id = :id', { id: localId })
              .execute();
          else await manager.delete(EventOrganizerEntity, { organizerId: localId });
        }
      });
    });
    return outcome;
  }

  /**
   * Insert or update of an item with its id, slug and mapping; `links` runs inside the change
   * recording (event links, unlinking). Returns the outcome.
   */
  private async upsertItem(
    manager: EntityManager,
    kind: 'event' | 'venue' | 'organizer',
    record: EventRecord | LinkedRecord,
    row: ImportMappingEntity | undefined,
    local: PublishableEntity | null,
    fields: Record<string, unknown>,
    hash: string,
    links: (localId: number, isNew: boolean) => Promise<void>,
  ): Promise<Outcome> {
    const entity = ITEM_ENTITY[kind];
    let localId: number;
    let renumbered = false;
    let slug: string;
    const isNew = !row || !local;
    if (row && local) {
      localId = row.localId;
      slug = record.slug === row.sourceSlug ? local.slug : await this.slug(manager, kind, record.slug, nameOf(record), localId);
    } else if (row) {
      localId = row.localId;
      slug = await this.slug(manager, kind, record.slug, nameOf(record), localId);
    } else {
      const claimed = await this.itemId(manager, kind, record.sourceId);
      localId = claimed.id;
      renumbered = claimed.renumbered;
      slug = await this.slug(manager, kind, record.slug, nameOf(record), localId);
    }
    const values = { ...fields, slug };
    await this.recording(manager, kind, localId, async () => {
      if (isNew) await manager.insert(entity, { id: localId, ...values });
      else await manager.update(entity, { id: localId }, values);
      await links(localId, isNew);
    });
    await this.saveMapping(manager, {
      kind,
      sourceRecordId: record.sourceId,
      localId,
      sourceSlug: record.slug,
      sourceModifiedUtc: record.modifiedUtc,
      contentHash: hash,
      localModifiedUtc: record.modifiedUtc,
      sourceStatus: record.status,
    });
    return {
      action: isNew ? 'created' : 'updated',
      kind,
      sourceId: record.sourceId,
      localId,
      ...(renumbered ? { renumbered } : {}),
      ...(record.slug !== '' && slug !== record.slug ? { slugChanged: { from: record.slug, to: slug } } : {}),
    };
  }

  /** An event with its venue, organizers, categories and tags (imported first when they are not yet). */
  async writeEvent(record: EventRecord, protectedAtSource: boolean): Promise<Outcome> {
    const { sourceId } = record;
    const row = this.mapping('event', sourceId);
    const older = this.older(record.modifiedUtc);
    if (!row && older) return { action: 'older', kind: 'event', sourceId, localId: null };
    const hash = recordHash(record, protectedAtSource);
    const customFields: Record<string, string> = {};
    for (const [key, { label, value }] of Object.entries(record.customFields)) {
      if (this.settings.customFieldKeys.has(key)) customFields[key] = value;
      else this.notes.push(`custom field ${key} ("${label}") is not defined in EVENT_CUSTOM_FIELDS here: its values were left out`);
    }
    return this.transaction(async (manager) => {
      const local = row ? await manager.findOneBy(EventEntity, { id: row.localId }) : null;
      if (row) {
        if (older) return this.settle(manager, row, 'older');
        const decision = this.decide(row, record.modifiedUtc, hash, local?.modifiedUtc ?? null);
        if (!decision.write) return this.settle(manager, row, decision.action as Action, decision.reason);
      }
      const authorId = this.authorOf(record.authorSourceId);
      const venueId = await this.linkTarget(manager, 'venue', record.venue?.sourceId ?? null, sourceId);
      const organizerIds: number[] = [];
      for (const ref of record.organizers) {
        const id = await this.linkTarget(manager, 'organizer', ref.sourceId, sourceId);
        if (id !== null && !organizerIds.includes(id)) organizerIds.push(id);
      }
      const termIds = { category: [] as number[], tag: [] as number[] };
      for (const taxonomy of ['category', 'tag'] as const) {
        for (const ref of taxonomy === 'category' ? record.categories : record.tags) {
          const mapped = this.mapping(taxonomy, ref.sourceId)?.localId;
          if (mapped === undefined)
            this.notes.push(`event ${sourceId}: ${taxonomy} ${ref.sourceId} could not be imported, the link was left out`);
          else if (!termIds[taxonomy].includes(mapped)) termIds[taxonomy].push(mapped);
        }
      }
      const fields = {
        authorId,
        ...this.statusFields(record, local),
        description: record.description,
        excerpt: record.excerpt,
        password: await this.password('event', record, local?.password ?? null, protectedAtSource),
        imageId: await this.image(manager, record.image, authorId),
        dateUtc: record.dateUtc,
        dateFloating: record.dateFloating,
        modifiedUtc: record.modifiedUtc,
        title: record.title,
        timezone: record.timezone,
        allDay: record.allDay,
        startLocal: record.startLocal,
        endLocal: record.endLocal,
        startUtc: record.startUtc,
        endUtc: record.endUtc,
        cost: record.cost,
        costSymbol: record.costSymbol,
        costPosition: record.costPosition,
        website: record.website,
        showMap: record.showMap,
        showMapLink: record.showMapLink,
        hideFromListings: record.hideFromListings,
        sticky: record.sticky,
        featured: record.featured,
        venueId,
        parentId: local?.parentId ?? null,
        customFields: Object.keys(customFields).length > 0 ? customFields : null,
      };
      const isNew = !row || !local;
      const write = () =>
        this.upsertItem(manager, 'event', record, row, local, fields, hash, async (localId, created) => {
          if (!created) {
            await manager.delete(EventOrganizerEntity, { eventId: localId });
            await manager.createQueryBuilder().delete().from('event_categories').where('event_id = :localId', { localId }).execute();
            await manager.createQueryBuilder().delete().from('event_tags').where('event_id = :localId', { localId }).execute();
          }
          if (organizerIds.length > 0) {
            await manager.insert(
              EventOrganizerEntity,
              organizerIds.map((organizerId, position) => ({ eventId: localId, organizerId, position })),
            );
          }
          for (const [taxonomy, table, column] of [
            ['category', 'event_categories', 'category_id'],
            ['tag', 'event_tags', 'tag_id'],
          ] as const) {
            const ids = [...termIds[taxonomy]].sort((a, b) => a - b);
            if (ids.length === 0) continue;
            // the terms are locked in id order first, as the events' own writes do (no deadlock with them)
            await forUpdate(
              manager
                .getRepository(TERM_ENTITY[taxonomy])
                .createQueryBuilder('t')
                .select('t.id')
                .where('t.id IN (:...ids)', { ids })
                .orderBy('t.id'),
            ).getRawMany();
            await manager
              .createQueryBuilder()
              .insert()
              .into(table)
              .values(ids.map((termId) => ({ event_id: localId, [column]: termId })))
              .execute();
          }
        });
      if (this.settings.dryRun) return write();
      if (isNew) {
        const outcome = await write();
        await moveTermCounts(manager, NO_CONTRIBUTION, await termContribution(manager, [outcome.localId as number]));
        return outcome;
      }
      return keepingTermCounts(manager, [row.localId], write);
    });
  }

  /** The local id of a linked venue or organizer; null (and a note) when it could not be imported or is in the trash here. */
  private async linkTarget(
    manager: EntityManager,
    kind: 'venue' | 'organizer',
    sourceId: number | null,
    eventId: number,
  ): Promise<number | null> {
    if (sourceId === null) return null;
    const mapped = this.mapping(kind, sourceId);
    if (!mapped) {
      this.notes.push(`event ${eventId}: ${kind} ${sourceId} could not be imported, the link was left out`);
      return null;
    }
    if (this.settings.dryRun) return mapped.localId;
    const target = await manager.findOneBy(ITEM_ENTITY[kind], { id: mapped.localId });
    if (!target || target.status === 'trash') {
      this.notes.push(`event ${eventId}: ${kind} ${sourceId} is in the trash here, the link was left out`);
      return null;
    }
    return target.id;
  }

  // ---------------------------------------------------------------- records gone at the source

  /**
   * A record that disappeared at the source (for what the run's credentials can see): items go to
   * the trash here, terms are deleted (terms have no trash), unless edited here and the policy keeps
   * local edits.
   */
  async removeVanished(row: ImportMappingEntity): Promise<Outcome> {
    const { kind } = row;
    if (kind === 'image') return { action: 'unchanged', kind, sourceId: row.sourceRecordId, localId: row.localId };
    return this.transaction(async (manager) => {
      if (kind === 'category' || kind === 'tag') {
        const entity = TERM_ENTITY[kind];
        const term = await manager.findOneBy(entity, { id: row.localId });
        if (!term) return this.forget(manager, row);
        if (term.modifiedUtc !== row.localModifiedUtc && this.settings.policy !== 'overwrite') {
          return this.settle(manager, row, this.settings.policy === 'skip' ? 'skipped' : 'kept', 'gone at the source but edited here');
        }
        if (!this.settings.dryRun) {
          await keepingLinks(manager, kind, row.localId, term);
          this.wrote = true;
        }
        await this.forget(manager, row);
        return { action: 'trashed', kind, sourceId: row.sourceRecordId, localId: row.localId };
      }
      const entity = ITEM_ENTITY[kind];
      const item = (await manager.findOneBy(entity, { id: row.localId })) as PublishableEntity | null;
      if (!item || item.status === 'trash') return this.settle(manager, row, 'unchanged');
      if (item.modifiedUtc !== row.localModifiedUtc && this.settings.policy !== 'overwrite') {
        return this.settle(manager, row, this.settings.policy === 'skip' ? 'skipped' : 'kept', 'gone at the source but edited here');
      }
      const modifiedUtc = nowUtcWall();
      if (!this.settings.dryRun) {
        const trash = async () => {
          const slug = await freeSlug(manager, TABLE[kind], `${item.slug.replace(/__trashed(-\d+)?$/, '')}__trashed`, item.id);
          await this.recording(manager, kind, item.id, async () => {
            await manager.update(entity, { id: item.id }, { status: 'trash', preTrashStatus: item.status, slug, modifiedUtc } as never);
            if (kind === 'venue')
              await manager
                .createQueryBuilder()
                .update(EventEntity)
                .set({ venueId: null })
                .where('venue_id = :id', { id: item.id })
                .execute();
            if (kind === 'organizer') await manager.delete(EventOrganizerEntity, { organizerId: item.id });
          });
        };
        if (kind === 'event') await keepingTermCounts(manager, [item.id], trash);
        else await trash();
      }
      row.sourceStatus = 'trash';
      row.localModifiedUtc = modifiedUtc;
      row.lastSeenRun = this.settings.runId;
      if (!this.settings.dryRun) await manager.save(ImportMappingEntity, row);
      return { action: 'trashed', kind, sourceId: row.sourceRecordId, localId: row.localId };
    });
  }

  private async forget(manager: EntityManager, row: ImportMappingEntity): Promise<Outcome> {
    this.mappings.delete(keyOf(row.kind, row.sourceRecordId));
    if (!this.settings.dryRun) {
      await manager.delete(ImportMappingEntity, { sourceId: this.settings.sourceId, kind: row.kind, sourceRecordId: row.sourceRecordId });
    }
    return { action: 'unchanged', kind: row.kind, sourceId: row.sourceRecordId, localId: row.localId };
  }
}

function nameOf(record: EventRecord | LinkedRecord): string {
  return record.kind === 'event' ? record.title : record.name;
}

function venueFields(record: VenueRecord) {
  return {
    address: record.address,
    city: record.city,
    country: record.country,
    province: record.province,
    state: record.state,
    zip: record.zip,
    phone: record.phone,
    stateprovince: record.stateprovince,
    website: record.website,
    showMap: record.showMap,
    showMapLink: record.showMapLink,
    geoLat: record.geoLat,
    geoLng: record.geoLng,
  };
}

function organizerFields(record: OrganizerRecord) {
  return { phone: record.phone, website: record.website, email: record.email };
}

/** Deletes a term as `DELETE /categories/<id>` does: links go, children move up, counts follow. */
async function keepingLinks(manager: EntityManager, kind: 'category' | 'tag', id: number, term: CategoryEntity | TagEntity): Promise<void> {
  const table = kind === 'category' ? 'event_categories' : 'event_tags';
  const column = kind === 'category' ? 'category_id' : 'tag_id';
  const entity = TERM_ENTITY[kind];
  await manager.createQueryBuilder().delete().from(table).where(`${column} = :id`, { id }).execute();
  if (kind === 'category') {
    const children = (await manager.findBy(CategoryEntity, { parentId: id })).map((child) => child.id);
    await recordingChanges(manager, 'category', children, () =>
      manager.update(CategoryEntity, { parentId: id }, { parentId: (term as CategoryEntity).parentId ?? 0 }),
    );
  }
  await recordingChanges(manager, kind, [id], () => manager.delete(entity, { id }));
}
