import { Global, Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { recordingChanges } from '../changes/change-recording.js';
import { retryOnConflict } from '../common/errors/db-errors.js';
import { forUpdate } from '../common/sql/for-update.js';
import { idChunks } from '../common/sql/id-chunks.js';
import { ITEM_EVENTS, type ItemEvents, type LinkedKind } from '../items/item-events.js';
import { TERM_EVENTS, type TermEvents } from '../terms/term-events.js';
import { EventOrganizerEntity } from './event-organizer.entity.js';
import { keepingTermCounts } from './event-term-counts.js';
import { EventEntity } from './event.entity.js';
import { isRowId } from '../common/sql/row-id.js';

/** The events' side of the item and taxonomy rules: links, lookups and scheduled publishing. */
@Injectable()
export class EventBookkeeping implements ItemEvents, TermEvents {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async exists(id: number): Promise<boolean> {
    return isRowId(id) && this.dataSource.getRepository(EventEntity).existsBy({ id });
  }

  linkedEventsExist(kind: LinkedKind, eventCondition: string): string {
    return kind === 'venue'
      ? `EXISTS (SELECT 1 FROM events e WHERE e.venue_id = i.id AND ${eventCondition})`
      : `EXISTS (SELECT 1 FROM event_organizers eo INNER JOIN events e ON e.id = eo.event_id WHERE eo.organizer_id = i.id AND ${eventCondition})`;
  }

  async unlink(manager: EntityManager, kind: LinkedKind, id: number): Promise<void> {
    if (kind === 'venue') {
      await manager.createQueryBuilder().update(EventEntity).set({ venueId: null }).where('venue_id = :id', { id }).execute();
    } else {
      await manager.delete(EventOrganizerEntity, { organizerId: id });
    }
  }

  /**
   * Due events change term counts, so they are published in a transaction that moves them too.
   * A plain look first: most of the time nothing is due, and then no transaction is opened.
   */
  async publishDue(due: Date): Promise<number> {
    const dueEvents = (manager: EntityManager) =>
      manager
        .getRepository(EventEntity)
        .createQueryBuilder('e')
        .select('e.id', 'id')
        .where("e.status = 'future' AND e.date_utc <= :due", { due });
    if (!(await dueEvents(this.dataSource.manager).limit(1).getRawOne())) return 0;
    return retryOnConflict(() =>
      this.dataSource.transaction(async (manager) => {
        const ids = (await forUpdate(dueEvents(manager)).getRawMany<{ id: number | string }>()).map((row) => Number(row.id));
        if (ids.length === 0) return 0;
        await keepingTermCounts(manager, ids, () =>
          recordingChanges(
            manager,
            'event',
            ids,
            async () => {
              for (const chunk of idChunks(ids)) await manager.update(EventEntity, { id: In(chunk) }, { status: 'publish' });
            },
            'published',
          ),
        );
        return ids.length;
      }),
    );
  }
}

/** Provides {@link ITEM_EVENTS} and {@link TERM_EVENTS} to the item and taxonomy layers. */
@Global()
@Module({
  providers: [
    EventBookkeeping,
    { provide: ITEM_EVENTS, useExisting: EventBookkeeping },
    { provide: TERM_EVENTS, useExisting: EventBookkeeping },
  ],
  exports: [ITEM_EVENTS, TERM_EVENTS],
})
export class EventBookkeepingModule {}
