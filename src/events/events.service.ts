import { Injectable } from '@nestjs/common';
import { findBySlug } from '../common/sql/find-by-slug.js';
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
import { rowUnchanged, sameRow } from '../common/sql/unchanged-row.js';
import { copyRow, definesEveryColumn, insertStatement, lockedRowWithQuery, updateStatement } from '../common/sql/plain-rows.js';
import { LINK_COLUMNS, linksFromColumns } from './event-link-columns.js';
import { StatementBatch, type StatementRead } from '../common/sql/together.js';
import { slugRowsQuery } from '../common/sql/free-slug.js';
import { isRowId } from '../common/sql/row-id.js';
import { creationChanges, itemState, knownChanges, recordingChanges } from '../changes/change-recording.js';
import { changeHooks } from '../changes/change-commits.js';
import { ItemsService } from '../items/items.service.js';
import type { ItemRef } from '../items/linked-items.service.js';
import { OrganizerEntity } from '../organizers/organizer.entity.js';
import { VenueEntity } from '../venues/venue.entity.js';
import type { UpdateEventDto } from './dto/update-event.dto.js';
import { EventLinksService, type TermLinks } from './event-links.service.js';
import { EventPayloadsService, type KnownEventLinks } from './event-payloads.service.js';
import { EventReadsService } from './event-reads.service.js';
import { keepingTermCounts, linkedContribution, newEventContribution, NO_CONTRIBUTION, termCountStatements } from './event-term-counts.js';
import { EventWriteRulesService, type LinkPlan, WRITE_ORDER } from './event-write-rules.service.js';
import type { EventDates } from './event-dates.js';
import { EventEntity } from './event.entity.js';
import type { EventResponse } from './event.response.js';
import type { RecurrenceScope } from './dto/recurrence-scope.js';
import { SeriesGenerationService } from './series/series-generation.service.js';
import { SeriesScopesService } from './series/series-scopes.service.js';
import { SeriesUpdatesService } from './series/series-updates.service.js';

/** Thrown by a write made on the row it locks (`updateUnread`, `trashUnread`) when the general path must make it instead. */
class ForGeneralPath extends Error {}

/**
 * The row a write to one event stores, made from the current one: whether it wrote the event's
 * links, and whether it may have written rows the event's answer embeds (a venue, organizers or
 * terms it named, created or linked); the terms' counts it moves are counted apart.
 */
interface RowChange {
  entity: EventEntity;
  linksWritten: boolean;
  embeddedWritten: boolean;
}

/**
 * What a write to one event stored, with the links and rows its answer embeds; whether the data
 * version moved with its commit, and whether the write left the rows its answer embeds alone.
 */
interface OneEventWritten {
  event: EventEntity;
  links: KnownEventLinks;
  bumped: boolean;
  leavesEmbedded: boolean;
}

