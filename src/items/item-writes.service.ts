import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { nowUtcWall } from '../common/dates/wall-time.js';
import type { ParamProblems } from '../common/errors/api-error.js';
import type { AuthUser } from '../common/http/request-context.js';
import { freeSlug } from '../common/sql/free-slug.js';
import { sanitizeRichText } from '../common/text/html.js';
import { sanitizeSlug } from '../common/text/slug.js';
import { ImagesService } from '../images/images.service.js';
import type { ItemWriteFields } from './dto/item-fields.js';
import { ItemsService } from './items.service.js';
import type { PublishableEntity } from './publishable.entity.js';
import { defaultCreateStatus, isPublicationStatus, storedStatus } from './status-rules.js';

/** Where a write stands: what the checks found and what the item was before. */
export interface ItemWriteContext<E extends PublishableEntity> {
  /** Table of the item kind (slugs are unique per table). */
  table: string;
  /** The publication instant sent (`date`/`date_utc`), if any. */
  dateUtc: string | undefined;
  now: Date;
  isCreate: boolean;
  /** The stored item before an update. */
  previous?: E;
}

/**
 * The write rules every item shares (events, venues, organizers): the checks that need no
 * permission, the texts, author, image and password, and status, publication date and slug
 * (spec §5.2, §5.7, §6.7).
 */
@Injectable()
export class ItemWritesService {
  constructor(
    private readonly items: ItemsService,
    private readonly images: ImagesService,
  ) {}

  /** Checks of the shared fields; returns the publication date when one was sent. */
  async check(input: ItemWriteFields, problems: ParamProblems, now: Date, user: AuthUser | null): Promise<string | undefined> {
    if (input.slug !== undefined && sanitizeSlug(input.slug) === '') problems.add('slug', 'not_empty');
    if (input.author !== undefined && !(await this.items.userExists(input.author))) problems.add('author', 'author');
    const dateUtc = this.items.publicationDate(input, problems, now);
    if (input.image !== undefined && !(await this.images.acceptable(input.image, user))) problems.add('image', 'image');
    return dateUtc;
  }

  /** Author, texts, password and image; a new item starts from empty values. */
  async fillContent(entity: PublishableEntity, input: ItemWriteFields, user: AuthUser, manager: EntityManager, isCreate: boolean) {
    if (isCreate) {
      entity.authorId = input.author ?? user.id;
      entity.description = '';
      entity.excerpt = '';
      entity.password = null;
      entity.imageId = null;
      entity.preTrashStatus = null;
    } else if (input.author !== undefined) {
      entity.authorId = input.author;
    }
    if (input.description !== undefined) entity.description = sanitizeRichText(input.description);
    if (input.excerpt !== undefined) entity.excerpt = sanitizeRichText(input.excerpt);
    if (input.post_password !== undefined) entity.password = input.post_password === '' ? null : input.post_password;
    if (input.image !== undefined) entity.imageId = (await this.images.resolve(input.image, user, manager)) ?? null;
  }

  /**
   * Status, publication date and slug, then the modification time. `name` is what a new item's
   * slug is made of when none was sent.
   */
  async fillPublication<E extends PublishableEntity>(
    entity: E,
    input: ItemWriteFields,
    name: string,
    user: AuthUser,
    manager: EntityManager,
    context: ItemWriteContext<E>,
  ): Promise<void> {
    const { table } = context;
    const nowUtc = nowUtcWall(context.now);
    const requested = input.status ?? (context.isCreate ? defaultCreateStatus(user) : undefined);
    const explicitDate = context.dateUtc !== undefined;
    if (explicitDate) {
      entity.dateUtc = context.dateUtc as string;
      entity.dateFloating = false;
    } else if (context.isCreate) {
      entity.dateUtc = nowUtc;
      entity.dateFloating = true;
    }
    if (requested !== undefined) {
      // a floating publication date becomes the moment of first publication (spec §6.7)
      if (!explicitDate && entity.dateFloating && isPublicationStatus(requested)) entity.dateUtc = nowUtc;
      entity.status = storedStatus(requested, user, entity.dateUtc, nowUtc);
      if (context.previous?.status === 'trash') {
        entity.preTrashStatus = null;
        entity.slug = await this.items.restoredSlug(manager, table, entity.slug, entity.id);
      }
    }
    if (!explicitDate && entity.dateFloating && entity.status !== 'draft' && entity.status !== 'pending') entity.dateFloating = false;
    if (context.isCreate) {
      entity.slug = await this.items.slugFor(manager, table, input.slug, name, entity.id);
    } else if (input.slug !== undefined) {
      const slug = await freeSlug(manager, table, sanitizeSlug(input.slug), entity.id);
      entity.slug = entity.status === 'trash' ? await this.items.trashedSlug(manager, table, slug, entity.id) : slug;
    }
    entity.modifiedUtc = nowUtc;
  }
}
