import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityTarget } from 'typeorm';
import { recordingChanges } from '../changes/change-recording.js';
import { ApiError } from '../common/errors/api-error.js';
import { ItemErrorCode } from '../common/errors/error-codes.js';
import { lockedRow } from '../common/sql/unchanged-row.js';
import { ContentTranslationEntity } from '../translations/content-translation.entity.js';
import type { ItemKind } from './item-id.entity.js';
import { ItemsService } from './items.service.js';
import type { PublishableEntity } from './publishable.entity.js';

type DeletableKind = Exclude<ItemKind, 'image'>;

/**
 * Deleting an event, venue or organizer for good (`tec/v1`'s `DELETE …?force=true`): only an item
 * already in the trash, so that what trashing does (unlinking a venue or organizer from its events,
 * the term counts of an event) has been done by the trash of its kind; here the row goes with its
 * links (the link tables cascade), its translations, and a `deleted` change that keeps its last
 * state for the webhooks. Its id is never given again (ids are allocated once).
 */
@Injectable()
export class ItemDeletionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly items: ItemsService,
  ) {}

  async deleteTrashed<E extends PublishableEntity & { id: number }>(
    kind: DeletableKind,
    entity: EntityTarget<E>,
    id: number,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const row = await lockedRow(manager, entity, id);
      // a write that came between the trash and this transaction (a restore) wins: the record stays
      if (!row || row.status !== 'trash') throw new ApiError(409, ItemErrorCode.couldNot('delete', kind));
      await recordingChanges(
        manager,
        kind,
        [id],
        async () => {
          await manager.delete(ContentTranslationEntity, { kind, recordId: id });
          await manager.delete(entity, { id });
        },
        'deleted',
      );
    });
    await this.items.dataChanged();
  }
}
