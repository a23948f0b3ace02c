import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import type { AuthUser } from '../common/http/request-context.js';
import type { FeedCalendar } from './feed-calendar.js';
import { readFeedEvent, type FeedEvent } from './feed-event.js';
import { ComponentRefused } from './feed-time.js';
import { FeedZones, namedZone } from './feed-zones.js';
import { CalendarSourceEventEntity } from './calendar-source-event.entity.js';
import type { CalendarSourceEntity } from './calendar-source.entity.js';
import { followingDates, originalStart } from './occurrence-dates.js';
import { eachInParallel, NameLocks } from './name-locks.js';
import { SourceEventWrites, WriteRefused } from './source-event-writes.js';
import { SyncRun, type Action, type Outcome, type SyncOutcome } from './sync-run.js';
import {
  fieldsToWrite,
  localHashes,
  namesOf,
  wantedHashes,
  wantedOf,
  type LocalEvent,
  type SyncedField,
  type WantedEvent,
} from './source-fields.js';

/**
 * Events a run writes at once on MySQL/MariaDB: each write is the API's own transaction, and most of
 * its time is spent waiting for the database, so a few in flight share the waits (and the commits'
 * flushes). SQLite has one writer: one at a time.
 */
const PARALLEL_WRITES = 4;

export const componentKey = (uid: string, recurrenceId: string | null) =>
  createHash('sha256')
    .update(`${uid}\n${recurrenceId ?? ''}`)
    .digest('hex');

/**
 * One sync of a source's events with its feed: each `VEVENT` found again by its `UID` (and
 * `RECURRENCE-ID`), compared field by field with what the feed said last and with the event as the
 * sync left it, and written only where something changed, under the source's update authority.
 */
