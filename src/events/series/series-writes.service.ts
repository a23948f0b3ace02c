import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { nowUtcWall } from '../../common/dates/wall-time.js';
import { preconditionFailed } from '../../common/http/preconditions.js';
import type { AuthUser } from '../../common/http/request-context.js';
import { rowUnchanged } from '../../common/sql/unchanged-row.js';
import { recordingChanges } from '../../changes/change-recording.js';
import { ItemsService } from '../../items/items.service.js';
import type { UpdateEventDto } from '../dto/update-event.dto.js';
import type { EventDates } from '../event-dates.js';
import { EventLinksService } from '../event-links.service.js';
import { keepingTermCounts } from '../event-term-counts.js';
import { EventWriteRulesService, type LinkPlan } from '../event-write-rules.service.js';
import { EventEntity } from '../event.entity.js';
import { type SeriesDelete, type SeriesEdit, SeriesScopesService } from './series-scopes.service.js';
import { SeriesUpdatesService } from './series-updates.service.js';

/** What an update's checks found, for its write. */
export interface CheckedUpdate {
  now: Date;
  dateUtc: string | undefined;
  dates: EventDates | undefined;
  plan: LinkPlan;
}

/**
 * The writes that concern a series (an event of one, or a `recurrence` that makes one): each in one
 * transaction that keeps the term counts of every event it reaches. The checks, the permission and
 * `If-Match` come first, in `EventsService`; `ifMatch` is the event the condition was evaluated on,
 * which the row, once locked, must still hold.
 */
@Injectable()
export class SeriesWritesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly items: ItemsService,
    private readonly rules: EventWriteRulesService,
    private readonly links: EventLinksService,
    private readonly scopes: SeriesScopesService,
    private readonly updates: SeriesUpdatesService,
  ) {}

  /**
   * An update of `event` as `edit` plans it (one occurrence, the whole series, the following ones, or a new series).
   * `translate`: the write's translations, of the event the edit stores.
   */
  update(
    event: EventEntity,
    ifMatch: EventEntity | null,
    input: UpdateEventDto,
    edit: SeriesEdit,
    user: AuthUser,
    checked: CheckedUpdate,
    translate?: (manager: EntityManager, id: number) => Promise<unknown>,
  ) {
    return this.dataSource.transaction(async (manager) => {
      await keepingTermCounts(manager, await this.scopes.reached(manager, event, edit.kind), async () => {
        if (ifMatch) await assertUnchanged(manager, ifMatch);
        const previous = this.scopes.edited(event, edit);
        const entity = manager.create(EventEntity, { ...previous });
        const dates = edit.kind === 'all' ? edit.dates : checked.dates;
        await recordingChanges(manager, 'event', [entity.id], async () => {
          await this.rules.fill(entity, input, user, manager, { ...checked, dates, isCreate: false, previous });
          this.scopes.mark(entity, previous, edit, input);
          await manager.save(EventEntity, entity);
          await this.links.link(entity.id, input, checked.plan, user, manager, false);
          if (translate) await translate(manager, entity.id);
        });
        await this.scopes.afterEdit(manager, previous, entity, edit, input, checked.now);
      });
    });
  }

  /** A trash of `event` (an occurrence, the main event with its series, or the following occurrences). */
  remove(event: EventEntity, ifMatch: EventEntity | null, reach: SeriesDelete) {
    return this.dataSource.transaction(async (manager) => {
      // trashing the main event of a series trashes the whole series
      const isMain = event.seriesId === event.id;
      await keepingTermCounts(manager, await this.scopes.reached(manager, event, isMain ? 'all' : reach.kind), async () => {
        if (ifMatch) await assertUnchanged(manager, ifMatch);
        if (reach.kind !== 'this') return this.scopes.removeInSeries(manager, event, reach, new Date());
        const slug = await this.items.trashedSlug(manager, 'events', event.slug, event.id);
        await recordingChanges(manager, 'event', [event.id], () =>
          manager.update(EventEntity, { id: event.id }, { status: 'trash', preTrashStatus: event.status, slug, modifiedUtc: nowUtcWall() }),
        );
        if (isMain) await this.updates.trashAll(manager, event.id, new Date());
      });
    });
  }
}

/** The write of a conditional request: the event's row, now locked, must still be the one the condition was evaluated on. */
async function assertUnchanged(manager: EntityManager, seen: EventEntity): Promise<void> {
  if (!(await rowUnchanged(manager, EventEntity, seen))) throw preconditionFailed();
}
