import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { EntityManager } from 'typeorm';
import { taggedIdsQuery } from '../common/sql/find-in.js';
import { canCreate, canReadItem, canWriteItem } from '../common/auth/permissions.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { ApiError, ParamProblems } from '../common/errors/api-error.js';
import { ItemErrorCode } from '../common/errors/error-codes.js';
import { retryOnConflict } from '../common/errors/db-errors.js';
import { IfMatch, preconditionFailed } from '../common/http/preconditions.js';
import type { AuthUser, RequestContext } from '../common/http/request-context.js';
import { rowUnchanged } from '../common/sql/unchanged-row.js';
import { sanitizeRichText, stripTags } from '../common/text/html.js';
import type { TranslationChanges } from '../translations/content-translations.service.js';
import type { ItemWriteFields } from './dto/item-fields.js';
import type { ItemWritesService } from './item-writes.service.js';
import type { LinkedItemDeps } from './linked-item-deps.js';
import type { ItemRef, LinkedItem, LinkedKindDefinition } from './linked-item-kind.js';
import { LinkedItemReads } from './linked-item-reads.js';
import { recordingChanges, recordingCreation } from '../changes/change-recording.js';

export type { ItemRef, LinkedItem, LinkedKindDefinition } from './linked-item-kind.js';

/**
 * Venues and organizers: the same statuses, trash, password protection, de-duplication, search and
 * list filters, configured per kind by a {@link LinkedKindDefinition}. Reads come from
 * {@link LinkedItemReads}; this class adds the writes.
 */
export class LinkedItemsService<E extends LinkedItem, D extends ItemWriteFields, R extends object> extends LinkedItemReads<E, D, R> {
  private readonly writes: ItemWritesService;

  constructor(definition: LinkedKindDefinition<E, D, R>, deps: LinkedItemDeps) {
    super(definition, deps);
    this.writes = deps.writes;
  }

  async create(input: D, ctx: RequestContext): Promise<{ id: number; body: R }> {
    const now = new Date();
    const prepared = await this.prepareCreate(input, ctx.user, now, ctx);
    if (!canCreate(this.definition.resource, ctx.user)) throw ApiError.forbidden(ctx.user !== null);
    const user = ctx.user as AuthUser;
    const existing = await this.findDuplicate(input, user);
    if (existing) return { id: existing.id, body: await this.payloadOf(existing, false, ctx) };
    const id = await retryOnConflict(() =>
      this.dataSource.transaction((manager) => this.insertPrepared(manager, prepared, input, user, now)),
    );
    await this.items.dataChanged();
    return { id, body: await this.payloadOf(await this.requireItem({ id }), false, ctx) };
  }

  /** Validation of a create (DTO already parsed); throws the collected parameter problems. */
  async prepareCreate(
    input: D,
    user: AuthUser | null,
    now: Date,
    ctx?: RequestContext,
  ): Promise<{ entity: E; dateUtc: string | undefined; translated?: TranslationChanges }> {
    const entity = new this.definition.entity();
    const problems = ParamProblems.from(input);
    const dateUtc = await this.writes.check(input, problems, now, user);
    this.definition.applyFields(entity, input, problems, true);
    // inline items of an event write (no ctx) take no translations
    const translated = ctx ? this.translations.split(this.definition.kind, ctx, input, problems, 'create').changes : undefined;
    problems.throwIfAny(this.definition.writeOrder);
    return { entity, dateUtc, translated };
  }

