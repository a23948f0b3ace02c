import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../common/http/request-context.js';
import { CategoriesService } from '../categories/categories.service.js';
import { TagsService } from '../tags/tags.service.js';
import type { UpdateEventDto } from './dto/update-event.dto.js';
import { EventOrganizerEntity } from './event-organizer.entity.js';
import type { LinkPlan } from './event-write-rules.service.js';

/** The terms an event write links, per taxonomy. */
export type TermLinks = Array<{ service: CategoriesService | TagsService; ids: number[] }>;

/** The links of an event write: its organizers in order, its categories and tags (inside the write's transaction). */
@Injectable()
export class EventLinksService {
  constructor(
    private readonly categories: CategoriesService,
    private readonly tags: TagsService,
  ) {}

  /** Organizers and terms of the event; a list sent replaces the previous one. Answers whether any list was sent (and written). */
  async link(
    eventId: number,
    input: UpdateEventDto,
    plan: LinkPlan,
    user: AuthUser,
    manager: EntityManager,
    isCreate: boolean,
  ): Promise<boolean> {
    await this.linkOrganizers(eventId, plan, user, manager, isCreate);
    let written = plan.organizers !== undefined;
    for (const [refs, service] of [
      [input.categories, this.categories],
      [input.tags, this.tags],
    ] as const) {
      if (refs === undefined) continue;
      const ids = await service.resolveEventRefs(manager, refs);
      await service.lockForLinking(manager, ids);
      const { joinTable } = service.definition;
      if (!isCreate) await manager.createQueryBuilder().delete().from(joinTable).where('event_id = :eventId', { eventId }).execute();
      await this.insertTermLinks(eventId, service, ids, manager);
      written = true;
    }
    return written;
  }

  /** Links the planned organizers (a list sent replaces the previous one); returns their ids in order, none when no list was sent. */
  async linkOrganizers(eventId: number, plan: LinkPlan, user: AuthUser, manager: EntityManager, isCreate: boolean): Promise<number[]> {
    const ids = await this.resolveOrganizers(plan, user, manager);
    if (!plan.organizers) return ids;
    if (!isCreate) await manager.delete(EventOrganizerEntity, { eventId });
    await this.insertOrganizerLinks(eventId, ids, manager);
    return ids;
  }

  /** The planned organizers' ids in order (inline ones created); none when no list was sent. */
  async resolveOrganizers(plan: LinkPlan, user: AuthUser, manager: EntityManager): Promise<number[]> {
    const ids: number[] = [];
    for (const resolve of plan.organizers ?? []) {
      const id = await resolve(manager, user);
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  }

  /** Links an event to organizers, in order. */
  async insertOrganizerLinks(eventId: number, ids: number[], manager: EntityManager): Promise<void> {
    if (ids.length === 0) return;
    await manager.insert(
      EventOrganizerEntity,
      ids.map((organizerId, position) => ({ eventId, organizerId, position })),
    );
  }

  /** The terms a new event names, per taxonomy (terms named but unknown are created). */
  async resolveTerms(input: UpdateEventDto, manager: EntityManager): Promise<TermLinks> {
    const terms: TermLinks = [];
    for (const [refs, service] of [
      [input.categories, this.categories],
      [input.tags, this.tags],
    ] as const) {
      if (refs !== undefined) terms.push({ service, ids: await service.resolveEventRefs(manager, refs) });
    }
    return terms;
  }

  /** Links an event to terms of one taxonomy. */
  async insertTermLinks(eventId: number, service: CategoriesService | TagsService, ids: number[], manager: EntityManager): Promise<void> {
    if (ids.length === 0) return;
    const { joinTable, joinColumn } = service.definition;
    await manager.query(
      `INSERT INTO ${joinTable} (event_id, ${joinColumn}) VALUES ${ids.map(() => '(?, ?)').join(', ')}`,
      ids.flatMap((termId) => [eventId, termId]),
    );
  }
}
