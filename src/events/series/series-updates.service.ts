import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { occurrenceTimes } from '../../common/dates/recurrence-expansion.js';
import { nowUtcWall } from '../../common/dates/wall-time.js';
import { formatWall, parseWall } from '../../common/dates/wall-clock.js';
import { recordingChanges } from '../../changes/change-recording.js';
import { ItemsService } from '../../items/items.service.js';
import { EventEntity } from '../event.entity.js';
import { EventSeriesEntity } from './event-series.entity.js';
import { SeriesGenerationService, type SeriesPlan } from './series-generation.service.js';

/** Properties of the main event an occurrence does not take over: its identity, dates, place in the series, status and relations. */
const OWN_COLUMNS = new Set([
  'venue',
  'categories',
  'tags',
  'id',
  'slug',
  'startLocal',
  'endLocal',
  'startUtc',
  'endUtc',
  'parentId',
  'seriesId',
  'seriesOriginalStart',
  'seriesException',
  'seriesTrashed',
  'status',
  'preTrashStatus',
]);

/** Writes to a whole series (scope `all`): edits of the main event passed on, rule changes, the end of a series, its trash. */
@Injectable()
export class SeriesUpdatesService {
  constructor(
    private readonly items: ItemsService,
    private readonly generation: SeriesGenerationService,
  ) {}

  /** Ids of a series' occurrences (not the main event), trashed ones included. */
  async occurrenceIds(manager: EntityManager, mainId: number): Promise<number[]> {
    const rows = await manager
      .getRepository(EventEntity)
      .createQueryBuilder('e')
      .select('e.id', 'id')
      .where('e.series_id = :mainId AND e.id <> :mainId', { mainId })
      .getRawMany<{ id: number | string }>();
    return rows.map((row) => Number(row.id));
  }

  /**
   * After the main event of a series was updated (in the same transaction): the rule regenerated
   * (occurrences whose start the rule still gives keep their ids, vanished ones are trashed, new
   * starts become new occurrences) and every occurrence not edited on its own takes the main event's
   * fields. A start that moved with the main event (it now starts later or earlier) moves the whole
   * series, so the occurrences keep their ids. A main event edited on its own before
   * (`before.seriesException`) passes on only what this edit changed (its links when `linksChanged`).
   * Returns the ids of new occurrences.
   */
  async passOn(
    manager: EntityManager,
    before: EventEntity,
    main: EventEntity,
    plan: SeriesPlan,
    now: Date,
    linksChanged = true,
  ): Promise<number[]> {
    const onlyChanged = before.seriesException;
    const changed = (key: string, value: unknown) =>
      !onlyChanged || JSON.stringify(value) !== JSON.stringify((before as unknown as Record<string, unknown>)[key]);
    const shift = parseWall(main.startLocal).toMillis() - parseWall(before.startLocal).toMillis();
    const moved = (wall: string) => formatWall(parseWall(wall).plus({ milliseconds: shift }));
    const wanted = new Set(plan.starts.slice(1));
    const ids = await this.occurrenceIds(manager, main.id);
    const existing = ids.length > 0 ? await manager.findBy(EventEntity, { id: In(ids) }) : [];
    const covered = new Set<string>();
    const passedOn: number[] = [];
    const stamp = nowUtcWall(now);
    const restoring = before.status === 'trash' && main.status !== 'trash';
    // what each occurrence needs, decided first: only the occurrences something happens to are written and logged
    const work: Array<{ event: EventEntity; restore: boolean; trash: boolean; values: Partial<EventEntity> | null }> = [];
    for (const event of existing) {
      // restoring the main event restores the occurrences trashed with it
      const restore = restoring && event.status === 'trash' && event.seriesTrashed;
      const status = restore ? main.status : event.status;
      const start = moved(event.seriesOriginalStart ?? event.startLocal);
      if (!wanted.has(start) || covered.has(start)) {
        work.push({ event, restore, trash: status !== 'trash', values: null });
        continue;
      }
      covered.add(start);
      if (status === 'trash') {
        if (restore) work.push({ event, restore, trash: false, values: null });
        continue; // a deleted occurrence stays deleted
      }
      if (event.seriesException) {
        const values = start !== event.seriesOriginalStart ? { seriesOriginalStart: start } : null;
        if (restore || values) work.push({ event, restore, trash: false, values });
        continue;
      }
      const fields = Object.fromEntries(
        Object.entries(main).filter(([key, value]) => !OWN_COLUMNS.has(key) && value !== undefined && changed(key, value)),
      );
      const values: Partial<EventEntity> = {
        ...fields,
        status: main.status === 'trash' || !changed('status', main.status) ? status : main.status,
        ...occurrenceTimes(start, main),
        seriesOriginalStart: start,
      };
      const current = restore ? { ...event, status } : event;
      // the modification time is the write's own, not a difference
      const differs = Object.entries(values).some(
        ([key, value]) => key !== 'modifiedUtc' && JSON.stringify(current[key as keyof EventEntity]) !== JSON.stringify(value),
      );
      passedOn.push(event.id);
      if (restore || differs || linksChanged) work.push({ event, restore, trash: false, values: { ...values, modifiedUtc: stamp } });
    }
    await recordingChanges(
      manager,
      'event',
      work.map(({ event }) => event.id),
      async () => {
        for (const { event, restore, trash, values } of work) {
          if (restore) await this.restore(manager, event, main, stamp);
          if (trash) await this.trash(manager, event, stamp);
          if (values) await manager.update(EventEntity, { id: event.id }, values);
        }
        const relinked = passedOn.filter((id) => work.some(({ event }) => event.id === id));
        if (!onlyChanged || linksChanged) await this.generation.copyLinks(manager, main.id, relinked, true);
      },
    );
    const missing = plan.starts.slice(1).filter((start) => !covered.has(start));
    const added = await this.generation.addOccurrences(manager, main, missing);
    await manager.update(
      EventSeriesEntity,
      { id: main.id },
      {
        rules: plan.lines,
        timezone: main.timezone,
        generatedThrough: plan.throughWall,
        generatedCount: covered.size + added.length + 1,
        complete: plan.complete,
        modifiedUtc: stamp,
      },
    );
    return added;
  }