  async insertPrepared(
    manager: EntityManager,
    prepared: { entity: E; dateUtc: string | undefined; translated?: TranslationChanges },
    input: D,
    user: AuthUser,
    now: Date,
  ): Promise<number> {
    const id = await this.items.allocateId(manager, this.definition.kind);
    const entity = Object.assign(new this.definition.entity(), prepared.entity);
    await this.fillCommon(entity, input, user, manager, { id, dateUtc: prepared.dateUtc, now, isCreate: true });
    await recordingCreation(manager, this.definition.kind, [id], async () => {
      await manager.insert(this.definition.entity, entity as never);
      if (prepared.translated) await this.translations.write(manager, this.definition.kind, id, prepared.translated);
    });
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
  /**
   * The statement that lists which of `ids` may be linked (they exist and are not in the trash), each
   * row tagged `t`: an event write checks all its links in one statement (a UNION of these). `ids`
   * must be safe positive integers.
   */
  linkableIdsQuery(ids: number[], t: number): string {
    return taggedIdsQuery(this.dataSource.manager, this.definition.entity, t, ids, "status <> 'trash'");
  }

  async update(ref: ItemRef, input: D, ctx: RequestContext): Promise<R> {
    const now = new Date();
    const ifMatch = IfMatch.of(ctx);
    const item = await this.requireItemToWrite(ref, ctx, ifMatch);
    ctx.subject = item;
    const problems = ParamProblems.from(input);
    const dateUtc = await this.writes.check(input, problems, now, ctx.user);
    const draft = Object.assign(new this.definition.entity(), item);
    const { input: own, changes: translated } = this.translations.split(this.definition.kind, ctx, input, problems, 'update');
    this.definition.applyFields(draft, own, problems, false);
    problems.throwIfAny(this.definition.writeOrder);
    if (!canWriteItem(ctx.user, item)) throw ApiError.forbidden(ctx.user !== null);
    if (ifMatch) await ifMatch.assert(() => this.findOne(ref, ctx, ifMatch.password));
    const user = ctx.user as AuthUser;
    await retryOnConflict(() =>
      this.dataSource.transaction(async (manager) => {
        if (ifMatch) await this.assertUnchanged(manager, item);
        const entity = Object.assign(new this.definition.entity(), draft);
        await this.fillCommon(entity, own, user, manager, { id: item.id, dateUtc, now, isCreate: false, previous: item });
        await recordingChanges(manager, this.definition.kind, [item.id], async () => {
          await manager.save(this.definition.entity, entity as never);
          await this.translations.write(manager, this.definition.kind, item.id, translated);
        });
      }),
    );
    await this.items.dataChanged();
    const updated = await this.requireItem({ id: item.id });
    ctx.subject = updated;
    return this.payloadOf(updated, false, ctx);
  }

  /** Moves the item to the trash and unlinks it from every event (spec §5.7, §11.7). */
  async remove(ref: ItemRef, ctx: RequestContext): Promise<R> {
    const ifMatch = IfMatch.of(ctx);
    const item = await this.requireItemToWrite(ref, ctx, ifMatch);
    ctx.subject = item;
    if (!canWriteItem(ctx.user, item)) throw ApiError.forbidden(ctx.user !== null);
    if (ifMatch) await ifMatch.assert(() => this.findOne(ref, ctx, ifMatch.password));
    if (item.status === 'trash') throw new ApiError(410, ItemErrorCode.inTrash(this.definition.kind));
    try {
      await retryOnConflict(() =>
        this.dataSource.transaction(async (manager) => {
          if (ifMatch) await this.assertUnchanged(manager, item);
          const slug = await this.items.trashedSlug(manager, this.definition.table, item.slug, item.id);
          await recordingChanges(manager, this.definition.kind, [item.id], () =>
            manager.update(this.definition.entity, { id: item.id }, {
              status: 'trash',
              preTrashStatus: item.status,
              slug,
              modifiedUtc: nowUtcWall(),
            } as never),
          );
          await this.events.unlink(manager, this.definition.kind, item.id);
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

  /**
   * The item an update or delete addresses. Without `If-Match` an unknown id or slug is a parameter
   * error (400, before permission, spec §4.6); with it, the precondition fails (412) once the
   * requester passes the check v1 applies when there is no item: may create items of this kind.
   */
  private async requireItemToWrite(ref: ItemRef, ctx: RequestContext, ifMatch: IfMatch | null): Promise<E> {
    if (!ifMatch) return this.requireItem(ref);
    const found = await this.requireItem(ref).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 400) return null;
      throw error;
    });
    if (found) return found;
    if (!canCreate(this.definition.resource, ctx.user)) throw ApiError.forbidden(ctx.user !== null);
    throw preconditionFailed();
  }

  /** A conditional write: the row, now locked, must still be the one the condition was evaluated on. */
  private async assertUnchanged(manager: EntityManager, seen: E): Promise<void> {
    if (!(await rowUnchanged(manager, this.definition.entity, seen))) throw preconditionFailed();
  }

  /** The shared rules (spec §5.2, §5.7, §6.7) around the item's name. */
  private async fillCommon(
    entity: E,
    input: D,
    user: AuthUser,
    manager: EntityManager,
    context: { id: number; dateUtc: string | undefined; now: Date; isCreate: boolean; previous?: E },
  ): Promise<void> {
    entity.id = context.id;
    await this.writes.fillContent(entity, input, user, manager, context.isCreate);
    const sentName = (input as Record<string, unknown>)[this.definition.nameField];
    entity.name = stripTags(typeof sentName === 'string' ? sentName : (entity.name ?? ''));
    await this.writes.fillPublication(entity, input, entity.name, user, manager, { ...context, table: this.definition.table });
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

  private columnOf(property: string): string {
    const column = this.dataSource.getMetadata(this.definition.entity).findColumnWithPropertyName(property);
    return column?.databaseName ?? property;
  }
}
