import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { ListsConfig } from '../config/app-config.js';
import { canCreate, canReadItem, canWriteItem, mayFilterByStatus, type ItemResource } from '../common/auth/permissions.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { ApiError, ParamProblems } from '../common/errors/api-error.js';
import { retryOnConflict } from '../common/errors/db-errors.js';
import { freeSlug } from '../common/sql/free-slug.js';
import type { AuthUser, RequestContext } from '../common/http/request-context.js';
import { listLinks, resolvePaging, totalPages } from '../common/paging/paging.js';
import { sanitizeRichText, stripTags } from '../common/text/html.js';
import { itemSearchWords } from '../common/text/search-terms.js';
import { containsPattern, LIKE_ESCAPE } from '../common/sql/like.js';
import { sanitizeSlug } from '../common/text/slug.js';
import { EventEntity } from '../events/event.entity.js';
import type { ImagesService } from '../images/images.service.js';
import type { ImageResponse } from '../images/image.response.js';
import type { ItemWriteFields } from './dto/item-fields.js';
import type { ListLinkedItemsQueryDto } from './dto/list-linked-items.query.js';
import type { ItemKind } from './item-id.entity.js';
import type { ItemStatus } from '../common/auth/item-status.js';
import type { ItemsService } from './items.service.js';
import type { SiteLinks } from './item.mapper.js';
import { passwordUnlocks, redact } from './protection.js';
import type { PublishableEntity } from './publishable.entity.js';
import { defaultCreateStatus, expandStatusFilter, isPublicationStatus, storedStatus } from './status-rules.js';
import { mayWriteCondition, visibleCondition } from './visibility.js';
import { wallToDate } from '../common/sql/columns.js';
import { ItemErrorCode } from '../common/errors/error-codes.js';

/** The entity fields venues and organizers share, plus their name. */
export type LinkedItem = PublishableEntity & { name: string };

export type ItemRef = { id: number } | { slug: string };

/** What differs between venues and organizers; the rules themselves live in {@link LinkedItemsService}. */
export interface LinkedKindDefinition<E extends LinkedItem, D extends ItemWriteFields, R extends object> {
  kind: Extract<ItemKind, 'venue' | 'organizer'>;
  resource: Extract<ItemResource, 'venues' | 'organizers'>;
  table: string;
  entity: new () => E;
  /** Body field holding the name (`venue`, `organizer`). */
  nameField: keyof D & string;
  /** Write fields in parameter-table order, for ordering errors. */
  writeOrder: readonly string[];
  /** Body fields compared for de-duplication on create, with the entity property each maps to. */
  dedupFields: ReadonlyArray<[keyof D & string, keyof E & string]>;
  /** SQL expressions searched (spec §9.5), over alias `i`. */
  searchColumns: readonly string[];
  /** SQL `EXISTS (...)` over events linked to item `i`, with an extra condition on event alias `e`. */
  linkedEventsExist: (eventCondition: string) => string;
  /** Applies the kind's own fields of a write to the entity; returns problems it finds. */
  applyFields: (entity: E, input: D, problems: ParamProblems, isCreate: boolean) => void;
  /** Removes the item from every event (trashing unlinks, spec §5.7). */
  unlinkFromEvents: (manager: EntityManager, id: number) => Promise<void>;
  toPayload: (entity: E, image: ImageResponse | undefined, site: SiteLinks, withJsonLd: boolean) => R;
}

const LIST_LINK_ORDER = ['page', 'per_page', 'search', 'event', 'has_events', 'only_with_upcoming', 'status', 'password'];

/**
 * Venues and organizers: the same statuses, trash, password protection, de-duplication, search and
 * list filters, configured per kind by a {@link LinkedKindDefinition}.
 */
export class LinkedItemsService<E extends LinkedItem, D extends ItemWriteFields, R extends object> {
  constructor(
    protected readonly definition: LinkedKindDefinition<E, D, R>,
    protected readonly dataSource: DataSource,
    protected readonly items: ItemsService,
    protected readonly images: ImagesService,
    private readonly lists: ListsConfig,
  ) {}