@Injectable()
export class SourceSync {
  private readonly siteZone: string;
  private readonly parallelWrites: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly writes: SourceEventWrites,
    config: ConfigService,
  ) {
    this.siteZone = config.getOrThrow<AppConfig['site']>('site').timezone;
    this.parallelWrites = dataSource.options.type === 'better-sqlite3' ? 1 : PARALLEL_WRITES;
  }

  async sync(source: CalendarSourceEntity, runId: number, user: AuthUser, calendar: FeedCalendar): Promise<SyncOutcome> {
    const rows = await this.dataSource.getRepository(CalendarSourceEventEntity).findBy({ sourceId: source.id });
    const run = new SyncRun(source, runId, user, new Map(rows.map((row) => [row.componentKey, row])));
    run.locals = await this.writes.locals(rows.filter((row) => row.recurrenceId === '').map((row) => row.eventId));
    for (const problem of calendar.problems)
      run.problem(problem.uid, problem.recurrenceId, problem.reason, problem.uid !== null || problem.recurrenceId !== null);
    const floatingZone = (calendar.calendarZone ? namedZone(calendar.calendarZone) : null) ?? this.siteZone;
    const context = { zones: new FeedZones(calendar.zones), floatingZone };
    const masters = new Map<string, FeedEvent>();
    const overrides: FeedEvent[] = [];
    for (const component of calendar.events) {
      let feed: FeedEvent;
      try {
        feed = readFeedEvent(component, context);
      } catch (error) {
        if (!(error instanceof ComponentRefused)) throw error;
        const uid = component.getFirstPropertyValue('uid');
        run.problem(typeof uid === 'string' ? uid : null, null, `this VEVENT cannot be imported: ${error.message}`);
        continue;
      }
      for (const note of feed.notes) run.problem(feed.uid, feed.recurrenceId, note, false);
      if (feed.recurrenceId) overrides.push(feed);
      else if (masters.has(feed.uid))
        run.problem(feed.uid, null, 'another VEVENT of the feed has the same UID: only the first is imported');
      else masters.set(feed.uid, feed);
    }
    // the events and series' main events, several at once; then the exceptions, which need their series
    const names = new NameLocks();
    const mains = [...masters.values()];
    const outcomes: Outcome[] = [];
    await eachInParallel(mains, this.parallelWrites, async (feed, index) => {
      const wanted = wantedOf(feed, source, false);
      outcomes[index] = await names.holding(namesOf(wanted), () => this.outcome(run, feed, () => this.syncEvent(run, feed, wanted)));
    });
    mains.forEach((feed, index) => run.settle(feed, outcomes[index]));
    for (const feed of overrides) {
      const master = masters.get(feed.uid);
      await this.guarded(run, feed, () =>
        master ? this.syncOccurrence(run, master, feed) : this.syncEvent(run, feed, wantedOf(feed, source, true)),
      );
    }
    await this.settleMissing(run, masters);
    return { counts: run.counts, problems: run.problems };
  }

  /** One component's work, counted; a refusal by the API's rules refuses that component only. */
  private async guarded(run: SyncRun, feed: FeedEvent, work: () => Promise<Action | null>): Promise<void> {
    run.settle(feed, await this.outcome(run, feed, work));
  }

  private async outcome(run: SyncRun, feed: FeedEvent, work: () => Promise<Action | null>): Promise<Outcome> {
    run.seen.add(componentKey(feed.uid, feed.recurrenceId));
    try {
      return { action: await work() };
    } catch (error) {
      if (!(error instanceof WriteRefused || error instanceof ComponentRefused)) throw error;
      return { refused: error.message };
    }
  }

  /** A single event or a series' main event (or an occurrence without its series in the feed). */
  private async syncEvent(run: SyncRun, feed: FeedEvent, wanted: WantedEvent): Promise<Action> {
    const key = componentKey(feed.uid, feed.recurrenceId);
    const row = run.mappings.get(key);
    const local = row ? (run.locals.get(row.eventId) ?? (await this.writes.locals([row.eventId])).get(row.eventId)) : undefined;
    if (!row || !local) {
      if (wanted.status === 'trash') return 'unchanged';
      const id = await this.writes.create(wanted, run.user);
      await this.remember(run, key, feed, id, wanted);
      return 'created';
    }
    const scope = local.event.seriesId === null ? undefined : local.event.seriesId === local.event.id ? 'all' : 'this';
    return this.apply(run, row, local, wanted, scope);
  }

  /** An occurrence the feed changes on its own (`RECURRENCE-ID`): the occurrence of our series with that original start. */
  private async syncOccurrence(run: SyncRun, master: FeedEvent, feed: FeedEvent): Promise<Action | null> {
    const main = run.mappings.get(componentKey(master.uid, null));
    if (!main) return null; // the series itself was refused (its problem is reported)
    const original = originalStart(feed.recurrenceId as string, master);
    const occurrenceId = (await this.writes.occurrences(main.eventId)).get(original);
    const key = componentKey(feed.uid, feed.recurrenceId);
    const wanted = wantedOf(feed, run.source, true);
    if (occurrenceId === undefined) {
      const through = await this.writes.generatedThrough(main.eventId);
      if (through !== null && original > through) return null; // not generated yet: a later run finds it
      throw new ComponentRefused(`its RECURRENCE-ID ${feed.recurrenceId} names no occurrence of the series`);
    }
    const row = run.mappings.get(key);
    const local = (await this.writes.locals([occurrenceId])).get(occurrenceId) as LocalEvent;
    if (!row || row.eventId !== occurrenceId) {
      // the first time: the occurrence becomes an exception with every field the feed gives it
      if (run.source.updateAuthority === 'create-only' && row) return 'kept';
      await this.writes.update(
        local,
        wanted,
        new Set(['title', 'description', 'dates', 'website', 'venue', 'organizer', 'categories', 'tags', 'status']),
        run.user,
        'this',
      );
      await this.remember(run, key, feed, occurrenceId, wanted);
      return wanted.status === 'trash' ? 'trashed' : 'updated';
    }
    return this.apply(run, row, local, wanted, 'this');
  }

  /** A mapped event: the fields to write under the authority, written, and the mapping brought up to date. */
  private async apply(
    run: SyncRun,
    row: CalendarSourceEventEntity,
    local: LocalEvent,
    wanted: WantedEvent,
    scope: 'all' | 'this' | undefined,
  ): Promise<Action> {
    const feedHashes = wantedHashes(wanted);
    // compared field by field every time: a modification time has whole seconds, an edit may share the sync's second
    const localNow = localHashes(local);
    const { fields, kept } = fieldsToWrite(run.source.updateAuthority, feedHashes, row.feedFields, localNow, row.localFields);
    if (fields.size > 0) await this.writes.update(local, wanted, fields, run.user, scope);
    const changedFeed = Object.entries(feedHashes).some(([field, hash]) => row.feedFields[field] !== hash);
    if (fields.size > 0 || changedFeed) {
      // fields edited here and kept stay compared with what the sync left, so they stay kept
      const editedKept = new Set(
        Object.keys(localNow).filter(
          (field) => localNow[field as SyncedField] !== row.localFields[field] && !fields.has(field as SyncedField),
        ),
      );
      const after = fields.size > 0 ? (await this.writes.locals([local.event.id])).get(local.event.id) : local;
      if (after) {
        const hashes = localHashes(after);
        row.localFields = Object.fromEntries(
          Object.entries(hashes).map(([field, hash]) => [field, editedKept.has(field) ? row.localFields[field] : hash]),
        );
        row.localModifiedUtc = after.event.modifiedUtc;
      }
      row.feedFields = feedHashes;
      row.lastSeenRun = run.runId;
      await this.dataSource.getRepository(CalendarSourceEventEntity).save(row);
    }
    if (fields.size === 0) return kept ? 'kept' : 'unchanged';
    return fields.has('status') && wanted.status === 'trash' ? 'trashed' : 'updated';
  }

  /** Components no longer in the feed: events trashed (a setting), occurrences given back to their series. */
  private async settleMissing(run: SyncRun, masters: Map<string, FeedEvent>): Promise<void> {
    const missing = [...run.mappings.values()].filter((row) => !run.seen.has(row.componentKey) && !run.refusedUids.has(row.uid));
    if (missing.length === 0) return;
    if (run.refusedWithoutUid) {
      run.problem(null, null, 'a part of the feed without a UID was refused: nothing is trashed as missing in this run', false);
      return;
    }
    const repository = this.dataSource.getRepository(CalendarSourceEventEntity);
    for (const row of missing) {
      const master = row.recurrenceId !== '' ? masters.get(row.uid) : undefined;
      if (master) {
        // the feed no longer changes this occurrence: it follows its series again
        const main = run.mappings.get(componentKey(master.uid, null));
        const local = (await this.writes.locals([row.eventId])).get(row.eventId);
        if (main && local && run.source.updateAuthority !== 'create-only') {
          const wanted = { ...wantedOf(master, run.source, true), dates: followingDates(master, local) };
          const action = await this.apply(run, row, local, wanted, 'this').catch((error: unknown) => {
            if (!(error instanceof WriteRefused)) throw error;
            run.problem(row.uid, row.recurrenceId, error.message);
            return null;
          });
          if (action) run.count(action === 'unchanged' ? 'unchanged' : 'updated');
        }
        await repository.delete({ sourceId: run.source.id, componentKey: row.componentKey });
        continue;
      }
      if (!run.source.trashMissing || run.source.updateAuthority === 'create-only') continue;
      const local = (await this.writes.locals([row.eventId])).get(row.eventId);
      if (!local || local.event.status === 'trash') continue;
      if (
        row.recurrenceId === '' ||
        local.event.seriesId === null ||
        local.event.seriesId === local.event.id ||
        !run.mappings.has(componentKey(row.uid, null))
      ) {
        await this.writes.trash(local, run.user).then(
          () => run.count('trashed'),
          (error: unknown) => {
            if (!(error instanceof WriteRefused)) throw error;
            run.problem(row.uid, row.recurrenceId || null, error.message);
          },
        );
      }
    }
  }

  private async remember(run: SyncRun, key: string, feed: FeedEvent, eventId: number, wanted: WantedEvent): Promise<void> {
    const local = (await this.writes.locals([eventId])).get(eventId);
    const row: CalendarSourceEventEntity = {
      sourceId: run.source.id,
      componentKey: key,
      uid: feed.uid,
      recurrenceId: feed.recurrenceId ?? '',
      eventId,
      feedFields: wantedHashes(wanted),
      localFields: local ? localHashes(local) : {},
      localModifiedUtc: local?.event.modifiedUtc ?? null,
      lastSeenRun: run.runId,
      createdUtc: nowUtcWall(),
    };
    // a mapping of this component is there only when its event was deleted since: then it is replaced
    const repository = this.dataSource.getRepository(CalendarSourceEventEntity);
    if (run.mappings.has(key)) await repository.save(row);
    else await repository.insert(row);
    run.mappings.set(key, row);
  }
}
