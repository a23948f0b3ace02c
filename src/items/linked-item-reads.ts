import type { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { findBySlug } from '../common/sql/find-by-slug.js';
import type { ListsConfig } from '../config/app-config.js';
import type { ItemStatus } from '../common/auth/item-status.js';
import { canReadItem, canWriteItem, mayFilterByStatus } from '../common/auth/permissions.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { ApiError, ParamProblems } from '../common/errors/api-error.js';
import { ItemErrorCode } from '../common/errors/error-codes.js';
import type { AuthUser, RequestContext } from '../common/http/request-context.js';
import { listLinks, resolvePaging, totalPages } from '../common/paging/paging.js';
import { wallToDate } from '../common/sql/columns.js';
import { containsPattern, LIKE_ESCAPE } from '../common/sql/like.js';
import { itemSearchWords } from '../common/text/search-terms.js';
import type { ImagesService } from '../images/images.service.js';
import type { ContentTranslationsService } from '../translations/content-translations.service.js';
import type { TranslatedTexts } from '../translations/content-translations.js';
import type { LinkedItemText } from './item.mapper.js';
import type { ImageResponse } from '../images/image.response.js';
import type { ItemWriteFields } from './dto/item-fields.js';
import type { ListLinkedItemsQueryDto } from './dto/list-linked-items.query.js';
import type { ItemEvents } from './item-events.js';
import type { ItemsService } from './items.service.js';
import type { LinkedItemDeps } from './linked-item-deps.js';
import type { ItemRef, LinkedItem, LinkedKindDefinition } from './linked-item-kind.js';
import { passwordUnlocks, redact } from './protection.js';
import { applyListOrder, listOrder, modifiedWindow, orderAndModifiedEcho, whereModified } from '../common/paging/list-order.js';
import { expandStatusFilter } from './status-rules.js';
import { mayWriteCondition, visibleCondition } from './visibility.js';

const LIST_LINK_ORDER = [
  'page',
  'per_page',
  'search',
  'missing_translation',
  'event',
  'has_events',
  'only_with_upcoming',
  'status',
  'orderby',
  'order',
  'modified_after',
  'modified_before',
  'password',
];
const SORT_COLUMNS = { date: 'date_utc', modified: 'modified_utc', title: 'name', id: 'id' };

/**
 * Reads of venues and organizers: the list and its filters (spec §9.5), single items, and the
 * object a reader sees (redacted when protected, spec §5.6).
 */
export class LinkedItemReads<E extends LinkedItem, D extends ItemWriteFields, R extends object> {
  protected readonly dataSource: DataSource;
  protected readonly items: ItemsService;
  protected readonly images: ImagesService;
  protected readonly events: ItemEvents;
  protected readonly translations: ContentTranslationsService;
  private readonly lists: ListsConfig;

  constructor(
    protected readonly definition: LinkedKindDefinition<E, D, R>,
    deps: LinkedItemDeps,
  ) {
    ({
      dataSource: this.dataSource,
      items: this.items,
      images: this.images,
      events: this.events,
      lists: this.lists,
      translations: this.translations,
    } = deps);
  }

  async list(query: ListLinkedItemsQueryDto, ctx: RequestContext) {
    await this.items.publishDueItems();
    const { user } = ctx;
    const problems = ParamProblems.from(query);
    const statusWords = query.status ?? [mayFilterByStatus(user) ? 'any' : 'publish'];
    const statuses = expandStatusFilter(statusWords);
    if (!statuses || (!mayFilterByStatus(user) && (statusWords.length !== 1 || statusWords[0] !== 'publish'))) {
      problems.add('status', 'status');
    }
    if (query.event !== undefined && !(await this.events.exists(query.event))) problems.add('event', 'unknown_event');
    const modified = modifiedWindow(query, this.items.site.siteTimezone, new Date(), problems);
    this.translations.checkMissingLanguage(query.missing_translation, 'missing_translation', problems);
    problems.throwIfAny(LIST_LINK_ORDER);

    const builder = this.dataSource.getRepository(this.definition.entity).createQueryBuilder('i');
    builder.where(visibleCondition('i', user, statuses as ItemStatus[]).sql);
    if (query.search !== undefined) this.whereSearch(builder, query.search, ctx);
    if (query.missing_translation !== undefined) {
      builder.andWhere(this.translations.missingCondition(this.definition.kind, 'i', query.missing_translation));
    }
    if (query.event !== undefined) builder.andWhere(this.events.linkedEventsExist(this.definition.kind, `e.id = ${Number(query.event)}`));
    if (query.has_events !== undefined) {
      const linked = this.events.linkedEventsExist(this.definition.kind, "e.status IN ('publish', 'future', 'private')");
      builder.andWhere(query.has_events ? linked : `NOT ${linked}`);
    }
    if (query.only_with_upcoming) this.whereUpcoming(builder, user);
    whereModified(builder, 'i', modified);

    const paging = resolvePaging(query, this.lists);
    const total = await this.items.listTotal(builder);
    applyListOrder(builder, 'i', listOrder(query.orderby ?? 'date', query.order, SORT_COLUMNS));
    const rows = paging.offset >= total ? [] : await builder.skip(paging.offset).take(paging.perPage).getMany();
    if (paging.page > 1 && rows.length === 0) throw new ApiError(404, ItemErrorCode.archivePageNotFound(this.definition.kind));
    const pages = totalPages(total, paging.perPage);
    const [imageMap, texts] = await Promise.all([
      this.images.payloads(rows.map((row) => row.imageId)),
      this.translations.read(ctx, { [this.definition.kind]: rows.map((row) => row.id) }),
    ]);
    const links = listLinks(`${ctx.api}/${this.definition.resource}`, paging, pages, [
      ['event', query.event],
      ['has_events', query.has_events],
      ['status', statusWords],
      ['search', query.search],
      ['missing_translation', query.missing_translation],
      ['only_with_upcoming', query.only_with_upcoming],
      ...orderAndModifiedEcho(query, modified),
    ]);
    return {
      headers: { total, totalPages: pages },
      body: {
        [this.definition.resource]: rows.map((row) =>
          this.viewIn(texts, row, imageMap.get(row.imageId ?? -1), user, query.password, false),
        ),
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
    const [images, texts] = await Promise.all([
      this.images.payloads([item.imageId]),
      this.translations.read(ctx, { [this.definition.kind]: [item.id] }),
    ]);
    return this.viewIn(texts, item, images.get(item.imageId ?? -1), ctx.user, password, true);
  }

  /**
   * The item as a single read answers `ctx.user`, read through `manager` (inside a write's transaction),
   * in any status, the trash included; null when there is none. The change log's snapshots use it.
   */
  async renderForChange(manager: EntityManager, id: number, ctx: RequestContext): Promise<R | null> {
    const item = await manager.findOneBy(this.definition.entity, { id } as never);
    if (!item) return null;
    const [images, texts] = await Promise.all([
      this.images.payloads([item.imageId], manager),
      this.translations.read(ctx, { [this.definition.kind]: [item.id] }, manager),
    ]);
    return this.viewIn(texts, item, images.get(item.imageId ?? -1), ctx.user, undefined, true);
  }

  /** The item of a path id or slug, in any status; 400 naming `id` or `slug` when there is none. */
  async requireItem(ref: ItemRef): Promise<E> {
    const repository = this.dataSource.getRepository(this.definition.entity);
    const found =
      'id' in ref
        ? Number.isSafeInteger(ref.id)
          ? await repository.findOneBy({ id: ref.id } as never)
          : null
        : await findBySlug(repository, ref.slug);
    if (!found) {
      throw 'id' in ref
        ? ApiError.invalidParam('id', `unknown_${this.definition.kind}`)
        : ApiError.invalidParam('slug', `unknown_${this.definition.kind}_slug`);
    }
    return found;
  }

  /**
   * The object as a reader sees it: redacted when protected and not unlocked (spec §5.6). `text`:
   * its name and description in the reader's languages (its own unless given).
   */
  view(
    item: E,
    image: ImageResponse | undefined,
    user: AuthUser | null,
    password: string | undefined,
    single: boolean,
    text: LinkedItemText = item,
  ): R {
    const locked = item.password !== null && item.password !== '' && !canWriteItem(user, item) && !passwordUnlocks(item.password, password);
    const payload = this.definition.toPayload(item, image, this.items.site, single && !locked, text);
    return locked ? redact(payload) : payload;
  }

  /** {@link view} in the reader's languages with the language key, when `texts` (an edition's path) is given. */
  viewIn(
    texts: TranslatedTexts | null,
    item: E,
    image: ImageResponse | undefined,
    user: AuthUser | null,
    password: string | undefined,
    single: boolean,
  ): R {
    if (!texts) return this.view(item, image, user, password, single);
    const { kind } = this.definition;
    const text = texts.fieldsOf<LinkedItemText>(kind, item.id, item);
    return texts.withKey(kind, item.id, this.view(item, image, user, password, single, text));
  }

  /** The answer of a write: unredacted, in the writer's edition with its language key through an edition's path. */
  protected async payloadOf(item: E, withJsonLd: boolean, ctx?: RequestContext): Promise<R> {
    const [images, texts] = await Promise.all([
      this.images.payloads([item.imageId]),
      ctx ? this.translations.read(ctx, { [this.definition.kind]: [item.id] }) : null,
    ]);
    const { kind } = this.definition;
    const text = texts ? texts.fieldsOf<LinkedItemText>(kind, item.id, item) : item;
    const payload = this.definition.toPayload(item, images.get(item.imageId ?? -1), this.items.site, withJsonLd, text);
    return texts ? texts.withKey(kind, item.id, payload) : payload;
  }

  /** Through an edition's path, the name and description searched are the texts the edition answers. */
  private whereSearch(builder: SelectQueryBuilder<E>, search: string, ctx: RequestContext): void {
    const { user } = ctx;
    const translated: Record<string, string> = {
      'i.name': this.translations.answeredText(ctx, this.definition.kind, 'i', 'name'),
      'i.description': this.translations.answeredText(ctx, this.definition.kind, 'i', 'description'),
    };
    const words = itemSearchWords(search).map((word) => word.toLowerCase());
    if (words.length === 0) return;
    const params: Record<string, string> = {};
    words.forEach((word, index) => (params[`word${index}`] = containsPattern(word)));
    const perColumn = this.definition.searchColumns
      .map((searched) => translated[searched] ?? searched)
      .map((column) => `(${words.map((_word, index) => `LOWER(${column}) LIKE :word${index} ${LIKE_ESCAPE}`).join(' AND ')})`);
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
      this.events.linkedEventsExist(
        this.definition.kind,
        `e.start_utc >= :upcomingNow AND e.hide_from_listings = :notHidden AND ${visible.sql}`,
      ),
      {
        upcomingNow: wallToDate(nowUtcWall()),
        notHidden: false,
      },
    );
  }
}