  async list(query: ListLinkedItemsQueryDto, ctx: RequestContext) {
    await this.items.publishDueItems();
    const { user } = ctx;
    const problems = ParamProblems.from(query);
    const statusWords = query.status ?? [mayFilterByStatus(user) ? 'any' : 'publish'];
    const statuses = expandStatusFilter(statusWords);
    if (!statuses || (!mayFilterByStatus(user) && (statusWords.length !== 1 || statusWords[0] !== 'publish'))) {
      problems.add('status', 'status');
    }
    if (query.event !== undefined && !(await this.eventExists(query.event))) problems.add('event', 'unknown_event');
    problems.throwIfAny(LIST_LINK_ORDER);

    const builder = this.dataSource.getRepository(this.definition.entity).createQueryBuilder('i');
    builder.where(visibleCondition('i', user, statuses as ItemStatus[]).sql);
    if (query.search !== undefined) this.whereSearch(builder, query.search, user);
    if (query.event !== undefined) builder.andWhere(this.definition.linkedEventsExist(`e.id = ${Number(query.event)}`));
    if (query.has_events !== undefined) {
      const linked = this.definition.linkedEventsExist("e.status IN ('publish', 'future', 'private')");
      builder.andWhere(query.has_events ? linked : `NOT ${linked}`);
    }
    if (query.only_with_upcoming) this.whereUpcoming(builder, user);

    const paging = resolvePaging(query, this.lists);
    const total = await builder.getCount();
    const rows = await builder.orderBy('i.date_utc', 'DESC').addOrderBy('i.id', 'DESC').skip(paging.offset).take(paging.perPage).getMany();
    if (paging.page > 1 && rows.length === 0) throw new ApiError(404, ItemErrorCode.archivePageNotFound(this.definition.kind));
    const pages = totalPages(total, paging.perPage);
    const imageMap = await this.images.payloads(rows.map((row) => row.imageId));
    const links = listLinks(`${ctx.api}/${this.definition.resource}`, paging, pages, [
      ['event', query.event],
      ['has_events', query.has_events],
      ['status', statusWords],
      ['search', query.search],
      ['only_with_upcoming', query.only_with_upcoming],
    ]);
    return {
      headers: { total, totalPages: pages },
      body: {
        [this.definition.resource]: rows.map((row) => this.view(row, imageMap.get(row.imageId ?? -1), user, query.password, false)),
        ...links,
        total,
        total_pages: pages,
      },
    };
  }

  async findOne(ref: ItemRef, ctx: RequestContext, password: string | undefined) {
    await this.items.publishDueItems();
    const item = await this.requireItem(ref);
    ctx.subject = item;
    if (!canReadItem(ctx.user, item)) throw new ApiError(403, ItemErrorCode.notAccessible(this.definition.kind));
    const images = await this.images.payloads([item.imageId]);
    return this.view(item, images.get(item.imageId ?? -1), ctx.user, password, true);
  }

  async create(input: D, ctx: RequestContext): Promise<{ id: number; body: R }> {
    const now = new Date();
    const prepared = await this.prepareCreate(input, ctx.user, now);
    if (!canCreate(this.definition.resource, ctx.user)) throw ApiError.forbidden(ctx.user !== null);
    const user = ctx.user as AuthUser;
    const existing = await this.findDuplicate(input, user);
    if (existing) return { id: existing.id, body: await this.payloadOf(existing, false) };
    const id = await retryOnConflict(() =>
      this.dataSource.transaction((manager) => this.insertPrepared(manager, prepared, input, user, now)),
    );
    await this.items.dataChanged();
    return { id, body: await this.payloadOf(await this.requireItem({ id }), false) };
  }

  /** Validation of a create (DTO already parsed); throws the collected parameter problems. */
  async prepareCreate(input: D, user: AuthUser | null, now: Date): Promise<{ entity: E; dateUtc: string | undefined }> {
    const entity = new this.definition.entity();
    const problems = ParamProblems.from(input);
    const dateUtc = await this.validateCommon(input, problems, now, user);
    this.definition.applyFields(entity, input, problems, true);
    problems.throwIfAny(this.definition.writeOrder);
    return { entity, dateUtc };
  }

