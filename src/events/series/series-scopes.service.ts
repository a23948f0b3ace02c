import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { givesStarts, splitRecurrenceLines } from '../../common/dates/recurrence-split.js';
import { formatWall, parseWall } from '../../common/dates/wall-clock.js';
import { nowUtcWall, resolveWall, wallToUtc } from '../../common/dates/wall-time.js';
import { ApiError, ParamProblems } from '../../common/errors/api-error.js';
import { idChunks } from '../../common/sql/id-chunks.js';
import { recordingChanges } from '../../changes/change-recording.js';
import type { RecurrenceScope } from '../dto/recurrence-scope.js';
import type { UpdateEventDto } from '../dto/update-event.dto.js';
import type { EventDates } from '../event-dates.js';
import { EventEntity } from '../event.entity.js';
import { EventSeriesEntity } from './event-series.entity.js';
import { SeriesGenerationService, seriesStartOf, type SeriesPlan } from './series-generation.service.js';
import { SeriesUpdatesService } from './series-updates.service.js';

/** What an update does to the series of the event it addresses (`recurrence_scope`, issue 18). */
export type SeriesEdit =
  /** A single event (a `recurrence` makes it the main event of a new series), or one occurrence on its own. */
  | { kind: 'this'; recurrence: SeriesPlan | null }
  /** The main event on its own: it becomes an exception, the series keeps its rule and start. */
  | { kind: 'main-this' }
  /** The whole series, edited through its main event (`dates`: the main event's). */
  | { kind: 'all'; main: EventEntity; dates: EventDates | undefined; recurrence: SeriesPlan | 'end' }
  /** This occurrence and the later ones: a new series split off at the occurrence's original start. */
  | {
      kind: 'following';
      main: EventEntity;
      splitWall: string;
      /** The occurrence keeps a start it was moved to on its own: it is the new series' main event as an exception. */
      keepsMove: boolean;
      old: SeriesPlan | null;
      fresh: SeriesPlan | null;
    };

/** The occurrences a delete reaches. */
export type SeriesDelete =
  | { kind: 'this' }
  | { kind: 'all'; main: EventEntity }
  | { kind: 'following'; main: EventEntity; splitWall: string; old: SeriesPlan | null };

const shifted = (wall: string, from: string, to: string): string =>
  formatWall(parseWall(wall).plus({ milliseconds: parseWall(to).toMillis() - parseWall(from).toMillis() }));

