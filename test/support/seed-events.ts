import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { EventOrganizerEntity } from '../../src/events/event-organizer.entity.js';
import { EventEntity } from '../../src/events/event.entity.js';
import { ItemIdEntity } from '../../src/items/item-id.entity.js';
import type { ItemStatus } from '../../src/common/auth/item-status.js';
import type { TestApp } from './test-app.js';

/**
 * Events have no HTTP routes yet: the venue and organizer rules that depend on events (list filters
 * `event`, `has_events`, `only_with_upcoming`; trashing unlinks) are exercised with events written
 * straight into the database, through the same entities the service uses.
 */
export interface SeedEventOptions {
  status?: ItemStatus;
  /** Start in UTC, `YYYY-MM-DD HH:MM:SS` (the event uses the UTC zone, so local = UTC). Default: far future. */
  startUtc?: string;
  /** End in UTC; default: two hours after the start. */
  endUtc?: string;
  venueId?: number | null;
  organizerIds?: number[];
  /** Author user id; default 1 (the bootstrap administrator). */
  authorId?: number;
  hideFromListings?: boolean;
  title?: string;
  /** Publication date (UTC); default in the past, or far in the future for status `future` (spec §5.3). */
  dateUtc?: string;
}

export interface SeededEvent {
  id: number;
  slug: string;
  modifiedUtc: string;
}

function dataSource(t: TestApp): DataSource {
  return t.app.get<DataSource>(getDataSourceToken());
}

function plusHours(wall: string, hours: number): string {
  const date = new Date(`${wall.replace(' ', 'T')}Z`);
  date.setUTCHours(date.getUTCHours() + hours);
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

const MODIFIED = '2024-01-02 03:04:05';

export async function seedEvent(t: TestApp, options: SeedEventOptions = {}): Promise<SeededEvent> {
  const ds = dataSource(t);
  const startUtc = options.startUtc ?? '2099-06-01 18:00:00';
  const endUtc = options.endUtc ?? plusHours(startUtc, 2);
  return ds.transaction(async (manager) => {
    const { id } = await manager.save(ItemIdEntity, manager.create(ItemIdEntity, { kind: 'event' }));
    const slug = `seeded-event-${id}`;
    const status = options.status ?? 'publish';
    const event = manager.create(EventEntity, {
      id,
      authorId: options.authorId ?? 1,
      status,
      preTrashStatus: status === 'trash' ? 'publish' : null,
      slug: status === 'trash' ? `${slug}__trashed` : slug,
      description: '',
      excerpt: '',
      password: null,
      imageId: null,
      dateUtc: options.dateUtc ?? (status === 'future' ? '2099-12-31 00:00:00' : '2024-01-01 00:00:00'),
      dateFloating: false,
      modifiedUtc: MODIFIED,
      title: options.title ?? `Seeded event ${id}`,
      timezone: 'UTC',
      allDay: false,
      startLocal: startUtc,
      endLocal: endUtc,
      startUtc,
      endUtc,
      cost: null,
      costSymbol: '',
      costPosition: '',
      website: null,
      showMap: true,
      showMapLink: true,
      hideFromListings: options.hideFromListings ?? false,
      sticky: false,
      featured: false,
      venueId: options.venueId ?? null,
      parentId: null,
      customFields: null,
    });
    await manager.insert(EventEntity, event);
    const organizerIds = options.organizerIds ?? [];
    for (const [position, organizerId] of organizerIds.entries()) {
      await manager.insert(EventOrganizerEntity, { eventId: id, organizerId, position });
    }
    return { id, slug: event.slug, modifiedUtc: MODIFIED };
  });
}

/** The stored links of an event (to check that trashing a venue/organizer unlinks it and nothing else). */
export async function eventLinks(t: TestApp, id: number): Promise<{ venueId: number | null; organizerIds: number[]; modifiedUtc: string }> {
  const ds = dataSource(t);
  const event = await ds.getRepository(EventEntity).findOneByOrFail({ id });
  const links = await ds.getRepository(EventOrganizerEntity).find({ where: { eventId: id }, order: { position: 'ASC' } });
  return { venueId: event.venueId, organizerIds: links.map((link) => link.organizerId), modifiedUtc: event.modifiedUtc };
}
