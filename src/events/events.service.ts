import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { canCreate, canWriteItem } from '../common/auth/permissions.js';
import type { ItemStatus } from '../common/auth/item-status.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { ApiError, ParamProblems } from '../common/errors/api-error.js';
import { ErrorCode, ItemErrorCode, MESSAGE_VARIANTS } from '../common/errors/error-codes.js';
import { isDatabaseUnavailable, retryOnConflict } from '../common/errors/db-errors.js';
import { IfMatch, preconditionFailed } from '../common/http/preconditions.js';
import type { AuthUser, RequestContext } from '../common/http/request-context.js';
import { findBySlug } from '../common/sql/find-by-slug.js';
import { updateById } from '../common/sql/rows-by-id.js';
import { changedColumns, lockedRow, sameRow } from '../common/sql/unchanged-row.js';
import { itemState, recordKnownChanges } from '../changes/change-recording.js';
import { ItemsService } from '../items/items.service.js';
import type { ItemRef } from '../items/linked-items.service.js';
import { OrganizerEntity } from '../organizers/organizer.entity.js';
import { ContentTranslationsService } from '../translations/content-translations.service.js';
import { VenueEntity } from '../venues/venue.entity.js';
import type { UpdateEventDto } from './dto/update-event.dto.js';
import type { RecurrenceScope } from './dto/recurrence-scope.js';
import { EventLinksService } from './event-links.service.js';
import { EventPayloadsService, type KnownEventLinks } from './event-payloads.service.js';
import { EventReadsService } from './event-reads.service.js';
import { linkedContribution, moveTermCounts, newEventContribution, NO_CONTRIBUTION } from './event-term-counts.js';
import { EventWriteRulesService, WRITE_ORDER } from './event-write-rules.service.js';
import { EventEntity } from './event.entity.js';
import { NEW_EVENT } from './new-event.js';
import type { EventResponse } from './event.response.js';
import { SeriesGenerationService } from './series/series-generation.service.js';
import { SeriesScopesService } from './series/series-scopes.service.js';
import { type CheckedUpdate, SeriesWritesService } from './series/series-writes.service.js';

/** What the permission check of an update or delete looks at (spec §4.6 step 7): the event, another item, or nothing. */
type PermissionTarget =
  | { kind: 'event'; event: EventEntity }
  | { kind: 'other'; item: { authorId: number; status: ItemStatus; preTrashStatus: ItemStatus | null } }
  | null;

/** The row a write to one event stores, made from the locked one, and whether it wrote links or rows the answer embeds. */
interface RowChange {
  entity: EventEntity;
  linksWritten: boolean;
  embeddedWritten: boolean;
}

/** What a write to one event stored, with its links; whether it left the rows its answer embeds (and the terms' counts) alone. */
interface OneEventWritten {
  event: EventEntity;
  links: KnownEventLinks;
  leavesEmbedded: boolean;
}

/**
 * Event writes (spec §11.2-11.6): checks, then permission, then `If-Match` on updates and deletes,
 * then one transaction that writes the record, its links, its change and the term counts, then the
 * answer, built from what was written. Writes that concern a series go to `SeriesWritesService`.
 */
