/** Records gone at the source: items trashed here, terms deleted as their routes delete them. */
import type { EntityManager } from 'typeorm';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { freeSlug } from '../common/sql/free-slug.js';
import { CategoryEntity } from '../categories/category.entity.js';
import { recordingChanges } from '../changes/change-recording.js';
import { keepingTermCounts } from '../events/event-term-counts.js';
import type { PublishableEntity } from '../items/publishable.entity.js';
import type { TagEntity } from '../tags/tag.entity.js';
import { ImportMappingEntity } from './import-mapping.entity.js';
import type { Outcome } from './import-outcome.js';
import { ITEM_ENTITY, TABLE, TERM_ENTITY, type ImportWriteContext } from './import-write-context.js';

/**
 * A record that disappeared at the source (for what the run's credentials can see): items go to
 * the trash here, terms are deleted (terms have no trash), unless edited here and the policy keeps
 * local edits. `action`: `deleted` when the source deleted it for good (an item is still only
 * trashed here), `trashed` otherwise. Events keep their links to a venue or organizer trashed so,
 * as the source's events keep theirs.
 */
export async function removeVanished(
  writer: ImportWriteContext,
  row: ImportMappingEntity,
  action: 'trashed' | 'deleted',
): Promise<Outcome> {
  const { kind } = row;
  if (kind === 'image') return { action: 'unchanged', kind, sourceId: row.sourceRecordId, localId: row.localId };
  return writer.transaction(async (manager) => {
    if (kind === 'category' || kind === 'tag') {
      const entity = TERM_ENTITY[kind];
      const term = await manager.findOneBy(entity, { id: row.localId });
      if (!term) return writer.forget(manager, row);
      if (term.modifiedUtc !== row.localModifiedUtc && writer.settings.policy !== 'overwrite') {
        return writer.settle(manager, row, writer.settings.policy === 'skip' ? 'skipped' : 'kept', 'gone at the source but edited here');
      }
      if (!writer.settings.dryRun) {
        await keepingLinks(manager, kind, row.localId, term);
        writer.wrote = true;
      }
      await writer.forget(manager, row);
      return { action: 'deleted', kind, sourceId: row.sourceRecordId, localId: row.localId, name: term.name };
    }
    const entity = ITEM_ENTITY[kind];
    const item = (await manager.findOneBy(entity, { id: row.localId })) as PublishableEntity | null;
    const { title, name: itemName } = (item ?? {}) as { title?: string; name?: string };
    const name = title ?? itemName ?? '';
    const outcome = { action, kind, sourceId: row.sourceRecordId, localId: row.localId, name };
    // deleted for good: said once, then the source id is forgotten (it names nothing any more)
    if (!item || item.status === 'trash')
      return action === 'deleted' ? { ...(await writer.forget(manager, row)), ...outcome } : writer.settle(manager, row, 'unchanged');
    if (item.modifiedUtc !== row.localModifiedUtc && writer.settings.policy !== 'overwrite') {
      return writer.settle(manager, row, writer.settings.policy === 'skip' ? 'skipped' : 'kept', 'gone at the source but edited here');
    }
    const modifiedUtc = nowUtcWall();
    if (!writer.settings.dryRun) {
      const trash = async () => {
        const slug = await freeSlug(manager, TABLE[kind], `${item.slug.replace(/__trashed(-\d+)?$/, '')}__trashed`, item.id);
        await writer.recording(manager, kind, item.id, () =>
          manager.update(entity, { id: item.id }, { status: 'trash', preTrashStatus: item.status, slug, modifiedUtc } as never),
        );
      };
      if (kind === 'event') await keepingTermCounts(manager, [item.id], trash);
      else await trash();
    }
    if (action === 'deleted') return { ...(await writer.forget(manager, row)), ...outcome };
    row.sourceStatus = 'trash';
    row.localModifiedUtc = modifiedUtc;
    row.lastSeenRun = writer.settings.runId;
    if (!writer.settings.dryRun) await manager.save(ImportMappingEntity, row);
    return outcome;
  });
}

/** Deletes a term as `DELETE /categories/<id>` does: links go, children move up, counts follow. */
async function keepingLinks(manager: EntityManager, kind: 'category' | 'tag', id: number, term: CategoryEntity | TagEntity): Promise<void> {
  const table = kind === 'category' ? 'event_categories' : 'event_tags';
  const column = kind === 'category' ? 'category_id' : 'tag_id';
  const entity = TERM_ENTITY[kind];
  await manager.createQueryBuilder().delete().from(table).where(`${column} = :id`, { id }).execute();
  if (kind === 'category') {
    const children = (await manager.findBy(CategoryEntity, { parentId: id })).map((child) => child.id);
    await recordingChanges(manager, 'category', children, () =>
      manager.update(CategoryEntity, { parentId: id }, { parentId: (term as CategoryEntity).parentId ?? 0 }),
    );
  }
  await recordingChanges(manager, kind, [id], () => manager.delete(entity, { id }));
}
