import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { rowsById } from '../common/sql/rows-by-id.js';
import type { CostConfig, EventsConfig } from '../config/app-config.js';
import { canWriteItem } from '../common/auth/permissions.js';
import type { AuthUser, RequestContext } from '../common/http/request-context.js';
import { CategoriesService } from '../categories/categories.service.js';
import { noteSnapshotsWanted } from '../changes/change-commits.js';
import { ChangeSnapshots } from '../changes/change-snapshots.js';
import { ImagesService } from '../images/images.service.js';
import { ItemsService } from '../items/items.service.js';
import { passwordUnlocks, redact } from '../items/protection.js';
import { OrganizerEntity } from '../organizers/organizer.entity.js';
import { OrganizersService } from '../organizers/organizers.service.js';
import { TagsService } from '../tags/tags.service.js';
import { ContentTranslationsService } from '../translations/content-translations.service.js';
import type { TranslatedTexts } from '../translations/content-translations.js';
import { termLinksOfEvents, termLinksOfEventWith, type TermLink } from '../terms/term-assignments.js';
import { sortTermsByName, type AnyTerm } from '../terms/term-tree.js';
import type { EventTermResponse } from '../terms/term.response.js';
import { VenueEntity } from '../venues/venue.entity.js';
import { VenuesService } from '../venues/venues.service.js';
import { EventEntity } from './event.entity.js';
import { EventSeriesEntity } from './series/event-series.entity.js';
import type { EventResponse } from './event.response.js';
import { eventRedactions, toEventPayload, type EventMapperSettings, type EventRelations, type EventText } from './event.mapper.js';
import { EMBEDDED_KINDS, type EmbeddedKind, type EmbeddedRows, EmbeddedRowsCache } from './embedded-rows-cache.js';

/** The organizers (in order), categories and tags of events, as a write that just stored them knows them. */
export interface KnownEventLinks {
  organizers: Array<{ eventId: number; organizerId: number; position: number }>;
  categories: TermLink[];
  tags: TermLink[];
  /** Rows the write read already, inside its transaction (each list complete for the links when given). */
  rows?: { venues?: VenueEntity[]; organizers?: OrganizerEntity[]; categories?: AnyTerm[]; tags?: AnyTerm[] };
}