  async insertPrepared(
    manager: EntityManager,
    prepared: { entity: E; dateUtc: string | undefined },
    input: D,
    user: AuthUser,
    now: Date,
  ): Promise<number> {
    const id = await this.items.allocateId(manager, this.definition.kind);
    const entity = Object.assign(new this.definition.entity(), prepared.entity);
    await this.fillCommon(entity, input, user, manager, { id, dateUtc: prepared.dateUtc, now, isCreate: true });
    await manager.insert(this.definition.entity, entity as never);
    return id;
  }

  /**
   * Checks an inline item of an event write (spec §11.3) with the rules of the create route; returns
   * a function that, inside the event's transaction, reuses a duplicate or creates the item.
   */
  async prepareInline(
    data: Record<string, unknown>,
    dtoClass: new () => D,
    user: AuthUser | null,
    now: Date,
  ): Promise<((manager: EntityManager, author: AuthUser) => Promise<number>) | null> {
    const input = plainToInstance(dtoClass, data);
    if ((await validate(input as object, { whitelist: true, forbidUnknownValues: false })).length > 0) return null;
    try {
      const prepared = await this.prepareCreate(input, user, now);
      return async (manager, author) => {
        const existing = await this.findDuplicate(input, author, manager);
        return existing ? existing.id : this.insertPrepared(manager, prepared, input, author, now);
      };
    } catch (error) {
      if (error instanceof ApiError) return null;
      throw error;
    }
  }

  /** Whether `id` is an existing, non-trashed item of this kind (events may link it). */
  async isLinkable(id: number, manager?: EntityManager): Promise<boolean> {
    if (!Number.isSafeInteger(id) || id <= 0) return false;
    const item = await (manager ?? this.dataSource.manager).findOneBy(this.definition.entity, { id } as never);
    return item !== null && item.status !== 'trash';
  }

  async update(ref: ItemRef, input: D, ctx: RequestContext): Promise<R> {
    const now = new Date();
    const item = await this.requireItem(ref);
    ctx.subject = item;
    const problems = ParamProblems.from(input);
    const dateUtc = await this.validateCommon(input, problems, now, ctx.user);
    const draft = Object.assign(new this.definition.entity(), item);
    this.definition.applyFields(draft, input, problems, false);
    problems.throwIfAny(this.definition.writeOrder);
    if (!canWriteItem(ctx.user, item)) throw ApiError.forbidden(ctx.user !== null);
    const user = ctx.user as AuthUser;
    await retryOnConflict(() =>
      this.dataSource.transaction(async (manager) => {
        const entity = Object.assign(new this.definition.entity(), draft);
        await this.fillCommon(entity, input, user, manager, { id: item.id, dateUtc, now, isCreate: false, previous: item });
        await manager.save(this.definition.entity, entity as never);
      }),
    );
    await this.items.dataChanged();
    const updated = await this.requireItem({ id: item.id });
    ctx.subject = updated;
    return this.payloadOf(updated, false);
  }

  /** Moves the item to the trash and unlinks it from every event (spec §5.7, §11.7). */
  async remove(ref: ItemRef, ctx: RequestContext): Promise<R> {
    const item = await this.requireItem(ref);
    ctx.subject = item;
    if (!canWriteItem(ctx.user, item)) throw ApiError.forbidden(ctx.user !== null);
    if (item.status === 'trash') throw new ApiError(410, ItemErrorCode.inTrash(this.definition.kind));
    try {
      await retryOnConflict(() =>
        this.dataSource.transaction(async (manager) => {
          await manager.update(
            this.definition.entity,
            { id: item.id } as never,
            {
              status: 'trash',
              preTrashStatus: item.status,
              slug: await this.items.trashedSlug(manager, this.definition.table, item.slug, item.id),
              modifiedUtc: nowUtcWall(),
            } as never,
          );
          await this.definition.unlinkFromEvents(manager, item.id);
        }),
      );
      await this.items.dataChanged();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError(500, ItemErrorCode.couldNot('delete', this.definition.kind));
    }
    const trashed = await this.requireItem({ id: item.id });
    ctx.subject = trashed;
    return this.payloadOf(trashed, false);
  }

