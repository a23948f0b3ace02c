import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { isPublisher } from '../common/auth/permissions.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import type { AuthUser } from '../common/http/request-context.js';
import { isRowId } from '../common/sql/row-id.js';
import { ItemIdEntity } from '../items/item-id.entity.js';
import { ImageEntity } from './image.entity.js';
import type { ImageResponse } from './image.response.js';

const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'jpe', 'png', 'gif', 'webp', 'avif', 'bmp', 'tif', 'tiff', 'heic', 'ico'];
const MAX_URL_LENGTH = 2000;

/** What an `image` input asks for: nothing, an existing image, or an image URL. */
export type ImageRequest = { kind: 'none' } | { kind: 'id'; id: number } | { kind: 'url'; url: string; extension: string };

/** Reads an `image` input (spec §8.6); null when it is neither an id, an image URL nor empty. */
export function parseImageInput(value: unknown): ImageRequest | null {
  if (value === null || value === false || value === '' || value === 0 || value === '0') return { kind: 'none' };
  if (typeof value === 'number') return isRowId(value) ? { kind: 'id', id: value } : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) === 0 ? { kind: 'none' } : { kind: 'id', id: Number(text) };
  if (text.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || /\s/.test(text)) return null;
  const extension = /\.([A-Za-z0-9]+)$/.exec(url.pathname)?.[1]?.toLowerCase();
  if (!extension || !IMAGE_EXTENSIONS.includes(extension)) return null;
  return { kind: 'url', url: text, extension };
}

/** Images are registered references to URLs; the service never fetches them. */
@Injectable()
export class ImagesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The image id for a write, registering a new URL for publishers; undefined when not acceptable. */
  async resolve(request: ImageRequest, user: AuthUser, manager: EntityManager): Promise<number | null | undefined> {
    if (request.kind === 'none') return null;
    if (request.kind === 'id') return (await manager.existsBy(ImageEntity, { id: request.id })) ? request.id : undefined;
    const urlHash = createHash('sha256').update(request.url).digest('hex');
    const existing = await manager.findOneBy(ImageEntity, { urlHash });
    if (existing) return existing.id;
    if (!isPublisher(user)) return undefined;
    const { id } = await manager.save(ItemIdEntity, manager.create(ItemIdEntity, { kind: 'image' }));
    await manager.insert(ImageEntity, {
      id,
      url: request.url,
      urlHash,
      extension: request.extension,
      authorId: user.id,
      createdUtc: nowUtcWall(),
    });
    return id;
  }

  /** Whether an image request can be honoured without writing (validation before permission checks). */
  async acceptable(request: ImageRequest, user: AuthUser | null): Promise<boolean> {
    if (request.kind === 'none') return true;
    if (request.kind === 'id') return this.dataSource.getRepository(ImageEntity).existsBy({ id: request.id });
    if (user && isPublisher(user)) return true;
    const urlHash = createHash('sha256').update(request.url).digest('hex');
    return this.dataSource.getRepository(ImageEntity).existsBy({ urlHash });
  }

  async payloads(ids: Array<number | null>, manager?: EntityManager): Promise<Map<number, ImageResponse>> {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    if (wanted.length === 0) return new Map();
    const images = await (manager ?? this.dataSource.manager).findBy(ImageEntity, { id: In(wanted) });
    return new Map(images.map((image) => [image.id, { url: image.url, id: image.id, extension: image.extension }]));
  }
}