  /**
   * Ends a series (`recurrence` sent empty): occurrences still to come are trashed, past ones stay
   * as single events, and the main event is a single event again.
   */
  async end(manager: EntityManager, main: EventEntity, now: Date, trashFuture = true): Promise<void> {
    const ids = await this.occurrenceIds(manager, main.id);
    const stamp = nowUtcWall(now);
    const occurrences = ids.length > 0 ? await manager.findBy(EventEntity, { id: In(ids) }) : [];
    const single = { seriesId: null, seriesOriginalStart: null, seriesException: false };
    await recordingChanges(manager, 'event', ids, async () => {
      for (const event of occurrences) {
        if (trashFuture && event.startUtc > stamp && event.status !== 'trash') await this.trash(manager, event, stamp);
      }
      if (ids.length > 0) await manager.update(EventEntity, { id: In(ids) }, single);
    });
    await manager.update(EventEntity, { id: main.id }, single);
    await manager.delete(EventSeriesEntity, { id: main.id });
  }

  /** Trashing the main event trashes the whole series, occurrences edited on their own included. */
  async trashAll(manager: EntityManager, mainId: number, now: Date): Promise<void> {
    const ids = await this.occurrenceIds(manager, mainId);
    if (ids.length === 0) return;
    const stamp = nowUtcWall(now);
    const live = (await manager.findBy(EventEntity, { id: In(ids) })).filter((event) => event.status !== 'trash');
    await recordingChanges(
      manager,
      'event',
      live.map((event) => event.id),
      async () => {
        for (const event of live) await this.trash(manager, event, stamp, true);
      },
    );
  }

  /**
   * A series cut short (its later occurrences split off or deleted): the rule as `plan` now gives
   * it. A plan of null (no start left besides the main event's) makes the main event and the
   * occurrences left single events.
   */
  async truncate(manager: EntityManager, main: EventEntity, plan: SeriesPlan | null, now: Date): Promise<void> {
    if (plan === null) return this.end(manager, main, now, false);
    const left = await manager.countBy(EventEntity, { seriesId: main.id });
    await manager.update(
      EventSeriesEntity,
      { id: main.id },
      {
        rules: plan.lines,
        generatedThrough: plan.throughWall,
        generatedCount: left,
        complete: plan.complete,
        modifiedUtc: nowUtcWall(now),
      },
    );
  }

  /** Trashes events (not yet in the trash) on their own, logged. */
  async trashEvents(manager: EntityManager, events: EventEntity[], now: Date): Promise<void> {
    const stamp = nowUtcWall(now);
    const live = events.filter((event) => event.status !== 'trash');
    await recordingChanges(
      manager,
      'event',
      live.map((event) => event.id),
      async () => {
        for (const event of live) await this.trash(manager, event, stamp);
      },
    );
  }

  private async trash(manager: EntityManager, event: EventEntity, stamp: string, withSeries = false): Promise<void> {
    const slug = await this.items.trashedSlug(manager, 'events', event.slug, event.id);
    await manager.update(
      EventEntity,
      { id: event.id },
      { status: 'trash', preTrashStatus: event.status, slug, seriesTrashed: withSeries, modifiedUtc: stamp },
    );
  }

  /** An occurrence trashed with its main event, back: the main event's status (an exception its own), its slug back. */
  private async restore(manager: EntityManager, event: EventEntity, main: EventEntity, stamp: string): Promise<void> {
    const status = event.seriesException ? (event.preTrashStatus ?? 'draft') : main.status;
    const slug = await this.items.restoredSlug(manager, 'events', event.slug, event.id);
    await manager.update(EventEntity, { id: event.id }, { status, preTrashStatus: null, slug, seriesTrashed: false, modifiedUtc: stamp });
    Object.assign(event, { status, slug, preTrashStatus: null, seriesTrashed: false });
  }
}