  /** The item of a path id or slug, in any status; 400 naming `id` or `slug` when there is none. */
  async requireItem(ref: ItemRef): Promise<E> {
    const repository = this.dataSource.getRepository(this.definition.entity);
    const found =
      'id' in ref
        ? Number.isSafeInteger(ref.id)
          ? await repository.findOneBy({ id: ref.id } as never)
          : null
        : await repository.findOneBy({ slug: ref.slug } as never);
    if (!found) {
      throw 'id' in ref
        ? ApiError.invalidParam('id', `unknown_${this.definition.kind}`)
        : ApiError.invalidParam('slug', `unknown_${this.definition.kind}_slug`);
    }
    return found;
  }

  /** The object as a reader sees it: redacted when protected and not unlocked (spec §5.6). */
  view(item: E, image: ImageResponse | undefined, user: AuthUser | null, password: string | undefined, single: boolean): R {
    const locked = item.password !== null && item.password !== '' && !canWriteItem(user, item) && !passwordUnlocks(item.password, password);
    const payload = this.definition.toPayload(item, image, this.items.site, single && !locked);
    return locked ? redact(payload) : payload;
  }

  private async payloadOf(item: E, withJsonLd: boolean): Promise<R> {
    const images = await this.images.payloads([item.imageId]);
    return this.definition.toPayload(item, images.get(item.imageId ?? -1), this.items.site, withJsonLd);
  }

  /** Checks shared by create and update; returns the publication date when one was sent. */
  private async validateCommon(input: D, problems: ParamProblems, now: Date, user: AuthUser | null): Promise<string | undefined> {
    if (input.slug !== undefined && sanitizeSlug(input.slug) === '') problems.add('slug', 'not_empty');
    if (input.author !== undefined && !(await this.items.userExists(input.author))) problems.add('author', 'author');
    const dateUtc = this.items.publicationDate(input, problems, now);
    if (input.image !== undefined && !(await this.images.acceptable(input.image, user))) problems.add('image', 'image');
    return dateUtc;
  }

  /** Status, dates, slug, author, texts, image and password: the rules of spec §5.2, §5.7, §6.7. */
  private async fillCommon(
    entity: E,
    input: D,
    user: AuthUser,
    manager: EntityManager,
    context: { id: number; dateUtc: string | undefined; now: Date; isCreate: boolean; previous?: E },
  ): Promise<void> {
    const nowUtc = nowUtcWall(context.now);
    entity.id = context.id;
    if (context.isCreate) {
      entity.authorId = input.author ?? user.id;
      entity.description = '';
      entity.excerpt = '';
      entity.password = null;
      entity.imageId = null;
      entity.preTrashStatus = null;
    } else if (input.author !== undefined) {
      entity.authorId = input.author;
    }
    entity.name = stripTags(String((input as Record<string, unknown>)[this.definition.nameField] ?? entity.name ?? ''));
    if (input.description !== undefined) entity.description = sanitizeRichText(input.description);
    if (input.excerpt !== undefined) entity.excerpt = sanitizeRichText(input.excerpt);
    if (input.post_password !== undefined) entity.password = input.post_password === '' ? null : input.post_password;
    if (input.image !== undefined) entity.imageId = (await this.images.resolve(input.image, user, manager)) ?? null;

    const wasTrashed = context.previous?.status === 'trash';
    const requested = input.status ?? (context.isCreate ? defaultCreateStatus(user) : undefined);
    const explicitDate = context.dateUtc !== undefined;
    if (explicitDate) {
      entity.dateUtc = context.dateUtc as string;
      entity.dateFloating = false;
    } else if (context.isCreate) {
      entity.dateUtc = nowUtc;
      entity.dateFloating = true;
    }
    if (requested !== undefined) {
      // a floating publication date becomes the moment of first publication (spec §6.7)
      if (!explicitDate && entity.dateFloating && isPublicationStatus(requested)) entity.dateUtc = nowUtc;
      entity.status = storedStatus(requested, user, entity.dateUtc, nowUtc);
      if (wasTrashed) {
        entity.preTrashStatus = null;
        entity.slug = await this.items.restoredSlug(manager, this.definition.table, entity.slug, entity.id);
      }
    }
    if (!explicitDate && entity.dateFloating && entity.status !== 'draft' && entity.status !== 'pending') entity.dateFloating = false;
    if (context.isCreate) {
      entity.slug = await this.items.slugFor(manager, this.definition.table, input.slug, entity.name, entity.id);
    } else if (input.slug !== undefined) {
      const base = sanitizeSlug(input.slug);
      const slug = await freeSlug(manager, this.definition.table, base, entity.id);
      entity.slug = entity.status === 'trash' ? await this.items.trashedSlug(manager, this.definition.table, slug, entity.id) : slug;
    }
    entity.modifiedUtc = nowUtc;
  }