/** The event objects of answers (spec §6.2): each event with its venue, organizers, terms and images. */
@Injectable()
export class EventPayloadsService {
  private readonly settings: Omit<EventMapperSettings, 'api'>;
  /** Rows of venues, organizers and terms that event writes of this process read for their answers. */
  private readonly embeddedRowsKept = new EmbeddedRowsCache();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly images: ImagesService,
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
    private readonly categories: CategoriesService,
    private readonly tags: TagsService,
    private readonly snapshots: ChangeSnapshots,
    private readonly translations: ContentTranslationsService,
    items: ItemsService,
    config: ConfigService,
  ) {
    this.settings = {
      site: items.site,
      cost: config.getOrThrow<CostConfig>('cost'),
      customFields: config.getOrThrow<EventsConfig>('events').customFields,
    };
  }

  /** Whether a password hides the event from this reader (spec §5.6). */
  isLocked(event: EventEntity, user: AuthUser | null, password: string | undefined): boolean {
    return event.password !== null && event.password !== '' && !canWriteItem(user, event) && !passwordUnlocks(event.password, password);
  }

  /** The event as `GET` by id answers `ctx.user`, read through `manager`, in any status; null when there is none. */
  async renderForChange(manager: EntityManager, id: number, ctx: RequestContext): Promise<EventResponse | null> {
    const event = await manager.findOneBy(EventEntity, { id });
    if (!event) return null;
    const [payload] = await this.of([event], ctx, undefined, true, manager);
    return payload;
  }

  /** Payloads of events with everything they embed, loaded in a fixed number of queries. */
  async of(
    events: EventEntity[],
    ctx: RequestContext,
    password: string | undefined,
    single: boolean,
    manager?: EntityManager,
    known?: KnownEventLinks,
  ): Promise<EventResponse[]> {
    if (events.length === 0) return [];
    const runner = manager ?? this.dataSource.manager;
    const ids = events.map((event) => event.id);
    const venueIds = [...new Set(events.map((event) => event.venueId).filter((id): id is number => id !== null))];
    // organizer, category and tag links in one statement (none when the caller knows them)
    const { organizers: links, categories: categoryLinks, tags: tagLinks } = known ?? (await this.linksOf(runner, ids));
    const organizerIds = [...new Set(links.map((link) => link.organizerId))];
    const seriesIds = [...new Set(events.map((event) => event.seriesId).filter((id): id is number => id !== null))];
    const rows = known?.rows;
    const termIds = (list: TermLink[]) => list.map((link) => Number(link.termId));
    const [venues, organizers, categories, tags, series, texts] = await Promise.all([
      rows?.venues ?? rowsById(runner, VenueEntity, venueIds),
      rows?.organizers ?? rowsById(runner, OrganizerEntity, organizerIds),
      this.categories.embeddedTermsOfEvents(ids, ctx.api, manager, categoryLinks, rows?.categories),
      this.tags.embeddedTermsOfEvents(ids, ctx.api, manager, tagLinks, rows?.tags),
      rowsById(runner, EventSeriesEntity, seriesIds),
      // through an edition's path: the translations of everything the answer holds, in one statement
      this.translations.read(
        ctx,
        { event: ids, venue: venueIds, organizer: organizerIds, category: termIds(categoryLinks), tag: termIds(tagLinks) },
        manager,
      ),
    ]);
    if (texts) translateTerms(texts, categories, 'category');
    if (texts) translateTerms(texts, tags, 'tag');
    const rulesOfSeries = new Map(series.map((row) => [row.id, row.rules]));
    const images = await this.images.payloads(
      [
        ...events.map((event) => event.imageId),
        ...venues.map((venue) => venue.imageId),
        ...organizers.map((organizer) => organizer.imageId),
      ],
      runner,
    );
    const venueById = new Map(venues.map((venue) => [venue.id, venue]));
    const organizerById = new Map(organizers.map((organizer) => [organizer.id, organizer]));
    // each event's organizer links in their order, found by id (a feed holds thousands of events)
    const linksByEvent = new Map<number, (typeof links)[number][]>();
    for (const link of links) {
      const own = linksByEvent.get(link.eventId);
      if (own) own.push(link);
      else linksByEvent.set(link.eventId, [link]);
    }
    const settings = { ...this.settings, api: ctx.api };
    return events.map((event) => {
      // through an edition's path: the event's text in the reader's languages (no copy of the event)
      const text = texts ? texts.fieldsOf<EventText>('event', event.id, event) : event;
      const locked = this.isLocked(event, ctx.user, password);
      const venue = event.venueId !== null ? venueById.get(event.venueId) : undefined;
      const venuePayload = venue ? this.venues.viewIn(texts, venue, images.get(venue.imageId ?? -1), ctx.user, password, single) : null;
      const organizerPayloads = (linksByEvent.get(event.id) ?? [])
        .map((link) => organizerById.get(link.organizerId))
        .filter((organizer): organizer is OrganizerEntity => organizer !== undefined)
        .map((organizer) => this.organizers.viewIn(texts, organizer, images.get(organizer.imageId ?? -1), ctx.user, password, single));
      const relations: EventRelations = {
        image: event.imageId !== null ? images.get(event.imageId) : undefined,
        venue: venuePayload,
        venueJsonLd: venuePayload?.json_ld ?? null,
        organizers: organizerPayloads,
        firstOrganizerJsonLd: organizerPayloads[0]?.json_ld ?? null,
        categories: categories.get(event.id) ?? [],
        tags: tags.get(event.id) ?? [],
        seriesRules: event.seriesId !== null ? (rulesOfSeries.get(event.seriesId) ?? null) : null,
      };
      const payload = toEventPayload(event, relations, settings, single && !locked, text);
      const shown = locked ? redact(payload, eventRedactions()) : payload;
      if (!texts) return shown;
      const keyed = texts.withKey('event', event.id, shown);
      // schema.org's language of the event's text: the language its name is answered in
      if (keyed.json_ld) keyed.json_ld.inLanguage = keyed.language.answered;
      return keyed;
    });
  }

  /**
   * The rows the answer of a write embeds for the event it stored (its venue, organizers,
   * categories and tags, as the write's transaction sees them), for {@link of}'s `known.rows`.
   * `embeddedAt`: the version of such rows the transaction read before (see
   * `writeContext`): rows this process kept at that version serve instead,
   * with no statement, and those read are kept at it ({@link EmbeddedRowsCache}).
   */
  async embeddedRows(
    manager: EntityManager,
    venueId: number | null,
    links: Pick<KnownEventLinks, 'organizers' | 'categories' | 'tags'>,
    embeddedAt: string,
  ): Promise<EmbeddedRows> {
    const termIds = (list: Array<{ termId: number }>) => [...new Set(list.map((link) => Number(link.termId)))];
    const ids: Record<EmbeddedKind, number[]> = {
      venues: venueId !== null ? [venueId] : [],
      organizers: [...new Set(links.organizers.map((link) => link.organizerId))],
      categories: termIds(links.categories),
      tags: termIds(links.tags),
    };
    const { kept, missing } = this.embeddedRowsKept.find(embeddedAt, ids);
    // only the rows not kept at this version are read (no statement for a kind whose rows all were)
    const read: EmbeddedRows = {
      venues: await rowsById(manager, VenueEntity, missing.venues),
      organizers: await rowsById(manager, OrganizerEntity, missing.organizers),
      categories: await rowsById(manager, this.categories.definition.entity, missing.categories),
      tags: await rowsById(manager, this.tags.definition.entity, missing.tags),
    };
    for (const kind of EMBEDDED_KINDS) this.embeddedRowsKept.keep(embeddedAt, kind, read[kind]);
    return {
      venues: [...kept.venues, ...read.venues],
      organizers: [...kept.organizers, ...read.organizers],
      categories: [...kept.categories, ...read.categories],
      tags: [...kept.tags, ...read.tags],
    };
  }

  /** The organizer links (in order) and both taxonomies' term links of events. */
  async linksOf(runner: EntityManager, ids: number[]): Promise<KnownEventLinks> {
    const [organizers, categories, tags] = await termLinksOfEvents(runner, this.linkTables(), ids, ORGANIZER_POSITION);
    return knownLinks(organizers, categories, tags);
  }

  /**
   * What a write to one event reads in its transaction after locking the row, in one statement:
   * the event's links, the version of the rows events embed (`data_version.embedded_version`: a write moves it in the transaction that changes such rows, or right after its commit)
   * and whether the commit is to take snapshots (`ChangeSnapshots.wantedCondition`, noted for it).
   */
  async writeContext(manager: EntityManager, id: number): Promise<{ links: KnownEventLinks; embeddedAt: string }> {
    const { links, values } = await termLinksOfEventWith(manager, this.linkTables(), id, ORGANIZER_POSITION, [
      EMBEDDED_VERSION,
      this.snapshots.wantedCondition(),
    ]);
    noteSnapshotsWanted(manager, Number(values[1]) === 1);
    return { links: knownLinks(links[0], links[1], links[2]), embeddedAt: values[0] ?? '0' };
  }

  private linkTables() {
    return [ORGANIZER_LINKS, this.categories.definition, this.tags.definition];
  }
}

const EMBEDDED_VERSION = 'SELECT embedded_version FROM data_version WHERE id = 1';
const ORGANIZER_LINKS = { joinTable: 'event_organizers', joinColumn: 'organizer_id' };
const ORGANIZER_POSITION = { [ORGANIZER_LINKS.joinTable]: 'position' };

/** Embedded terms in the reader's languages, each with its language key, in the order of the names the reader sees. */
function translateTerms(texts: TranslatedTexts, byEvent: Map<number, EventTermResponse[]>, kind: 'category' | 'tag'): void {
  // the payloads are this answer's own (one per event and term): translated in place
  for (const terms of byEvent.values()) {
    for (const term of terms) texts.withKey(kind, Number(term.id), texts.translateIn(kind, Number(term.id), term));
    sortTermsByName(terms);
  }
}

function knownLinks(organizers: TermLink[], categories: TermLink[], tags: TermLink[]): KnownEventLinks {
  return {
    organizers: organizers
      .map(({ eventId, termId, extra }) => ({ eventId, organizerId: termId, position: Number(extra) }))
      .sort((a, b) => a.position - b.position),
    categories,
    tags,
  };
}
