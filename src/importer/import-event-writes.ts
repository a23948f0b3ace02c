/** Writing an event with its venue, organizers, categories and tags, and the term counts it moves. */
import type { EntityManager } from 'typeorm';
import { forUpdate } from '../common/sql/for-update.js';
import { EventOrganizerEntity } from '../events/event-organizer.entity.js';
import { keepingTermCounts, moveTermCounts, NO_CONTRIBUTION, termContribution } from '../events/event-term-counts.js';
import { EventEntity } from '../events/event.entity.js';
import type { Action, Outcome } from './import-outcome.js';
import { authorOf, localImage, password, seenInPart, shownFields, statusFields, upsertItem } from './import-item-writes.js';
import { ITEM_ENTITY, TERM_ENTITY, type ImportWriteContext } from './import-write-context.js';
import { recordHash, type EventRecord } from './source-records.js';

/** An event with its venue, organizers, categories and tags (imported first when they are not yet). */
export async function writeEvent(writer: ImportWriteContext, record: EventRecord, protectedAtSource: boolean): Promise<Outcome> {
  const { sourceId } = record;
  const row = writer.mapping('event', sourceId);
  const older = writer.older(record.modifiedUtc);
  if (!row && older) return { action: 'older', kind: 'event', sourceId, localId: null };
  const customFields: Record<string, string> = {};
  for (const [key, { label, value }] of Object.entries(record.customFields)) {
    if (writer.settings.customFieldKeys.has(key)) customFields[key] = value;
    else writer.notes.push(`custom field ${key} ("${label}") is not defined in EVENT_CUSTOM_FIELDS here: its values were left out`);
  }
  return writer.transaction(async (manager) => {
    const local = row ? await manager.findOneBy(EventEntity, { id: row.localId }) : null;
    const partial = seenInPart(writer, record, local);
    // a record seen in part counts as changed only when the source's `modified` moved
    const hash = partial && row ? row.contentHash : recordHash(record, protectedAtSource);
    if (row) {
      if (older) return writer.settle(manager, row, 'older');
      const decision = writer.decide(row, record.modifiedUtc, hash, local?.modifiedUtc ?? null);
      if (!decision.write) return writer.settle(manager, row, decision.action as Action, decision.reason);
    }
    const authorId = authorOf(writer, record.authorSourceId);
    const venueId = partial ? null : await linkTarget(writer, manager, 'venue', record.venue?.sourceId ?? null, sourceId);
    const organizerIds: number[] = [];
    for (const ref of partial ? [] : record.organizers) {
      const id = await linkTarget(writer, manager, 'organizer', ref.sourceId, sourceId);
      if (id !== null && !organizerIds.includes(id)) organizerIds.push(id);
    }
    const termIds = { category: [] as number[], tag: [] as number[] };
    for (const taxonomy of ['category', 'tag'] as const) {
      for (const ref of partial ? [] : taxonomy === 'category' ? record.categories : record.tags) {
        const mapped = writer.mapping(taxonomy, ref.sourceId)?.localId;
        if (mapped === undefined) writer.noteLink(taxonomy, ref.sourceId, 'could not be imported: the link was left out of', sourceId);
        else if (!termIds[taxonomy].includes(mapped)) termIds[taxonomy].push(mapped);
      }
    }
    const fields = {
      authorId,
      ...statusFields(record, local),
      description: record.description,
      excerpt: record.excerpt,
      password: await password(writer, 'event', record, local?.password ?? null, protectedAtSource),
      imageId: await localImage(writer, manager, record.image, authorId),
      dateUtc: record.dateUtc,
      dateFloating: record.dateFloating,
      modifiedUtc: record.modifiedUtc,
      title: record.title,
      timezone: record.timezone,
      allDay: record.allDay,
      startLocal: record.startLocal,
      endLocal: record.endLocal,
      startUtc: record.startUtc,
      endUtc: record.endUtc,
      cost: record.cost,
      costSymbol: record.costSymbol,
      costPosition: record.costPosition,
      website: record.website,
      showMap: record.showMap,
      showMapLink: record.showMapLink,
      hideFromListings: record.hideFromListings,
      sticky: record.sticky,
      featured: record.featured,
      venueId,
      parentId: local?.parentId ?? null,
      customFields: Object.keys(customFields).length > 0 ? customFields : null,
    };
    const isNew = !row || !local;
    const write = () =>
      upsertItem(writer, manager, 'event', record, row, local, shownFields(fields, partial, local), hash, async (localId, created) => {
        // links are withheld from a record seen in part: they stay as they are here
        if (partial) return;
        if (!created) {
          await manager.delete(EventOrganizerEntity, { eventId: localId });
          await manager.createQueryBuilder().delete().from('event_categories').where('event_id = :localId', { localId }).execute();
          await manager.createQueryBuilder().delete().from('event_tags').where('event_id = :localId', { localId }).execute();
        }
        if (organizerIds.length > 0) {
          await manager.insert(
            EventOrganizerEntity,
            organizerIds.map((organizerId, position) => ({ eventId: localId, organizerId, position })),
          );
        }
        for (const [taxonomy, table, column] of [
          ['category', 'event_categories', 'category_id'],
          ['tag', 'event_tags', 'tag_id'],
        ] as const) {
          const ids = [...termIds[taxonomy]].sort((a, b) => a - b);
          if (ids.length === 0) continue;
          // the terms are locked in id order first, as the events' own writes do (no deadlock with them)
          await forUpdate(
            manager
              .getRepository(TERM_ENTITY[taxonomy])
              .createQueryBuilder('t')
              .select('t.id')
              .where('t.id IN (:...ids)', { ids })
              .orderBy('t.id'),
          ).getRawMany();
          await manager
            .createQueryBuilder()
            .insert()
            .into(table)
            .values(ids.map((termId) => ({ event_id: localId, [column]: termId })))
            .execute();
        }
      });
    if (writer.settings.dryRun) return write();
    if (isNew) {
      const outcome = await write();
      await moveTermCounts(manager, NO_CONTRIBUTION, await termContribution(manager, [outcome.localId as number]));
      return outcome;
    }
    return keepingTermCounts(manager, [row.localId], write);
  });
}

/**
 * The local id of a linked venue or organizer; null when it could not be imported or no longer
 * exists here. A venue or organizer in the trash stays linked, as the source's events keep linking
 * to theirs (one note per record, not per event).
 */
async function linkTarget(
  writer: ImportWriteContext,
  manager: EntityManager,
  kind: 'venue' | 'organizer',
  sourceId: number | null,
  eventId: number,
): Promise<number | null> {
  if (sourceId === null) return null;
  const mapped = writer.mapping(kind, sourceId);
  if (!mapped) {
    writer.noteLink(kind, sourceId, 'could not be imported: the link was left out of', eventId);
    return null;
  }
  if (writer.settings.dryRun) return mapped.localId;
  const target = await manager.findOneBy(ITEM_ENTITY[kind], { id: mapped.localId });
  if (!target) {
    writer.noteLink(kind, sourceId, 'no longer exists here: the link was left out of', eventId);
    return null;
  }
  if (target.status === 'trash') writer.noteLink(kind, sourceId, 'is in the trash here, and still linked, as at the source, from', eventId);
  return target.id;
}