  /** An existing readable, non-trashed item equal on every sent comparable field (spec §11.7). */
  private async findDuplicate(input: D, user: AuthUser, manager?: EntityManager): Promise<E | null> {
    const sent = this.definition.dedupFields.filter(([field]) => {
      const value = (input as Record<string, unknown>)[field];
      return typeof value === 'string' && value.trim() !== '';
    });
    const builder = (manager ?? this.dataSource.manager)
      .getRepository(this.definition.entity)
      .createQueryBuilder('i')
      .where("i.status <> 'trash'");
    sent.forEach(([field, property], index) => {
      const column = this.columnOf(property);
      const raw = String((input as Record<string, unknown>)[field]);
      const value =
        field === this.definition.nameField ? stripTags(raw) : ['description', 'excerpt'].includes(field) ? sanitizeRichText(raw) : raw;
      builder.andWhere(`LOWER(TRIM(i.${column})) = LOWER(:dedup${index})`, { [`dedup${index}`]: value.trim() });
    });
    const candidates = await builder.orderBy('i.id', 'ASC').getMany();
    return candidates.find((candidate) => canReadItem(user, candidate)) ?? null;
  }

  private whereSearch(builder: SelectQueryBuilder<E>, search: string, user: AuthUser | null): void {
    const words = itemSearchWords(search).map((word) => word.toLowerCase());
    if (words.length === 0) return;
    const params: Record<string, string> = {};
    words.forEach((word, index) => (params[`word${index}`] = containsPattern(word)));
    const perColumn = this.definition.searchColumns.map(
      (column) => `(${words.map((_word, index) => `LOWER(${column}) LIKE :word${index} ${LIKE_ESCAPE}`).join(' AND ')})`,
    );
    builder.andWhere(`(${perColumn.join(' OR ')})`, params);
    const mayWrite = mayWriteCondition('i', user);
    builder.andWhere(`(i.password IS NULL OR i.password = '' OR ${mayWrite.sql})`);
  }

  /** Linked to an event starting now or later that the requester would see in `GET /events`. */
  private whereUpcoming(builder: SelectQueryBuilder<E>, user: AuthUser | null): void {
    const visible = visibleCondition(
      'e',
      user,
      mayFilterByStatus(user) ? ['publish', 'future', 'draft', 'pending', 'private'] : ['publish'],
    );
    builder.andWhere(
      this.definition.linkedEventsExist(`e.start_utc >= :upcomingNow AND e.hide_from_listings = :notHidden AND ${visible.sql}`),
      {
        upcomingNow: wallToDate(nowUtcWall()),
        notHidden: false,
      },
    );
  }

  private columnOf(property: string): string {
    const column = this.dataSource.getMetadata(this.definition.entity).findColumnWithPropertyName(property);
    return column?.databaseName ?? property;
  }

  private async eventExists(id: number): Promise<boolean> {
    return Number.isSafeInteger(id) && id > 0 && this.dataSource.getRepository(EventEntity).existsBy({ id });
  }
}
