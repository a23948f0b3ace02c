import { writePlainFields } from './event-fields.js';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { CostConfig, EventsConfig } from '../config/app-config.js';
import type { ParamProblems } from '../common/errors/api-error.js';
import type { AuthUser } from '../common/http/request-context.js';
import { stripTags } from '../common/text/html.js';
import { CategoriesService } from '../categories/categories.service.js';
import { ITEM_FIELDS_AFTER_NAME } from '../items/dto/item-fields.js';
import { ItemsService } from '../items/items.service.js';
import { ItemWritesService } from '../items/item-writes.service.js';
import { CreateOrganizerDto } from '../organizers/dto/create-organizer.dto.js';
import { OrganizersService } from '../organizers/organizers.service.js';
import { TagsService } from '../tags/tags.service.js';
import { CreateVenueDto } from '../venues/dto/create-venue.dto.js';
import { VenuesService } from '../venues/venues.service.js';
import type { LinkInput } from './dto/relation-inputs.js';
import type { UpdateEventDto } from './dto/update-event.dto.js';
import { detectCurrency } from './event-cost.js';
import { resolveEventDates, type EventDates } from './event-dates.js';
import { EventReadsService } from './event-reads.service.js';
import type { EventEntity } from './event.entity.js';
import { isRowId } from '../common/sql/row-id.js';

export const WRITE_ORDER = [
  'title',
  ...ITEM_FIELDS_AFTER_NAME,
  'timezone',
  'all_day',
  'start_date',
  'end_date',
  'image',
  'cost',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'categories',
  'tags',
  'venue',
  'organizer',
  'post_parent',
  'post_password',
  'custom_fields',
  'recurrence',
  'recurrence_scope',
];
/** The ids an event write names that exist: terms, and venues and organizers that may be linked. */
interface ExistingTargets {
  categories: Set<number>;
  tags: Set<number>;
  venue: Set<number>;
  organizer: Set<number>;
}

const TARGETS = ['categories', 'tags', 'venue', 'organizer'] as const;

/** Ids that may name a row: what a check needs to look up (others are unknown without asking). */
function rowIds(ids: number[]): number[] {
  return [...new Set(ids.filter((id) => isRowId(id)))];
}

/** Planned links of an event write, resolved inside its transaction. */
export interface LinkPlan {
  venue?: (manager: EntityManager, user: AuthUser) => Promise<number | null>;
  organizers?: Array<(manager: EntityManager, user: AuthUser) => Promise<number>>;
}

/** The event's own write rules: what a write may say (checked before permissions) and how it lands on the record. */
@Injectable()
export class EventWriteRulesService {
  private readonly cost: CostConfig;
  private readonly events: EventsConfig;

  constructor(
    private readonly items: ItemsService,
    private readonly itemWrites: ItemWritesService,
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
    private readonly categories: CategoriesService,
    private readonly tags: TagsService,
    private readonly reads: EventReadsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    config: ConfigService,
  ) {
    this.cost = config.getOrThrow<CostConfig>('cost');
    this.events = config.getOrThrow<EventsConfig>('events');
  }

  /** Every check of an event write that needs no permission: dates, author, image, links, terms, fields. */
  async validate(input: UpdateEventDto, current: EventEntity | null, user: AuthUser | null, now: Date, problems: ParamProblems) {
    const checked = await this.checkFields(input, current?.id ?? null, user, now, problems);
    return { ...checked, dates: this.datesOf(input, current, now, problems) };
  }

  /**
   * The event's dates after the write (undefined when an update leaves them as they are): the only
   * check of {@link validate} that needs the record, and no database. An update may run it on the
   * row it locked (`EventsService`).
   */
  datesOf(input: UpdateEventDto, current: EventEntity | null, now: Date, problems: ParamProblems): EventDates | undefined {
    const touchesDates = [input.timezone, input.all_day, input.start_date, input.end_date].some((value) => value !== undefined);
    return current === null || touchesDates ? resolveEventDates(input, current, this.items.site.siteTimezone, now, problems) : undefined;
  }

  /**
   * The checks of {@link validate} other than the dates: author, image, links, terms, fields. They
   * need the id of the event written (none for a create), not its record, and read on the pool's
   * connections, outside any transaction.
   */
  async checkFields(input: UpdateEventDto, id: number | null, user: AuthUser | null, now: Date, problems: ParamProblems) {
    const dateUtc = await this.itemWrites.check(input, problems, now, user);
    const existing = await this.existingTargets(input);
    if (input.categories) this.categories.checkEventRefs(input.categories, 'categories', problems, existing.categories);
    if (input.tags) this.tags.checkEventRefs(input.tags, 'tags', problems, existing.tags);
    const plan: LinkPlan = {};
    if (input.venue !== undefined) {
      const link = input.venue === null ? null : await this.planLink(input.venue, 'venue', user, now, existing);
      if (link === undefined) problems.add('venue', 'unknown_venue');
      else plan.venue = link === null ? () => Promise.resolve(null) : link;
    }
    if (input.organizer !== undefined) {
      const planned = await Promise.all(input.organizer.map((element) => this.planLink(element, 'organizer', user, now, existing)));
      if (planned.some((link) => link === undefined || link === null)) problems.add('organizer', 'unknown_organizer');
      else plan.organizers = planned as Array<(manager: EntityManager, author: AuthUser) => Promise<number>>;
    }
    if (input.post_parent !== undefined && input.post_parent !== null) {
      if (input.post_parent === id || !(await this.reads.isLiveEvent(input.post_parent))) problems.add('post_parent', 'unknown_event');
    }
    if (input.custom_fields) {
      const defined = new Set(this.events.customFields.map((field) => field.key));
      const unknown = Object.keys(input.custom_fields).find((key) => !defined.has(key));
      if (unknown !== undefined) problems.add('custom_fields', 'custom_field', { value: unknown });
    }
    return { dateUtc, plan };
  }

