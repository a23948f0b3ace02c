import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import type { AuthUser, RequestContext } from '../common/http/request-context.js';
import { idChunks } from '../common/sql/id-chunks.js';
import { ApiValidationPipe } from '../common/validation/api-validation.pipe.js';
import { Editions } from '../editions/editions.js';
import { Translator } from '../i18n/translator.js';
import { CreateEventDto } from '../events/dto/create-event.dto.js';
import type { RecurrenceScope } from '../events/dto/recurrence-scope.js';
import { UpdateEventDto } from '../events/dto/update-event.dto.js';
import { EventPayloadsService } from '../events/event-payloads.service.js';
import { EventEntity } from '../events/event.entity.js';
import { EventsService } from '../events/events.service.js';
import { EventSeriesEntity } from '../events/series/event-series.entity.js';
import { writeBody, type LocalEvent, type SyncedField, type WantedEvent } from './source-fields.js';

/** An event write the rules of the API refused; the message is the API's, in the default edition's language. */
export class WriteRefused extends Error {}

/**
 * The sync's writes of events: each one is the API's own write (`EventsService`), its body checked
 * by the same validation pipe as a request's, made as the source's user. So an imported event is
 * stored, linked, counted, logged (change feed, webhooks) and cached exactly like one sent by a client.
 */
@Injectable()
export class SourceEventWrites {
  private readonly pipe = new ApiValidationPipe();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsService,
    private readonly payloads: EventPayloadsService,
    private readonly editions: Editions,
    private readonly translator: Translator,
  ) {}

  /** A new event (a series when the feed gives a rule); returns its id. */
  async create(wanted: WantedEvent, user: AuthUser): Promise<number> {
    const body = writeBody(
      wanted,
      new Set(['title', 'description', 'dates', 'website', 'venue', 'organizer', 'categories', 'tags', 'status', 'recurrence']),
    );
    const input = (await this.pipe.transform(body, { type: 'body', metatype: CreateEventDto })) as CreateEventDto;
    return (await this.refusing(() => this.events.create(input, this.context(user)))).id;
  }

  /** Writes `fields` of an event (`scope`: of a series' main event `all`, of an occurrence `this`); a cancellation trashes it. */
  async update(
    local: LocalEvent,
    wanted: WantedEvent,
    fields: ReadonlySet<SyncedField>,
    user: AuthUser,
    scope?: RecurrenceScope,
  ): Promise<void> {
    const id = local.event.id;
    if (fields.has('status') && wanted.status === 'trash') {
      if (local.event.status !== 'trash') await this.refusing(() => this.events.remove({ id }, this.context(user), scope));
      return;
    }
    const body = writeBody(wanted, fields);
    if (Object.keys(body).length === 0) return;
    if (scope) body.recurrence_scope = scope;
    const input = (await this.pipe.transform(body, { type: 'body', metatype: UpdateEventDto })) as UpdateEventDto;
    await this.refusing(() => this.events.update({ id }, input, this.context(user), scope));
  }

  /** Trashes an event (a series' main event with its series). */
  async trash(local: LocalEvent, user: AuthUser): Promise<void> {
    if (local.event.status === 'trash') return;
    const scope = local.event.seriesId === null ? undefined : local.event.seriesId === local.event.id ? 'all' : 'this';
    await this.refusing(() => this.events.remove({ id: local.event.id }, this.context(user), scope));
  }

  /** The events with these ids as the sync compares them: the row, its links, its series' rule. */
  async locals(ids: number[]): Promise<Map<number, LocalEvent>> {
    const found = new Map<number, LocalEvent>();
    for (const chunk of idChunks([...new Set(ids)])) {
      const events = await this.dataSource.getRepository(EventEntity).findBy({ id: In(chunk) });
      if (events.length === 0) continue;
      const links = await this.payloads.linksOf(
        this.dataSource.manager,
        events.map((event) => event.id),
      );
      const mains = events.filter((event) => event.seriesId === event.id).map((event) => event.id);
      const series = mains.length > 0 ? await this.dataSource.getRepository(EventSeriesEntity).findBy({ id: In(mains) }) : [];
      const rules = new Map(series.map((row) => [row.id, row.rules]));
      for (const event of events) {
        found.set(event.id, {
          event,
          organizerIds: links.organizers
            .filter((link) => link.eventId === event.id)
            .sort((a, b) => a.position - b.position)
            .map((link) => link.organizerId),
          categoryIds: links.categories.filter((link) => link.eventId === event.id).map((link) => link.termId),
          tagIds: links.tags.filter((link) => link.eventId === event.id).map((link) => link.termId),
          rules: rules.get(event.id) ?? null,
        });
      }
    }
    return found;
  }

  /** The occurrences of a series by their original start (series zone), trashed ones included. */
  async occurrences(mainId: number): Promise<Map<string, number>> {
    const rows = await this.dataSource.getRepository(EventEntity).findBy({ seriesId: mainId });
    return new Map(rows.filter((row) => row.id !== mainId).map((row) => [row.seriesOriginalStart ?? row.startLocal, row.id]));
  }

  /** How far a series has been generated (series zone); null when it is not a series. */
  async generatedThrough(mainId: number): Promise<string | null> {
    return (await this.dataSource.getRepository(EventSeriesEntity).findOneBy({ id: mainId }))?.generatedThrough ?? null;
  }

  private context(user: AuthUser): RequestContext {
    const edition = this.editions.defaultEdition;
    return {
      edition,
      base: this.editions.base(edition),
      api: this.editions.api(edition),
      target: null,
      user,
      route: null,
      routeParams: {},
      subject: null,
      ifMatch: null,
    };
  }

  /** A refusal by the API's rules becomes a {@link WriteRefused} with the API's message (what a client would have read). */
  private async refusing<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      throw new WriteRefused(this.describe(error));
    }
  }

  private describe(error: ApiError): string {
    const lang = this.editions.defaultEdition;
    const problems = (error.extra.problems ?? []).map(
      (problem) =>
        `${problem.param}: ${this.translator.t(lang, `params:${problem.key}`, { ...(problem.args ?? {}), param: problem.param })}`,
    );
    return problems.length > 0 ? `the event was refused: ${problems.join('; ')}` : `the event was refused (${error.code})`;
  }
}
