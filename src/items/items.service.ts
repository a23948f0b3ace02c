import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import type { HttpConfig, SiteConfig } from '../config/app-config.js';
import { parseDateInput } from '../common/dates/parse-date.js';
import type { ParamProblems } from '../common/errors/api-error.js';
import { sanitizeSlug } from '../common/text/slug.js';
import { freeSlug } from '../common/sql/free-slug.js';
import { UserEntity } from '../users/user.entity.js';
import { DataVersionService, VersionedValues } from '../cache/data-version.service.js';
import { ItemIdEntity, type ItemKind } from './item-id.entity.js';
import type { SiteLinks } from './item.mapper.js';
import { isRowId } from '../common/sql/row-id.js';
import { ScheduledPublication } from './scheduled-publication.js';

export const TRASH_SUFFIX = '__trashed';
/** The trash suffix with the counter it may carry (see {@link ItemsService.trashedSlug}). */
const TRASH_SUFFIX_PATTERN = /__trashed(-\d+)?$/;

function withoutTrashSuffix(slug: string): string {
  return slug.replace(TRASH_SUFFIX_PATTERN, '');
}

/** Rules shared by events, venues and organizers: ids, slugs, authors, publication dates, schedules. */
@Injectable()
export class ItemsService {
  readonly site: SiteLinks;
  /** Exact list totals by counting query, for the current data version. */
  private readonly totals: VersionedValues<number>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: ConfigService,
    private readonly version: DataVersionService,
    private readonly publication: ScheduledPublication,
  ) {
    const http = config.getOrThrow<HttpConfig>('http');
    this.site = {
      publicUrl: http.publicUrl,
      globalIdBase: http.globalIdBase,
      siteTimezone: config.getOrThrow<SiteConfig>('site').timezone,
    };
    this.totals = new VersionedValues<number>(version);
  }

  /**
   * The exact number of items a list query matches (its `total`), counted once per data version for
   * the same query and parameters: every write moves the version, and the date bounds of a list are
   * parameters, so an unchanged calendar is not counted again for each page or each reader.
   */
  listTotal(builder: SelectQueryBuilder<ObjectLiteral>): Promise<number> {
    const [sql, parameters] = builder.getQueryAndParameters();
    return this.totals.get(JSON.stringify([sql, parameters]), () => builder.getCount());
  }

  /** The base a new item's slug is made of (see {@link slugFor}), when it does not depend on its id. */
  slugBase(wanted: string | undefined, name: string): string {
    return wanted !== undefined ? sanitizeSlug(wanted) : sanitizeSlug(name);
  }

  async allocateId(manager: EntityManager, kind: ItemKind): Promise<number> {
    const [id] = await this.allocateIds(manager, kind, 1);
    return id;
  }

  /**
   * Many ids of one kind at once (the occurrences of a recurring event): one statement per 500,
   * whose rows get consecutive numbers (SQLite writes alone; MySQL/MariaDB number a multi-row
   * insert of known length in one go).
   */
  async allocateIds(manager: EntityManager, kind: ItemKind, count: number): Promise<number[]> {
    const ids: number[] = [];
    for (let left = count; left > 0; left -= 500) {
      const { identifiers } = await manager.insert(
        ItemIdEntity,
        Array.from({ length: Math.min(500, left) }, () => ({ kind })),
      );
      ids.push(...identifiers.map((identifier) => Number(identifier.id)));
    }
    return ids;
  }

  async kindOf(id: number): Promise<ItemKind | null> {
    if (!isRowId(id)) return null;
    const row = await this.dataSource.getRepository(ItemIdEntity).findOneBy({ id });
    return row?.kind ?? null;
  }

  /** Slug for a new item: the sanitised wish or name, the id when that is empty. */
  async slugFor(manager: EntityManager, table: string, wanted: string | undefined, name: string, id: number): Promise<string> {
    const base = this.slugBase(wanted, name) || String(id);
    return freeSlug(manager, table, base, id);
  }

  async userExists(id: number): Promise<boolean> {
    return isRowId(id) && this.dataSource.getRepository(UserEntity).existsBy({ id });
  }

  /**
   * The publication instant of `date` (site time) and `date_utc` (UTC), `date_utc` winning (spec §6.7).
   * Undefined when neither was sent; problems are reported for unparseable values.
   */
  publicationDate(input: { date?: string; date_utc?: string }, problems: ParamProblems, now: Date): string | undefined {
    let result: string | undefined;
    if (input.date !== undefined) {
      const parsed = parseDateInput(input.date, this.site.siteTimezone, now);
      if (!parsed) problems.add('date', 'date');
      else result = parsed.utc;
    }
    if (input.date_utc !== undefined) {
      const parsed = parseDateInput(input.date_utc, 'UTC', now);
      if (!parsed) problems.add('date_utc', 'date');
      else result = parsed.utc;
    }
    return result;
  }

  /**
   * The slug of an item moved to the trash: `<slug>__trashed` (spec §3.3), or `<slug>__trashed-2`,
   * `-3`… while an earlier item of the same slug is still in the trash (slugs stay unique).
   */
  async trashedSlug(manager: EntityManager, table: string, slug: string, id: number): Promise<string> {
    return freeSlug(manager, table, this.trashedSlugBase(slug), id);
  }

  /** What {@link trashedSlug} makes free in its table. */
  trashedSlugBase(slug: string): string {
    return `${withoutTrashSuffix(slug)}${TRASH_SUFFIX}`;
  }

  /** The slug an item gets back when restored from the trash (suffixed if taken meanwhile). */
  async restoredSlug(manager: EntityManager, table: string, slug: string, id: number): Promise<string> {
    const base = withoutTrashSuffix(slug);
    return freeSlug(manager, table, base || String(id), id);
  }

  /**
   * Scheduled items whose publication time has passed are published (spec §5.3) before a read: the
   * read waits for the publication when one is due, and sends no statement otherwise
   * ({@link ScheduledPublication}, which publishes them on time whether or not anybody reads).
   */
  publishDueItems(): Promise<void> {
    return this.publication.beforeRead();
  }

  /**
   * After a committed write: cached answers and per-version values are stale (the answer to the
   * write itself is built from fresh data), and scheduled items must be checked again.
   * `embeddedRowsWritten` false: the write vouches that it changed no venue, organizer or term row
   * (nor a term's count). `mayHaveScheduled` false: it vouches that no row it wrote is scheduled
   * (`future`), so the earliest publication time known stays right, or early when it published or
   * trashed the item that set it (the wake-up then finds nothing due and looks again).
   */
  async dataChanged(embeddedRowsWritten = true, mayHaveScheduled = true): Promise<void> {
    if (mayHaveScheduled) this.publication.written();
    await (embeddedRowsWritten ? this.version.bump() : this.version.bumpLeavingEmbedded());
  }
}
