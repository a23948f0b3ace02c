import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { In, type EntityManager } from 'typeorm';
import type { EventsConfig } from '../../config/app-config.js';
import { expandRecurrence, horizonWall, occurrenceTimes } from '../../common/dates/recurrence-expansion.js';
import { readRecurrenceLines, RecurrenceError } from '../../common/dates/recurrence-lines.js';
import { nowUtcWall } from '../../common/dates/wall-time.js';
import type { ParamProblems } from '../../common/errors/api-error.js';
import { freeSlugsUnder } from '../../common/sql/free-slug.js';
import { idChunks } from '../../common/sql/id-chunks.js';
import { recordingChanges } from '../../changes/change-recording.js';
import { ItemsService } from '../../items/items.service.js';
import type { EventDates } from '../event-dates.js';
import { EventOrganizerEntity } from '../event-organizer.entity.js';
import { moveTermCounts, NO_CONTRIBUTION, termContribution } from '../event-term-counts.js';
import { EventEntity } from '../event.entity.js';
import { EventSeriesEntity } from './event-series.entity.js';

/** Most occurrences one series ever has, its main event included. */
export const SERIES_CAP = 1000;

/** A checked `recurrence` of a write: the lines as stored and the starts to generate now. */
export interface SeriesPlan {
  lines: string[];
  /** Wall times in the event's zone, the main event's start first. */
  starts: string[];
  throughWall: string;
  complete: boolean;
}

/**
 * The start a series' rule is read from: its main event's start, or, when the main event was
 * edited on its own (`recurrence_scope=this`), the start the series gave it.
 */
export function seriesStartOf(main: EventEntity): string {
  return main.seriesException && main.seriesOriginalStart !== null ? main.seriesOriginalStart : main.startLocal;
}

const TERM_LINKS = [
  { table: 'event_categories', column: 'category_id' },
  { table: 'event_tags', column: 'tag_id' },
] as const;
const INSERT_CHUNK = 100;

/** Recurring events: the rule of a write checked and expanded, and the occurrences written as events. */
@Injectable()
export class SeriesGenerationService {
  private readonly horizonDays: number;

  constructor(
    private readonly items: ItemsService,
    config: ConfigService,
  ) {
    this.horizonDays = config.getOrThrow<EventsConfig>('events').seriesHorizonDays;
  }

  /**
   * The plan of a write's `recurrence`: null when the event does not recur, undefined when the
   * lines (or the dates they depend on) are invalid, with the reason added to `problems`.
   */
  plan(lines: string[] | undefined, dates: EventDates | undefined, now: Date, problems: ParamProblems): SeriesPlan | null | undefined {
    if (lines === undefined || lines.length === 0) return null;
    if (dates === undefined) return undefined;
    try {
      const recurrence = readRecurrenceLines(lines, dates.timezone);
      const throughWall = horizonWall(dates.startUtc, dates.timezone, this.horizonDays, now);
      const expansion = expandRecurrence(recurrence, dates.startLocal, dates.timezone, { throughWall, cap: SERIES_CAP });
      return { lines: recurrence.lines, starts: expansion.starts, throughWall, complete: !expansion.continues };
    } catch (error) {
      if (!(error instanceof RecurrenceError)) throw error;
      problems.add('recurrence', error.problem, { line: error.line ?? '' });
      return undefined;
    }
  }

  /**
   * Makes a just-inserted event (`series_id` = its own id) the main event of a series: the series row, then every later
   * occurrence as an event of its own (every field of the main event, its own id and slug, the
   * main event as parent, the same organizers and terms), each logged as a created event.
   * Returns the ids of the occurrences.
   */
  async start(manager: EntityManager, main: EventEntity, plan: SeriesPlan): Promise<number[]> {
    await this.insertSeries(manager, main, plan);
    return this.addOccurrences(manager, main, plan.starts.slice(1));
  }

  /** The series row of a main event, its occurrences still to be written. */
  async insertSeries(manager: EntityManager, main: EventEntity, plan: SeriesPlan): Promise<void> {
    const now = nowUtcWall();
    await manager.insert(EventSeriesEntity, {
      id: main.id,
      rules: plan.lines,
      timezone: main.timezone,
      generatedThrough: plan.throughWall,
      generatedCount: plan.starts.length,
      complete: plan.complete,
      createdUtc: now,
      modifiedUtc: now,
    });
  }

  /**
   * New occurrences of a series at these starts: events with every field of the main event, their
   * own ids and slugs, the main event's links, each logged as created and counted in its terms.
   */
  async addOccurrences(manager: EntityManager, main: EventEntity, starts: string[]): Promise<number[]> {
    if (starts.length === 0) return [];
    const ids = await this.items.allocateIds(manager, 'event', starts.length);
    const prefix = main.slug.slice(0, 240);
    const slugs = await freeSlugsUnder(
      manager,
      'events',
      prefix,
      starts.map((start) => `${prefix}-${start.slice(0, 10)}`),
    );
    const { id: mainId, ...fields } = main;
    const times = starts.map((start) => occurrenceTimes(start, main));
    const rows = starts.map((start, index) => ({
      ...fields,
      ...times[index],
      id: ids[index],
      slug: slugs[index],
      parentId: mainId,
      seriesId: mainId,
      seriesOriginalStart: start,
      seriesException: false,
      seriesTrashed: false,
    }));
    await recordingChanges(manager, 'event', ids, async () => {
      for (let at = 0; at < rows.length; at += INSERT_CHUNK) await manager.insert(EventEntity, rows.slice(at, at + INSERT_CHUNK));
      await this.copyLinks(manager, mainId, ids, false);
    });
    await moveTermCounts(manager, NO_CONTRIBUTION, await termContribution(manager, ids));
    return ids;
  }

  /** The main event's organizers (in order), categories and tags, given to its occurrences (`replace`: instead of theirs). */
  async copyLinks(manager: EntityManager, mainId: number, ids: number[], replace: boolean): Promise<void> {
    if (ids.length === 0) return;
    if (replace) {
      for (const chunk of idChunks(ids)) {
        await manager.delete(EventOrganizerEntity, { eventId: In(chunk) });
        for (const { table } of TERM_LINKS) {
          await manager.createQueryBuilder().delete().from(table).where('event_id IN (:...chunk)', { chunk }).execute();
        }
      }
    }
    const organizers = await manager.find(EventOrganizerEntity, { where: { eventId: mainId }, order: { position: 'ASC' } });
    if (organizers.length > 0) {
      const links = ids.flatMap((eventId) => organizers.map(({ organizerId, position }) => ({ eventId, organizerId, position })));
      for (let at = 0; at < links.length; at += 500) await manager.insert(EventOrganizerEntity, links.slice(at, at + 500));
    }
    for (const { table, column } of TERM_LINKS) {
      const rows: Array<Record<string, number | string>> = await manager
        .createQueryBuilder()
        .select(`l.${column}`, 'termId')
        .from(table, 'l')
        .where('l.event_id = :mainId', { mainId })
        .getRawMany();
      if (rows.length === 0) continue;
      const links = ids.flatMap((eventId) => rows.map((row) => ({ event_id: eventId, [column]: Number(row.termId) })));
      for (let at = 0; at < links.length; at += 500) {
        await manager
          .createQueryBuilder()
          .insert()
          .into(table)
          .values(links.slice(at, at + 500))
          .execute();
      }
    }
  }
}