  /** An id link to check now, or an inline venue/organizer to reuse or create in the transaction. */
  /**
   * Which of the ids an event write names exist, read in one statement for all four kinds (the
   * checks then need no statement of their own): terms by id, venues and organizers not in the trash.
   */
  private async existingTargets(input: UpdateEventDto): Promise<ExistingTargets> {
    const existing: ExistingTargets = { categories: new Set(), tags: new Set(), venue: new Set(), organizer: new Set() };
    const termIds = (refs: string[] | undefined) => rowIds((refs ?? []).filter((ref) => /^\d+$/.test(ref)).map(Number));
    const linkIds = (links: Array<LinkInput | null>) => rowIds(links.flatMap((link) => (link?.kind === 'id' ? [link.id] : [])));
    const wanted: Record<(typeof TARGETS)[number], number[]> = {
      categories: termIds(input.categories),
      tags: termIds(input.tags),
      venue: linkIds(input.venue === undefined ? [] : [input.venue]),
      organizer: linkIds(input.organizer ?? []),
    };
    const queries = TARGETS.flatMap((kind, t) => {
      const ids = wanted[kind];
      if (ids.length === 0) return [];
      if (kind === 'categories') return [this.categories.existingIdsQuery(ids, t)];
      if (kind === 'tags') return [this.tags.existingIdsQuery(ids, t)];
      return [(kind === 'venue' ? this.venues : this.organizers).linkableIdsQuery(ids, t)];
    });
    if (queries.length === 0) return existing;
    const rows: Array<{ t: number | string; id: number | string }> = await this.dataSource.query(queries.join(' UNION ALL '));
    for (const row of rows) existing[TARGETS[Number(row.t)]].add(Number(row.id));
    return existing;
  }

  private async planLink(link: LinkInput, kind: 'venue' | 'organizer', user: AuthUser | null, now: Date, existing: ExistingTargets) {
    if (link.kind === 'id') return existing[kind].has(link.id) ? () => Promise.resolve(link.id) : undefined;
    const inline = kind === 'venue' ? { ...link.data, stateprovince: link.data.stateprovince ?? link.data.stateProvince } : link.data;
    const create =
      kind === 'venue'
        ? await this.venues.prepareInline(inline, CreateVenueDto, user, now)
        : await this.organizers.prepareInline(inline, CreateOrganizerDto, user, now);
    return create ?? undefined;
  }

  async fill(
    event: EventEntity,
    input: UpdateEventDto,
    user: AuthUser,
    manager: EntityManager,
    context: {
      now: Date;
      dateUtc: string | undefined;
      dates: ReturnType<typeof resolveEventDates>;
      plan: LinkPlan;
      isCreate: boolean;
      previous?: EventEntity;
    },
  ): Promise<void> {
    if (input.title !== undefined) event.title = stripTags(input.title);
    await this.itemWrites.fillContent(event, input, user, manager, context.isCreate);
    if (context.dates) Object.assign(event, context.dates);
    if (input.cost !== undefined) {
      event.cost = input.cost.length > 0 ? input.cost : null;
      const currency = detectCurrency(input.cost, this.cost.decimalSeparator);
      event.costSymbol = currency.symbol;
      event.costPosition = currency.position;
    }
    if (input.website !== undefined) event.website = input.website === '' ? null : input.website;
    writePlainFields(event, input);
    if (input.post_parent !== undefined) event.parentId = input.post_parent;
    if (input.custom_fields !== undefined) {
      const values = { ...(event.customFields ?? {}) };
      for (const [key, value] of Object.entries(input.custom_fields)) {
        if (value === null) delete values[key];
        else values[key] = value;
      }
      event.customFields = Object.keys(values).length > 0 ? values : null;
    }
    if (context.plan.venue) event.venueId = await context.plan.venue(manager, user);

    await this.itemWrites.fillPublication(event, input, event.title, user, manager, {
      table: 'events',
      dateUtc: context.dateUtc,
      now: context.now,
      isCreate: context.isCreate,
      previous: context.previous,
    });
  }
}
