/** Writing a category or a tag: the same term here by name, else its id and slug when free, and its mapping. */
import { nowUtcWall } from '../common/dates/wall-time.js';
import type { Action, Outcome } from './import-outcome.js';
import { TERM_ENTITY, type ImportWriteContext } from './import-write-context.js';
import { recordHash, type TermRecord } from './source-records.js';

export async function writeTerm(writer: ImportWriteContext, record: TermRecord): Promise<Outcome> {
  const { kind, sourceId } = record;
  const parentId =
    kind === 'category' && record.parentSourceId !== 0 ? (writer.mapping('category', record.parentSourceId)?.localId ?? 0) : 0;
  if (kind === 'category' && record.parentSourceId !== 0 && parentId === 0) {
    writer.notes.push(`category ${sourceId}: its parent ${record.parentSourceId} could not be imported, it is at the top here`);
  }
  const hash = recordHash(record, parentId);
  const entity = TERM_ENTITY[kind];
  return writer.transaction(async (manager) => {
    const row = writer.mapping(kind, sourceId);
    const local = row ? await manager.findOneBy(entity, { id: row.localId }) : null;
    if (row) {
      const decision = writer.decide(row, null, hash, local?.modifiedUtc ?? null);
      if (!decision.write) return writer.settle(manager, row, decision.action as Action, decision.reason);
    }
    const modifiedUtc = nowUtcWall();
    const values = { name: record.name, description: record.description, modifiedUtc, ...(kind === 'category' ? { parentId } : {}) };
    let localId: number;
    let renumbered = false;
    let merged = false;
    let action: Action = 'created';
    let slug: string;
    if (row && local) {
      localId = row.localId;
      slug = record.slug === row.sourceSlug ? local.slug : await writer.slug(manager, kind, record.slug, record.name, localId);
      action = 'updated';
      await writer.recording(manager, kind, localId, () => manager.update(entity, { id: localId }, { ...values, slug }));
    } else if (row) {
      // deleted here and written again (policy overwrite): the same id
      localId = row.localId;
      slug = await writer.slug(manager, kind, record.slug, record.name, localId);
      await writer.recording(manager, kind, localId, () => manager.insert(entity, { id: localId, slug, ...values }));
    } else {
      // a term of the same name under the same parent is the same term (names are unique, §11.9)
      const same = await manager
        .getRepository(entity)
        .createQueryBuilder('t')
        .where('LOWER(t.name) = LOWER(:name)', { name: record.name })
        .andWhere(kind === 'category' ? 't.parent_id = :parentId' : '1 = 1', { parentId })
        .orderBy('t.id')
        .getOne();
      if (same) {
        localId = same.id;
        slug = same.slug;
        merged = true;
        renumbered = same.id !== sourceId;
        action = 'unchanged';
      } else {
        const claimed = await writer.termId(manager, kind, sourceId);
        localId = claimed.id;
        renumbered = claimed.renumbered;
        slug = await writer.slug(manager, kind, record.slug, record.name, localId);
        await writer.recording(manager, kind, localId, () => manager.insert(entity, { id: localId, slug, ...values }));
      }
    }
    const written = merged ? ((await manager.findOneBy(entity, { id: localId }))?.modifiedUtc ?? null) : modifiedUtc;
    await writer.saveMapping(manager, {
      kind,
      sourceRecordId: sourceId,
      localId,
      sourceSlug: record.slug,
      sourceModifiedUtc: null,
      contentHash: hash,
      localModifiedUtc: written,
      sourceStatus: 'publish',
    });
    return {
      action,
      kind,
      sourceId,
      localId,
      name: record.name,
      ...(renumbered ? { renumbered } : {}),
      ...(merged ? { merged } : {}),
      ...(record.slug !== '' && slug !== record.slug && !merged ? { slugChanged: { from: record.slug, to: slug } } : {}),
    };
  });
}