/** Scoped edits and deletes of a series: which events a write reaches, and the split of a series in two. */
@Injectable()
export class SeriesScopesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly generation: SeriesGenerationService,
    private readonly updates: SeriesUpdatesService,
  ) {}

  /** The scope of a write to `event`: null for a single event, else the one asked for or the default of its role. */
  scopeOf(event: EventEntity, asked: RecurrenceScope | undefined): RecurrenceScope | null {
    if (event.seriesId === null) return null;
    if (event.seriesId === event.id) return asked === 'following' ? 'all' : (asked ?? 'all');
    return asked ?? 'this';
  }

  /** What an update does to the series (checked before permissions; problems added to `problems`). */
  async planUpdate(
    input: UpdateEventDto,
    asked: RecurrenceScope | undefined,
    current: EventEntity,
    dates: EventDates | undefined,
    now: Date,
    problems: ParamProblems,
  ): Promise<SeriesEdit> {
    const scope = this.scopeOf(current, asked);
    const isMain = current.seriesId === current.id;
    if (scope === null) {
      const lines = input.recurrence ?? [];
      return {
        kind: 'this',
        recurrence: lines.length === 0 ? null : (this.generation.plan(lines, dates ?? current, now, problems) ?? null),
      };
    }
    if (scope === 'this') {
      if (input.recurrence !== undefined)
        problems.add('recurrence', isMain ? 'recurrence_scope_this' : 'recurrence_occurrence', { id: current.seriesId ?? 0 });
      return isMain ? { kind: 'main-this' } : { kind: 'this', recurrence: null };
    }
    const main = isMain ? current : await this.mainOf(current);
    const rules = (await this.dataSource.getRepository(EventSeriesEntity).findOneByOrFail({ id: main.id })).rules;
    if (scope === 'all') {
      const mainDates = isMain ? dates : shiftedDates(dates, current, main);
      if (input.recurrence !== undefined && input.recurrence.length === 0)
        return { kind: 'all', main, dates: mainDates, recurrence: 'end' };
      const start = shifted(seriesStartOf(main), main.startLocal, mainDates?.startLocal ?? main.startLocal);
      const resulting = { ...(mainDates ?? main), startLocal: start };
      const planned = this.generation.plan(input.recurrence ?? rules, withUtc(resulting), now, problems);
      return { kind: 'all', main, dates: mainDates, recurrence: planned ?? 'end' };
    }
    const splitWall = current.seriesOriginalStart ?? current.startLocal;
    const halves = splitRecurrenceLines(rules, main.timezone, seriesStartOf(main), splitWall);
    // an occurrence moved on its own before, its dates not edited now: the new series starts where the old rule put it
    const keepsMove = dates === undefined && current.startLocal !== splitWall;
    const start = keepsMove ? withUtc({ ...current, startLocal: splitWall }) : (dates ?? current);
    const fresh = this.generation.plan(input.recurrence ?? halves.after, start, now, problems) ?? null;
    return { kind: 'following', main, splitWall, keepsMove, old: this.oldHalf(halves.before, main, now), fresh };
  }

  /** What a delete reaches (its scope checked before permissions). */
  async planDelete(event: EventEntity, asked: RecurrenceScope | undefined, now: Date): Promise<SeriesDelete> {
    const scope = this.scopeOf(event, asked);
    const isMain = event.seriesId === event.id;
    if (scope === null || isMain || scope === 'this') {
      if (isMain && asked === 'this') throw ApiError.invalidParam('recurrence_scope', 'recurrence_scope_main');
      return { kind: 'this' };
    }
    const main = await this.mainOf(event);
    if (scope === 'all') return { kind: 'all', main };
    const rules = (await this.dataSource.getRepository(EventSeriesEntity).findOneByOrFail({ id: main.id })).rules;
    const splitWall = event.seriesOriginalStart ?? event.startLocal;
    const halves = splitRecurrenceLines(rules, main.timezone, seriesStartOf(main), splitWall);
    return { kind: 'following', main, splitWall, old: this.oldHalf(halves.before, main, now) };
  }

  /** The event an update saves (before it is filled): the main event for an edit of the whole series. */
  edited(event: EventEntity, edit: SeriesEdit): EventEntity {
    return edit.kind === 'all' && edit.main.id !== event.id ? edit.main : event;
  }

  /** The series fields of the edited event, set after it was filled with the input. */
  mark(entity: EventEntity, previous: EventEntity, edit: SeriesEdit, input: UpdateEventDto): void {
    if (edit.kind === 'this' && previous.seriesId !== null) entity.seriesException = true;
    if (edit.kind === 'this' && edit.recurrence) Object.assign(entity, { seriesId: entity.id, seriesOriginalStart: entity.startLocal });
    if (edit.kind === 'main-this') entity.seriesException = true;
    if (edit.kind === 'all' && previous.seriesOriginalStart !== null)
      entity.seriesOriginalStart = shifted(previous.seriesOriginalStart, previous.startLocal, entity.startLocal);
    if (edit.kind === 'following') {
      Object.assign(entity, {
        seriesId: entity.id,
        seriesOriginalStart: edit.keepsMove ? edit.splitWall : entity.startLocal,
        seriesException: edit.keepsMove,
        seriesTrashed: false,
      });
      if (input.post_parent === undefined) entity.parentId = null;
    }
  }

  /** The rest of an update's series writes, in its transaction, after the edited event was saved. */
  async afterEdit(
    manager: EntityManager,
    previous: EventEntity,
    entity: EventEntity,
    edit: SeriesEdit,
    input: UpdateEventDto,
    now: Date,
  ): Promise<void> {
    const linksChanged = [input.organizer, input.categories, input.tags].some((value) => value !== undefined);
    if (edit.kind === 'this' && edit.recurrence) await this.generation.start(manager, entity, edit.recurrence);
    if (edit.kind === 'all') {
      if (edit.recurrence === 'end') await this.updates.end(manager, entity, now);
      else await this.updates.passOn(manager, previous, entity, edit.recurrence, now, linksChanged);
    }
    if (edit.kind === 'following') await this.split(manager, previous, entity, edit, now, linksChanged);
  }

  /** The events of the series a write to `event` reaches (their term counts kept around it). */
  async reached(manager: EntityManager, event: EventEntity, kind: SeriesEdit['kind'] | SeriesDelete['kind']): Promise<number[]> {
    if (event.seriesId === null || kind === 'main-this' || (kind === 'this' && event.seriesId !== event.id)) return [event.id];
    return [event.seriesId, ...(await this.updates.occurrenceIds(manager, event.seriesId))].filter((id, at, all) => all.indexOf(id) === at);
  }

  /** A delete of more than the addressed occurrence, in its transaction (the addressed event is not yet trashed). */
  async removeInSeries(
    manager: EntityManager,
    event: EventEntity,
    reach: Exclude<SeriesDelete, { kind: 'this' }>,
    now: Date,
  ): Promise<void> {
    const members = await manager.findBy(EventEntity, { seriesId: reach.main.id });
    if (reach.kind === 'all') {
      await this.updates.trashEvents(
        manager,
        members.filter((member) => member.id === reach.main.id),
        now,
      );
      await this.updates.trashAll(manager, reach.main.id, now);
      return;
    }
    const following = members.filter(
      (member) => member.id === event.id || (member.id !== reach.main.id && originalStart(member) >= reach.splitWall),
    );
    await this.updates.trashEvents(manager, following, now);
    await this.updates.truncate(manager, reach.main, reach.old, now);
  }

  /**
   * Splits a series at an occurrence just saved as the main event of its own series: the later
   * occurrences move to it (ids kept, parent the new main event), the new rule regenerates them
   * from the occurrence's start (those whose start moved with the occurrence kept, exceptions kept
   * when their original start is still given), and the old series ends before the split.
   */
  private async split(
    manager: EntityManager,
    previous: EventEntity,
    entity: EventEntity,
    edit: Extract<SeriesEdit, { kind: 'following' }>,
    now: Date,
    linksChanged: boolean,
  ) {
    const members = await manager.findBy(EventEntity, { seriesId: edit.main.id });
    const moving = members
      .filter((member) => member.id !== edit.main.id && member.id !== entity.id && originalStart(member) >= edit.splitWall)
      .map((member) => member.id);
    await recordingChanges(manager, 'event', moving, async () => {
      for (const chunk of idChunks(moving))
        await manager.update(EventEntity, { id: In(chunk) }, { seriesId: entity.id, parentId: entity.id, modifiedUtc: nowUtcWall(now) });
    });
    if (edit.fresh) {
      await this.generation.insertSeries(manager, entity, edit.fresh);
      const before = manager.create(EventEntity, { ...previous, startLocal: edit.keepsMove ? entity.startLocal : edit.splitWall });
      await this.updates.passOn(manager, before, entity, edit.fresh, now, linksChanged);
    } else {
      await this.updates.end(manager, entity, now);
    }
    await this.updates.truncate(manager, edit.main, edit.old, now);
  }

  /** The plan of the half of a series before a split: null when it gives no start besides the main event's. */
  private oldHalf(lines: string[], main: EventEntity, now: Date): SeriesPlan | null {
    if (!givesStarts(lines)) return null;
    const start = seriesStartOf(main);
    const planned = this.generation.plan(lines, withUtc({ ...main, startLocal: start }), now, new ParamProblems());
    return planned && planned.starts.length > 1 ? planned : null;
  }

  private async mainOf(event: EventEntity): Promise<EventEntity> {
    return this.dataSource.getRepository(EventEntity).findOneByOrFail({ id: event.seriesId ?? event.id });
  }
}