/**
 * Event writes (spec §11.2-11.6): checks, then permission, then `If-Match` on updates and deletes,
 * then one transaction that fills the record, links organizers and terms and keeps the term counts,
 * then the answer.
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
    private readonly seriesUpdates: SeriesUpdatesService,
    private readonly scopes: SeriesScopesService,
  ) {}

  async create(input: UpdateEventDto, ctx: RequestContext): Promise<{ id: number; body: EventResponse }> {
    const now = new Date();
    const problems = ParamProblems.from(input);
    const { dateUtc, dates, plan } = await this.rules.validate(input, null, ctx.user, now, problems);
    const series = this.series.plan(input.recurrence, dates, now, problems);
    problems.throwIfAny(WRITE_ORDER);
    if (!canCreate('events', ctx.user)) throw ApiError.forbidden(ctx.user !== null);
    const user = ctx.user as AuthUser;
    const inserted = await this.writing('create', () =>
      this.dataSource.transaction(async (manager) => {
        // the new id, the slugs the title's slug competes with and whether the commit takes snapshots, in one round trip
        const base = this.items.slugBase(input.slug, input.title ?? '');
        const first = new StatementBatch();
        let id = 0;
        first.read(this.items.idQuery(manager, 'event'), (allocated) => (id = allocated));
        first.read(base ? slugRowsQuery(manager, 'events', base) : null);
        first.read(changeHooks(manager)?.snapshotProbe(manager) ?? null);
        await first.run(manager);
        const event = manager.create(EventEntity, {
          id,
          cost: null,
          costSymbol: '',
          costPosition: '',
          website: null,
          showMap: false,
          showMapLink: false,
          hideFromListings: false,
          sticky: false,
          featured: false,
          venueId: null,
          parentId: null,
          customFields: null,
          preTrashStatus: null,
          seriesId: null,
          seriesOriginalStart: null,
          seriesException: false,
          seriesTrashed: false,
        });
        await this.rules.fill(event, input, user, manager, { now, dateUtc, dates, plan, isCreate: true });
        if (series) Object.assign(event, { seriesId: id, seriesOriginalStart: event.startLocal });
        // what the links name first (inline organizers and terms named but unknown are created)
        const organizerIds = await this.links.resolveOrganizers(plan, user, manager);
        const terms: TermLinks = await this.links.resolveTerms(input, manager);
        const termsOf = (taxonomy: 'category' | 'tag') =>
          terms
            .filter(({ service }) => service.definition.taxonomy === taxonomy)
            .flatMap(({ ids }) => ids.map((termId) => ({ eventId: id, termId })));
        const links: KnownEventLinks = {
          organizers: organizerIds.map((organizerId, position) => ({ eventId: id, organizerId, position })),
          categories: termsOf('category'),
          tags: termsOf('tag'),
        };
        const bumped = this.items.bumpWithCommit(manager);
        // without a series to start, the rows are the transaction's last statements: they carry its commit
        const last = !series && (changeHooks(manager)?.quietCommit(manager) ?? true);
        links.rows = await this.sendNewEventRows(manager, event, links, terms, last);
        if (series) await this.series.start(manager, event, series);
        return { event, links, bumped };
      }),
    );
    await this.items.dataChanged(inserted.bumped);
    // the answer is built from the row as written when that set every column (a series' start may change it)
    const fromMemory = !series && definesEveryColumn(this.dataSource.manager, EventEntity, inserted.event);
    const created = fromMemory
      ? inserted.event
      : await this.dataSource.getRepository(EventEntity).findOneByOrFail({ id: inserted.event.id });
    const id = created.id;
    ctx.subject = created;
    const [body] = await this.payloads.of([created], ctx, undefined, false, undefined, fromMemory ? inserted.links : undefined);
    return { id, body };
  }

  /**
   * A new event's rows in one round trip (`runTogether`): the record, its organizer links, its
   * change, the term counts (their row locks also serve the links' foreign-key checks, see
   * `lockForLinking`) and the term links, so that the terms' rows stay locked for the least time
   * before the commit; then the rows its answer embeds, as this transaction wrote them. With
   * `last`, the commit goes in the same round trip: the terms' rows are then unlocked as soon as
   * the server is done. Answers the rows read.
   */
  private async sendNewEventRows(
    manager: EntityManager,
    event: EventEntity,
    links: KnownEventLinks,
    terms: TermLinks,
    last: boolean,
  ): Promise<Required<NonNullable<KnownEventLinks['rows']>>> {
    const batch = new StatementBatch();
    batch.send(insertStatement(manager, EventEntity, [event]));
    batch.send(
      this.links.organizerLinks(
        event.id,
        links.organizers.map((link) => link.organizerId),
        manager,
      ),
    );
    batch.read(creationChanges(manager, 'event', new Map([[event.id, itemState(event)]])));
    const linked = terms.map(({ service, ids }) => ({ links: service.definition.joinTable, ids }));
    for (const count of termCountStatements(manager, NO_CONTRIBUTION, newEventContribution(event.status === 'publish', linked)))
      batch.send(count);
    for (const { service, ids } of terms) batch.send(this.links.termLinks(event.id, service, ids));
    const rows = this.payloads.embeddedRowsQueries(manager, event.venueId, links, batch);
    await batch.run(manager, last);
    return rows;
  }

  /**
   * A write to one event outside any series (an update of it, its trash), in its transaction and
   * two round trips: the event's row locked and read with its links, whether the commit takes
   * snapshots for the webhooks, the version of the rows events embed (and `ahead`, a read the change
   * will want); then `change`, which makes the row to store from the current one (and may write
   * links itself, saying so); then the changed columns, the change, the term counts moved by what
   * changed and the rows the answer embeds, together, with the data version and the commit when no
   * snapshot is to be taken (else those go on their own after the snapshots). A write that left the
   * embedded rows alone (no venue, organizer or term named, no count moved) takes them from those
   * this process kept at the version read, when it has them all, and leaves that version as it is.
   * The answer is built from what was written, without reading it back. Without the row, `missing`
   * is thrown (by default the event's 404).
   */
  private async writeOneEvent(
    manager: EntityManager,
    id: number,
    seen: EventEntity | null,
    change: (current: EventEntity) => Promise<RowChange>,
    ahead: StatementRead<void> | null = null,
    missing: () => Error = () => new ApiError(404, ErrorCode.EventNotFound, { id }),
  ): Promise<OneEventWritten> {
    // the links as the row keeps them (the link tables' triggers write them there), read with it
    const locking = lockedRowWithQuery(manager, EventEntity, id, LINK_COLUMNS);
    const first = new StatementBatch();
    const read: { row?: EventEntity | null; links?: KnownEventLinks; embeddedAt?: string } = {};
    first.read(locking, (found) => {
      read.row = found?.row ?? null;
      if (found) read.links = linksFromColumns(id, found.also);
    });
    first.read(changeHooks(manager)?.snapshotProbe(manager) ?? null);
    first.read(ahead);
    first.read(this.items.embeddedVersionQuery(), (version) => (read.embeddedAt = version));
    await first.run(manager);
    const locked = read.row;
    const before = read.links as KnownEventLinks;
    if (!locked) throw missing();
    // a conditional write: the row must still hold what the condition was evaluated on
    if (seen && !sameRow(locked, seen)) throw preconditionFailed();
    const { entity, linksWritten, embeddedWritten } = await change(locked);
    // links an update wrote are read again, by the same statement
    const linking = linksWritten ? this.payloads.linksQuery([id]) : null;
    const after = linking ? linking.read(await manager.query(linking.statement.sql)) : before;
    const batch = new StatementBatch();
    batch.send(updateStatement(manager, EventEntity, locked, entity));
    batch.read(knownChanges(manager, 'event', new Map([[id, itemState(locked)]]), new Map([[id, itemState(entity)]])));
    const counts = termCountStatements(
      manager,
      linkedContribution(locked.status === 'publish', before),
      linkedContribution(entity.status === 'publish', after),
    );
    for (const count of counts) batch.send(count);
    // a write that left the rows its answer embeds alone may answer with rows kept at the version it read, and leaves that version
    const leavesEmbedded = !embeddedWritten && counts.length === 0;
    const rows = this.payloads.embeddedRowsQueries(
      manager,
      entity.venueId,
      after,
      batch,
      leavesEmbedded ? (read.embeddedAt ?? null) : null,
    );
    const bumped = this.items.bumpWithCommit(manager, !leavesEmbedded);
    await batch.run(manager, changeHooks(manager)?.quietCommit(manager) ?? true);
    return { event: entity, links: { ...after, rows }, bumped, leavesEmbedded };
  }

  async update(ref: ItemRef, input: UpdateEventDto, ctx: RequestContext, queryScope?: RecurrenceScope): Promise<EventResponse> {
    const now = new Date();
    if ('id' in ref && input.recurrence === undefined && (input.recurrence_scope ?? queryScope) === undefined && ctx.ifMatch === null) {
      const answered = await this.updateUnread(ref.id, input, ctx, now);
      if (answered) return answered;
    }
    const target = await this.itemForPermission(ref, 'update');
    if (target && target.kind === 'event') ctx.subject = target.event;
    const problems = ParamProblems.from(input);
    const current = target?.kind === 'event' ? target.event : null;
    const { dateUtc, dates, plan } = await this.rules.validate(input, current, ctx.user, now, problems);
    const scope = input.recurrence_scope ?? queryScope;
    const edit = current ? await this.scopes.planUpdate(input, scope, current, dates, now, problems) : null;
    problems.throwIfAny(WRITE_ORDER);
    this.assertMayWrite(target, ctx.user);
    // an edit of more than one occurrence takes the permissions of the main event too
    if (edit && (edit.kind === 'all' || edit.kind === 'following')) this.assertMayWrite({ kind: 'event', event: edit.main }, ctx.user);
    const ifMatch = await this.checkIfMatch(ref, target, ctx);
    if (target === null && 'slug' in ref)
      throw new ApiError(404, ErrorCode.EventNotFound, { slug: ref.slug }, { messageKey: MESSAGE_VARIANTS.eventNotFoundBySlug });
    const event = ifMatch ?? (target?.kind === 'event' ? target.event : await this.reads.requireEvent(ref));
    const series = edit ?? { kind: 'this' as const, recurrence: null };
    const user = ctx.user as AuthUser;
    if (series.kind === 'this' && !series.recurrence && event.seriesId === null) {
      // an event outside any series, as most are: its own row and links only
      const written = await this.writing('update', () =>
        this.dataSource.transaction((manager) =>
          this.writeOneEvent(manager, event.id, ifMatch, (current) =>
            this.updatedRow(manager, current, input, user, { now, dateUtc, dates, plan }),
          ),
        ),
      );
      return this.answerOfWrite(written, ctx);
    }
    await this.writing('update', () =>
      this.dataSource.transaction(async (manager) => {
        await keepingTermCounts(manager, await this.scopes.reached(manager, event, series.kind), async () => {
          if (ifMatch) await assertUnchanged(manager, ifMatch);
          const previous = this.scopes.edited(event, series);
          const entity = manager.create(EventEntity, { ...previous });
          const editDates = series.kind === 'all' ? series.dates : dates;
          await recordingChanges(manager, 'event', [entity.id], async () => {
            await this.rules.fill(entity, input, user, manager, { now, dateUtc, dates: editDates, plan, isCreate: false, previous });
            this.scopes.mark(entity, previous, series, input);
            await manager.save(EventEntity, entity);
            await this.links.link(entity.id, input, plan, user, manager, false);
          });
          await this.scopes.afterEdit(manager, previous, entity, series, input, now);
        });
      }),
    );
    await this.items.dataChanged();
    const updated = await this.dataSource.getRepository(EventEntity).findOneByOrFail({ id: event.id });
    ctx.subject = updated;
    const [body] = await this.payloads.of([updated], ctx, undefined, false);
    return body;
  }

  /**
   * An update by id of an event outside any series, with no recurrence or scope asked and no
   * `If-Match`, as most are, checked and written on the row the transaction locks: the event is
   * read once. The same checks as {@link update}'s, in the same order: the fields (which read
   * elsewhere, before the transaction), the dates (which need the row), then the permission. Answers
   * null, having written nothing, for what the general path must handle: field problems
   * (it answers them with the dates' problems), an id that is not an event's, an event in a series.
   */
  private async updateUnread(id: number, input: UpdateEventDto, ctx: RequestContext, now: Date): Promise<EventResponse | null> {
    const problems = ParamProblems.from(input);
    const { dateUtc, plan } = await this.rules.checkFields(input, id, ctx.user, now, problems);
    if (!problems.empty) return null;
    return this.writeUnread('update', id, ctx, async (manager, current) => {
      const dates = this.rules.datesOf(input, current, now, problems);
      problems.throwIfAny(WRITE_ORDER);
      this.assertMayWrite({ kind: 'event', event: current }, ctx.user);
      return this.updatedRow(manager, current, input, ctx.user as AuthUser, { now, dateUtc, dates, plan });
    });
  }

  /** The row an update of an event outside any series stores, filled from `current` and `input`, with its links written. */
  private async updatedRow(
    manager: EntityManager,
    current: EventEntity,
    input: UpdateEventDto,
    user: AuthUser,
    checked: { now: Date; dateUtc: string | undefined; dates: EventDates | undefined; plan: LinkPlan },
  ): Promise<RowChange> {
    const entity = copyRow(manager, EventEntity, current);
    await this.rules.fill(entity, input, user, manager, { ...checked, isCreate: false, previous: current });
    const linksWritten = await this.links.link(entity.id, input, checked.plan, user, manager, false);
    // a venue, organizers or terms named may be created (inline, or terms by a new name): only an update naming none leaves their rows alone
    const named = input.venue !== undefined || input.organizer !== undefined || input.categories !== undefined || input.tags !== undefined;
    return { entity, linksWritten, embeddedWritten: linksWritten || named };
  }

  /**
   * A trash by id of an event outside any series, without a scope or `If-Match`, checked and
   * written on the row the transaction locks, as {@link updateUnread} does: the permission, then
   * 410 for an event in the trash, as {@link remove} checks them. The slugs its trashed slug
   * competes with are read with the row. Null for an id that is not an event's and for
   * an event in a series.
   */
  private trashUnread(id: number, ctx: RequestContext): Promise<EventResponse | null> {
    return this.writeUnread(
      'delete',
      id,
      ctx,
      async (manager, current) => {
        this.assertMayWrite({ kind: 'event', event: current }, ctx.user);
        if (current.status === 'trash') throw new ApiError(410, ItemErrorCode.inTrash('event'));
        const slug = await this.items.trashedSlug(manager, 'events', current.slug, current.id);
        return { entity: this.trashedRow(manager, current, slug), linksWritten: false, embeddedWritten: false };
      },
      (manager) => this.items.trashedSlugRowsQuery(manager, 'events', id),
    );
  }

  /**
   * A write by id of an event outside any series, checked and made by `change` on the row its
   * transaction locks ({@link writeOneEvent}, with the read `ahead` makes), then answered. Null,
   * rolled back with nothing written, when the general path must make it: the id is not an
   * event's, or the event is in a series.
   */
  private async writeUnread(
    operation: 'update' | 'delete',
    id: number,
    ctx: RequestContext,
    change: (manager: EntityManager, current: EventEntity) => Promise<RowChange>,
    ahead: (manager: EntityManager) => StatementRead<void> | null = () => null,
  ): Promise<EventResponse | null> {
    // an id no row can have (a path of hundreds of digits reads as Infinity) is the general path's, which answers it without a statement
    if (!isRowId(id)) return null;
    let written: Awaited<ReturnType<EventsService['writeOneEvent']>>;
    try {
      written = await this.writing(operation, () =>
        this.dataSource.transaction((manager) =>
          this.writeOneEvent(
            manager,
            id,
            null,
            (current) => {
              if (current.seriesId !== null) throw new ForGeneralPath();
              ctx.subject = current;
              return change(manager, current);
            },
            ahead(manager),
            () => new ForGeneralPath(),
          ),
        ),
      );
    } catch (error) {
      if (error instanceof ForGeneralPath) return null;
      throw error;
    }
    return this.answerOfWrite(written, ctx);
  }

  /** The row of an event moved to the trash with `slug`. */
  private trashedRow(manager: EntityManager, current: EventEntity, slug: string): EventEntity {
    return copyRow(manager, EventEntity, current, { status: 'trash', preTrashStatus: current.status, slug, modifiedUtc: nowUtcWall() });
  }

  async remove(ref: ItemRef, ctx: RequestContext, scope?: RecurrenceScope): Promise<EventResponse> {
    if ('id' in ref && scope === undefined && ctx.ifMatch === null) {
      const answered = await this.trashUnread(ref.id, ctx);
      if (answered) return answered;
    }
    // with If-Match, an unknown slug is not a parameter error but a failed precondition (after permission)
    const target = await this.itemForPermission(ref, ctx.ifMatch === null ? 'delete' : 'update');
    if (target && target.kind === 'event') ctx.subject = target.event;
    const reach = target?.kind === 'event' ? await this.scopes.planDelete(target.event, scope, new Date()) : { kind: 'this' as const };
    this.assertMayWrite(target, ctx.user);
    if (reach.kind !== 'this') this.assertMayWrite({ kind: 'event', event: reach.main }, ctx.user);
    const ifMatch = await this.checkIfMatch(ref, target, ctx);
    const event = ifMatch ?? (target?.kind === 'event' ? target.event : await this.reads.requireEvent(ref));
    if (event.status === 'trash') throw new ApiError(410, ItemErrorCode.inTrash('event'));
    if (reach.kind === 'this' && event.seriesId === null) {
      // an event outside any series: its row, with the slug it gets in the trash read ahead
      const trashedBase = this.items.trashedSlugBase(event.slug);
      const written = await this.writing('delete', () =>
        this.dataSource.transaction((manager) =>
          this.writeOneEvent(
            manager,
            event.id,
            ifMatch,
            async (current) => {
              if (current.status === 'trash') throw new ApiError(410, ItemErrorCode.inTrash('event'));
              const slug = await this.items.trashedSlug(manager, 'events', current.slug, current.id);
              return { entity: this.trashedRow(manager, current, slug), linksWritten: false, embeddedWritten: false };
            },
            slugRowsQuery(manager, 'events', trashedBase),
          ),
        ),
      );
      return this.answerOfWrite(written, ctx);
    }
    await this.writing('delete', () =>
      this.dataSource.transaction(async (manager) => {
        // trashing the main event of a series trashes the whole series
        const isMain = event.seriesId === event.id;
        await keepingTermCounts(manager, await this.scopes.reached(manager, event, isMain ? 'all' : reach.kind), async () => {
          if (ifMatch) await assertUnchanged(manager, ifMatch);
          if (reach.kind !== 'this') return this.scopes.removeInSeries(manager, event, reach, new Date());
          const slug = await this.items.trashedSlug(manager, 'events', event.slug, event.id);
          await recordingChanges(manager, 'event', [event.id], () =>
            manager.update(
              EventEntity,
              { id: event.id },
              { status: 'trash', preTrashStatus: event.status, slug, modifiedUtc: nowUtcWall() },
            ),
          );
          if (isMain) await this.seriesUpdates.trashAll(manager, event.id, new Date());
        });
      }),
    );
    await this.items.dataChanged();
    const trashed = await this.dataSource.getRepository(EventEntity).findOneByOrFail({ id: event.id });
    ctx.subject = trashed;
    const [body] = await this.payloads.of([trashed], ctx, undefined, false);
    return body;
  }

  /** The answer of {@link writeOneEvent}'s write, once committed: the event as written, with the rows it read. */
  private async answerOfWrite(written: OneEventWritten, ctx: RequestContext) {
    await this.items.dataChanged(written.bumped, !written.leavesEmbedded);
    ctx.subject = written.event;
    const [body] = await this.payloads.of([written.event], ctx, undefined, false, undefined, written.links);
    return body;
  }

  /**
   * The record the permission check of an update or delete looks at (spec §4.6 step 7): the event,
   * another kind of item, or nothing (then the general "may create events" check applies).
   */
  private async itemForPermission(
    ref: ItemRef,
    operation: 'update' | 'delete',
  ): Promise<
    | { kind: 'event'; event: EventEntity }
    | { kind: 'other'; item: { authorId: number; status: ItemStatus; preTrashStatus: ItemStatus | null } }
    | null
  > {
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
      const entity = kind === 'venue' ? VenueEntity : OrganizerEntity;
      const item = await this.dataSource.getRepository(entity).findOneBy({ id: ref.id });
      return item ? { kind: 'other', item } : null;
    }
    if (kind === 'image') return { kind: 'other', item: { authorId: 0, status: 'publish', preTrashStatus: null } };
    return null;
  }

  /**
   * `If-Match` of an update or delete (after validation and permission): 412 unless the event
   * exists and, for a listed tag, a `GET` of the same URL by this requester would answer it now.
   * Returns the event the condition was evaluated on (loaded before the answer was rendered): the
   * write starts from it and checks, under the row lock, that the row still holds it. Null without
   * `If-Match`.
   */
  private async checkIfMatch(
    ref: ItemRef,
    target: Awaited<ReturnType<EventsService['itemForPermission']>>,
    ctx: RequestContext,
  ): Promise<EventEntity | null> {
    const ifMatch = IfMatch.of(ctx);
    if (!ifMatch) return null;
    if (target?.kind !== 'event') throw preconditionFailed();
    await ifMatch.assert(() => this.reads.findOne(ref, ctx, ifMatch.password));
    return target.event;
  }

  private assertMayWrite(target: Awaited<ReturnType<EventsService['itemForPermission']>>, user: AuthUser | null): void {
    const allowed = target === null ? canCreate('events', user) : canWriteItem(user, target.kind === 'event' ? target.event : target.item);
    if (!allowed) throw ApiError.forbidden(user !== null);
  }

  /** Storage failures of writes are 500 with the operation's own code (spec §12.2); lost races are retried. */
  private async writing<T>(operation: 'create' | 'update' | 'delete', work: () => Promise<T>): Promise<T> {
    try {
      return await retryOnConflict(work);
    } catch (error) {
      if (error instanceof ApiError || error instanceof ForGeneralPath || isDatabaseUnavailable(error)) throw error;
      throw Object.assign(new ApiError(500, ItemErrorCode.couldNot(operation, 'event')), { cause: error });
    }
  }
}

/** The write of a conditional request: the event's row, now locked, must still be the one the condition was evaluated on. */
async function assertUnchanged(manager: EntityManager, seen: EventEntity): Promise<void> {
  if (!(await rowUnchanged(manager, EventEntity, seen))) throw preconditionFailed();
}