@Injectable()
export class EventsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly items: ItemsService,
    private readonly rules: EventWriteRulesService,
    private readonly reads: EventReadsService,
    private readonly payloads: EventPayloadsService,
    private readonly links: EventLinksService,
    private readonly series: SeriesGenerationService,
    private readonly scopes: SeriesScopesService,
    private readonly seriesWrites: SeriesWritesService,
    private readonly translations: ContentTranslationsService,
  ) {}

  async create(input: UpdateEventDto, ctx: RequestContext): Promise<{ id: number; body: EventResponse }> {
    const now = new Date();
    const problems = ParamProblems.from(input);
    const { dateUtc, dates, plan } = await this.rules.validate(input, null, ctx.user, now, problems);
    const series = this.series.plan(input.recurrence, dates, now, problems);
    const { changes: translated } = this.translations.split('event', ctx, input, problems, 'create');
    problems.throwIfAny(WRITE_ORDER);
    if (!canCreate('events', ctx.user)) throw ApiError.forbidden(ctx.user !== null);
    const user = ctx.user as AuthUser;
    const { event, links } = await this.writing('create', () =>
      this.dataSource.transaction(async (manager) => {
        const id = await this.items.allocateId(manager, 'event');
        const event = manager.create(EventEntity, { id, ...NEW_EVENT });
        await this.rules.fill(event, input, user, manager, { now, dateUtc, dates, plan, isCreate: true });
        if (series) Object.assign(event, { seriesId: id, seriesOriginalStart: event.startLocal });
        // what the links name first (inline organizers and terms named but unknown are created)
        const organizerIds = await this.links.resolveOrganizers(plan, user, manager);
        const terms = await this.links.resolveTerms(input, manager);
        await manager.createQueryBuilder().insert().into(EventEntity).values(event).updateEntity(false).execute();
        await this.links.insertOrganizerLinks(id, organizerIds, manager);
        await this.translations.write(manager, 'event', id, translated);
        await recordKnownChanges(manager, 'event', new Map(), new Map([[id, itemState(event)]]));
        // the counts before the term links: the links' foreign-key checks then meet term rows this transaction locked already
        const linked = terms.map(({ service, ids }) => ({ links: service.definition.joinTable, ids }));
        await moveTermCounts(manager, NO_CONTRIBUTION, newEventContribution(event.status === 'publish', linked));
        for (const { service, ids } of terms) await this.links.insertTermLinks(id, service, ids, manager);
        if (series) await this.series.start(manager, event, series);
        const termsOf = (taxonomy: 'category' | 'tag') =>
          terms
            .filter(({ service }) => service.definition.taxonomy === taxonomy)
            .flatMap(({ ids }) => ids.map((termId) => ({ eventId: id, termId })));
        const links: KnownEventLinks = {
          organizers: organizerIds.map((organizerId, position) => ({ eventId: id, organizerId, position })),
          categories: termsOf('category'),
          tags: termsOf('tag'),
        };
        return { event, links };
      }),
    );
    await this.items.dataChanged(true, mayHaveScheduled(event, input));
    // a series' start may change the main event's row: read it then
    const created = series ? await this.dataSource.getRepository(EventEntity).findOneByOrFail({ id: event.id }) : event;
    ctx.subject = created;
    const [body] = await this.payloads.of([created], ctx, undefined, false, undefined, series ? undefined : links);
    return { id: created.id, body };
  }

  async update(ref: ItemRef, input: UpdateEventDto, ctx: RequestContext, queryScope?: RecurrenceScope): Promise<EventResponse> {
    const now = new Date();
    const target = await this.itemForPermission(ref, 'update');
    const current = target?.kind === 'event' ? target.event : null;
    if (current) ctx.subject = current;
    const problems = ParamProblems.from(input);
    const { dateUtc, dates, plan } = await this.rules.validate(input, current, ctx.user, now, problems);
    const edit = current ? await this.scopes.planUpdate(input, input.recurrence_scope ?? queryScope, current, dates, now, problems) : null;
    const { input: own, changes: translated } = this.translations.split('event', ctx, input, problems, 'update');
    problems.throwIfAny(WRITE_ORDER);
    this.assertMayWrite(target, ctx.user);
    // an edit of more than one occurrence takes the permissions of the main event too
    if (edit && (edit.kind === 'all' || edit.kind === 'following')) this.assertMayWrite({ kind: 'event', event: edit.main }, ctx.user);
    const ifMatch = await this.checkIfMatch(ref, target, ctx);
    if (target === null && 'slug' in ref)
      throw new ApiError(404, ErrorCode.EventNotFound, { slug: ref.slug }, { messageKey: MESSAGE_VARIANTS.eventNotFoundBySlug });
    const event = current ?? (await this.reads.requireEvent(ref));
    const user = ctx.user as AuthUser;
    const checked: CheckedUpdate = { now, dateUtc, dates, plan };
    if (edit && (edit.kind !== 'this' || edit.recurrence || event.seriesId !== null)) {
      const translate = (manager: EntityManager, id: number) => this.translations.write(manager, 'event', id, translated);
      await this.writing('update', () => this.seriesWrites.update(event, ifMatch, own, edit, user, checked, translate));
      return this.answerOfSeriesWrite(event.id, ctx);
    }
    const written = await this.writing('update', () =>
      this.dataSource.transaction((manager) =>
        this.writeOneEvent(manager, event, ifMatch !== null, async (locked) => {
          const entity = manager.create(EventEntity, { ...locked });
          await this.rules.fill(entity, own, user, manager, { ...checked, isCreate: false, previous: locked });
          await this.translations.write(manager, 'event', entity.id, translated);
          const linksWritten = await this.links.link(entity.id, input, plan, user, manager, false);
          // a venue, organizers or terms named may be created (inline, or terms by a new name): only an update naming none leaves their rows alone
          const named = [input.venue, input.organizer, input.categories, input.tags].some((value) => value !== undefined);
          return { entity, linksWritten, embeddedWritten: linksWritten || named };
        }),
      ),
    );
    return this.answerOfWrite(written, ctx, input);
  }

  async remove(ref: ItemRef, ctx: RequestContext, scope?: RecurrenceScope): Promise<EventResponse> {
    // with If-Match, an unknown slug is not a parameter error but a failed precondition (after permission)
    const target = await this.itemForPermission(ref, ctx.ifMatch === null ? 'delete' : 'update');
    if (target?.kind === 'event') ctx.subject = target.event;
    const reach = target?.kind === 'event' ? await this.scopes.planDelete(target.event, scope, new Date()) : { kind: 'this' as const };
    this.assertMayWrite(target, ctx.user);
    if (reach.kind !== 'this') this.assertMayWrite({ kind: 'event', event: reach.main }, ctx.user);
    const ifMatch = await this.checkIfMatch(ref, target, ctx);
    const event = target?.kind === 'event' ? target.event : await this.reads.requireEvent(ref);
    if (event.status === 'trash') throw new ApiError(410, ItemErrorCode.inTrash('event'));
    if (reach.kind !== 'this' || event.seriesId !== null) {
      await this.writing('delete', () => this.seriesWrites.remove(event, ifMatch, reach));
      return this.answerOfSeriesWrite(event.id, ctx);
    }
    const written = await this.writing('delete', () =>
      this.dataSource.transaction((manager) =>
        this.writeOneEvent(manager, event, ifMatch !== null, async (locked) => {
          if (locked.status === 'trash') throw new ApiError(410, ItemErrorCode.inTrash('event'));
          const slug = await this.items.trashedSlug(manager, 'events', locked.slug, locked.id);
          const changes = { status: 'trash' as const, preTrashStatus: locked.status, slug, modifiedUtc: nowUtcWall() };
          return { entity: manager.create(EventEntity, { ...locked, ...changes }), linksWritten: false, embeddedWritten: false };
        }),
      ),
    );
    return this.answerOfWrite(written, ctx);
  }

  /**
   * A write to one event outside any series, in its transaction: the row locked and read (with
   * `conditional`, it must still hold `seen`, which `If-Match` was evaluated on), its links, the
   * version of the rows events embed; then `change` makes the row to store (and may write links);
   * then the changed columns, the change, the term counts moved. A write that leaves embedded rows
   * and counts alone reads those rows here for its answer (or takes them as kept at that version).
   */
  private async writeOneEvent(
    manager: EntityManager,
    seen: EventEntity,
    conditional: boolean,
    change: (locked: EventEntity) => Promise<RowChange>,
  ): Promise<OneEventWritten> {
    const locked = await lockedRow(manager, EventEntity, seen.id);
    if (!locked) throw new ApiError(404, ErrorCode.EventNotFound, { id: seen.id });
    if (conditional && !sameRow(locked, seen)) throw preconditionFailed();
    const { links: before, embeddedAt } = await this.payloads.writeContext(manager, locked.id);
    const { entity, linksWritten, embeddedWritten } = await change(locked);
    const after = linksWritten ? await this.payloads.linksOf(manager, [locked.id]) : before;
    const changed = changedColumns(manager, EventEntity, locked, entity);
    await updateById(manager, EventEntity, locked.id, changed);
    await recordKnownChanges(manager, 'event', new Map([[locked.id, itemState(locked)]]), new Map([[locked.id, itemState(entity)]]));
    const countsMoved = await moveTermCounts(
      manager,
      linkedContribution(locked.status === 'publish', before),
      linkedContribution(entity.status === 'publish', after),
    );
    const leavesEmbedded = !embeddedWritten && !countsMoved;
    const rows = leavesEmbedded ? await this.payloads.embeddedRows(manager, entity.venueId, after, embeddedAt) : undefined;
    return { event: entity, links: { ...after, rows }, leavesEmbedded };
  }

  /** The answer of {@link writeOneEvent}'s write, once committed: the event as written, with the rows it read. */
  private async answerOfWrite(written: OneEventWritten, ctx: RequestContext, input?: UpdateEventDto): Promise<EventResponse> {
    await this.items.dataChanged(!written.leavesEmbedded, mayHaveScheduled(written.event, input));
    ctx.subject = written.event;
    const [body] = await this.payloads.of([written.event], ctx, undefined, false, undefined, written.links);
    return body;
  }

  /** The answer of a series write, once committed: the addressed event as it is now. */
  private async answerOfSeriesWrite(id: number, ctx: RequestContext): Promise<EventResponse> {
    await this.items.dataChanged();
    const event = await this.dataSource.getRepository(EventEntity).findOneByOrFail({ id });
    ctx.subject = event;
    const [body] = await this.payloads.of([event], ctx, undefined, false);
    return body;
  }

  /** The record the permission check of an update or delete looks at (spec §4.6 step 7). */
  private async itemForPermission(ref: ItemRef, operation: 'update' | 'delete'): Promise<PermissionTarget> {
    if ('slug' in ref) {
      const event = await findBySlug(this.dataSource.getRepository(EventEntity), ref.slug);
      if (event) return { kind: 'event', event };
      // an update by an unknown slug goes on as one by an unknown id (404 after the checks); a delete is 400 (spec §3.2)
      if (operation === 'update') return null;
      throw ApiError.invalidParam('slug', 'unknown_event_slug');
    }
    // the event first: the kind of the id is asked only when it is not one (one read for the usual case)
    const event = await this.reads.eventById(ref.id);
    if (event) return { kind: 'event', event };
    const kind = await this.items.kindOf(ref.id);
    if (kind === 'venue' || kind === 'organizer') {
      const item = await this.dataSource.getRepository(kind === 'venue' ? VenueEntity : OrganizerEntity).findOneBy({ id: ref.id });
      return item ? { kind: 'other', item } : null;
    }
    if (kind === 'image') return { kind: 'other', item: { authorId: 0, status: 'publish', preTrashStatus: null } };
    return null;
  }

  /**
   * `If-Match` of an update or delete (after validation and permission): 412 unless the event
   * exists and, for a listed tag, a `GET` of the same URL by this requester would answer it now.
   * Returns the event the condition was evaluated on: the write checks, under the row lock, that the
   * row still holds it. Null without `If-Match`.
   */
  private async checkIfMatch(ref: ItemRef, target: PermissionTarget, ctx: RequestContext): Promise<EventEntity | null> {
    const ifMatch = IfMatch.of(ctx);
    if (!ifMatch) return null;
    if (target?.kind !== 'event') throw preconditionFailed();
    await ifMatch.assert(() => this.reads.findOne(ref, ctx, ifMatch.password));
    return target.event;
  }

  private assertMayWrite(target: PermissionTarget, user: AuthUser | null): void {
    const allowed = target === null ? canCreate('events', user) : canWriteItem(user, target.kind === 'event' ? target.event : target.item);
    if (!allowed) throw ApiError.forbidden(user !== null);
  }

  /** Storage failures of writes are 500 with the operation's own code (spec §12.2); lost races are retried. */
  private async writing<T>(operation: 'create' | 'update' | 'delete', work: () => Promise<T>): Promise<T> {
    try {
      return await retryOnConflict(work);
    } catch (error) {
      if (error instanceof ApiError || isDatabaseUnavailable(error)) throw error;
      throw Object.assign(new ApiError(500, ItemErrorCode.couldNot(operation, 'event')), { cause: error });
    }
  }
}

/**
 * Whether an event write may have left a row scheduled (`future`): its event is, or it may have
 * created a venue or organizer inline (`ItemsService.dataChanged`). Terms are never scheduled.
 */
function mayHaveScheduled(event: EventEntity, input?: UpdateEventDto): boolean {
  return (
    event.status === 'future' ||
    [input?.venue, ...(input?.organizer ?? [])].some((link) => link !== undefined && link !== null && link.kind !== 'id')
  );
}