const originalStart = (event: EventEntity): string => event.seriesOriginalStart ?? event.startLocal;

/** Dates with their UTC instants computed again from the wall times. */
function withUtc(dates: { timezone: string; allDay: boolean; startLocal: string; endLocal: string }): EventDates {
  return {
    timezone: dates.timezone,
    allDay: dates.allDay,
    startLocal: dates.startLocal,
    endLocal: dates.endLocal,
    startUtc: wallToUtc(dates.startLocal, dates.timezone),
    endUtc: wallToUtc(dates.endLocal, dates.timezone),
  };
}

/**
 * The main event's dates for an edit of the whole series made through an occurrence: its start and
 * end move by as much as the occurrence's did, in the zone and all-day flag the edit gave.
 */
function shiftedDates(dates: EventDates | undefined, occurrence: EventEntity, main: EventEntity): EventDates | undefined {
  if (dates === undefined) return undefined;
  const start = resolveWall(shifted(main.startLocal, occurrence.startLocal, dates.startLocal), dates.timezone);
  const endWall = shifted(main.endLocal, occurrence.endLocal, dates.endLocal);
  const end = resolveWall(endWall < start.wall ? start.wall : endWall, dates.timezone);
  return {
    timezone: dates.timezone,
    allDay: dates.allDay,
    startLocal: start.wall,
    endLocal: end.wall,
    startUtc: start.utc,
    endUtc: end.utc,
  };
}
