/** Writing a venue or an organizer, and what every item write shares: author, password, status, image, the insert or update with its id, slug and mapping. */
import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { ItemStatus } from '../common/auth/item-status.js';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { ImageEntity } from '../images/image.entity.js';
import type { PublishableEntity } from '../items/publishable.entity.js';
import type { ImportMappingEntity } from './import-mapping.entity.js';
import type { Action, Outcome } from './import-outcome.js';
import { ITEM_ENTITY, type ImportWriteContext } from './import-write-context.js';
import {
  recordHash,
  type EventRecord,
  type LinkedRecord,
  type OrganizerRecord,
  type SourceImage,
  type VenueRecord,
} from './source-records.js';

/** A random password for a protected record whose password the source does not tell. */
function placeholderPassword(): string {
  return randomBytes(18).toString('base64url');
}

/** The local image of a source image: mapped before, registered with the same URL, or registered now. */
export async function localImage(
  writer: ImportWriteContext,
  manager: EntityManager,
  image: SourceImage | null,
  authorId: number,
): Promise<number | null> {
  if (!image) return null;
  const urlHash = createHash('sha256').update(image.url).digest('hex');
  const mapped = image.sourceId !== null ? writer.mapping('image', image.sourceId) : undefined;
  if (mapped) {
    const local = await manager.findOneBy(ImageEntity, { id: mapped.localId });
    if (local && local.urlHash === urlHash) return local.id;
  }
  const existing = await manager.findOneBy(ImageEntity, { urlHash });
  let localId = existing?.id;
  if (localId === undefined) {
    const claimed = await writer.itemId(manager, 'image', image.sourceId);
    localId = claimed.id;
    if (claimed.renumbered && image.sourceId !== null) writer.renumberedImages.push({ sourceId: image.sourceId, localId });
    if (!writer.settings.dryRun) {
      await manager.insert(ImageEntity, {
        id: localId,
        url: image.url,
        urlHash,
        extension: image.extension,
        authorId,
        createdUtc: nowUtcWall(),
      });
    }
  }
  if (image.sourceId !== null) {
    await writer.saveMapping(manager, {
      kind: 'image',
      sourceRecordId: image.sourceId,
      localId,
      sourceSlug: '',
      sourceModifiedUtc: null,
      contentHash: urlHash,
      localModifiedUtc: null,
      sourceStatus: 'publish',
    });
  }
  return localId;
}

export function authorOf(writer: ImportWriteContext, sourceAuthorId: number | null): number {
  return (sourceAuthorId !== null ? writer.settings.authors.get(sourceAuthorId) : undefined) ?? writer.settings.defaultAuthorId;
}

/** The password a record gets here: the source's, the one set here before, or a random one. */
export async function password(
  writer: ImportWriteContext,
  kind: 'event' | 'venue' | 'organizer',
  record: EventRecord | LinkedRecord,
  previous: string | null,
  protectedAtSource: boolean,
) {
  if (!protectedAtSource && !record.redacted) return null;
  return (await writer.passwords(kind, record.sourceId)) ?? previous ?? placeholderPassword();
}

/** Status fields of a write: a record trashed at the source keeps the status it had here before. */
export function statusFields(record: EventRecord | LinkedRecord, local: PublishableEntity | null) {
  if (record.status !== 'trash') return { status: record.status, preTrashStatus: null };
  const before: ItemStatus = local && local.status !== 'trash' ? local.status : (local?.preTrashStatus ?? 'draft');
  return { status: 'trash' as const, preTrashStatus: before };
}

/** Fields a reader who cannot unlock a protected record still sees (contract §5.6); the others are withheld from it. */
const SHOWN_WHEN_REDACTED = new Set([
  'authorId',
  'status',
  'preTrashStatus',
  'dateUtc',
  'dateFloating',
  'modifiedUtc',
  'title',
  'timezone',
  'startLocal',
  'endLocal',
  'startUtc',
  'endUtc',
]);

/**
 * Whether the run sees a record imported before only in part: redacted (password-protected, not
 * unlocked for these credentials). Then only what it shows is written, and what it withholds
 * (content, links, the password) stays as it is here. Organizers show no sign of redaction on every
 * source: one protected here is taken as redacted by a run without credentials.
 */
export function seenInPart(writer: ImportWriteContext, record: EventRecord | LinkedRecord, local: PublishableEntity | null): boolean {
  if (!local) return false;
  return record.redacted || (record.kind === 'organizer' && !writer.settings.authenticated && !!local.password);
}

/** The fields to write: all of them, or for a record seen in part those it shows (and a password only where there was none). */
export function shownFields(fields: Record<string, unknown>, partial: boolean, local: PublishableEntity | null): Record<string, unknown> {
  if (!partial) return fields;
  const shown = Object.fromEntries(Object.entries(fields).filter(([key]) => SHOWN_WHEN_REDACTED.has(key)));
  // the name of a venue or organizer is withheld by the reference (an empty value), not by this service
  if (typeof fields.name === 'string' && fields.name !== '') shown.name = fields.name;
  if (!local?.password) shown.password = fields.password;
  return shown;
}

/** A venue or an organizer. `protectedAtSource`: the anonymous view of the source showed it redacted. */
export async function writeLinked(
  writer: ImportWriteContext,
  record: LinkedRecord,
  protectedAtSource: boolean,
  dependency = false,
): Promise<Outcome> {
  const { kind, sourceId } = record;
  const row = writer.mapping(kind, sourceId);
  const older = !dependency && writer.older(record.modifiedUtc);
  if (!row && older) return { action: 'older', kind, sourceId, localId: null };
  const entity = ITEM_ENTITY[kind];
  const outcome = await writer.transaction(async (manager) => {
    const local = row ? ((await manager.findOneBy(entity, { id: row.localId })) as PublishableEntity | null) : null;
    const partial = seenInPart(writer, record, local);
    // a record seen in part counts as changed only when the source's `modified` moved
    const hash = partial && row ? row.contentHash : recordHash(record, protectedAtSource);
    if (row) {
      if (older) return writer.settle(manager, row, 'older');
      const decision = writer.decide(row, record.modifiedUtc, hash, local?.modifiedUtc ?? null);
      if (!decision.write) return writer.settle(manager, row, decision.action as Action, decision.reason);
    }
    const authorId = authorOf(writer, record.authorSourceId);
    const fields = {
      authorId,
      ...statusFields(record, local),
      description: record.description,
      excerpt: record.excerpt,
      password: await password(writer, kind, record, local?.password ?? null, protectedAtSource),
      imageId: await localImage(writer, manager, record.image, authorId),
      dateUtc: record.dateUtc,
      dateFloating: record.dateFloating,
      modifiedUtc: record.modifiedUtc,
      name: record.name,
      ...(record.kind === 'venue' ? venueFields(record) : organizerFields(record)),
    };
    // in the trash at the source, its events there keep linking to it: so do they here
    return upsertItem(writer, manager, kind, record, row, local, shownFields(fields, partial, local), hash, () => Promise.resolve());
  });
  return outcome;
}

/**
 * Insert or update of an item with its id, slug and mapping; `links` runs inside the change
 * recording (event links, unlinking). Returns the outcome.
 */
export async function upsertItem(
  writer: ImportWriteContext,
  manager: EntityManager,
  kind: 'event' | 'venue' | 'organizer',
  record: EventRecord | LinkedRecord,
  row: ImportMappingEntity | undefined,
  local: PublishableEntity | null,
  fields: Record<string, unknown>,
  hash: string,
  links: (localId: number, isNew: boolean) => Promise<void>,
): Promise<Outcome> {
  const entity = ITEM_ENTITY[kind];
  let localId: number;
  let renumbered = false;
  let slug: string;
  const isNew = !row || !local;
  if (row && local) {
    localId = row.localId;
    slug = record.slug === row.sourceSlug ? local.slug : await writer.slug(manager, kind, record.slug, nameOf(record), localId);
  } else if (row) {
    localId = row.localId;
    slug = await writer.slug(manager, kind, record.slug, nameOf(record), localId);
  } else {
    const claimed = await writer.itemId(manager, kind, record.sourceId);
    localId = claimed.id;
    renumbered = claimed.renumbered;
    slug = await writer.slug(manager, kind, record.slug, nameOf(record), localId);
  }
  const values = { ...fields, slug };
  await writer.recording(manager, kind, localId, async () => {
    if (isNew) await manager.insert(entity, { id: localId, ...values });
    else await manager.update(entity, { id: localId }, values);
    await links(localId, isNew);
  });
  await writer.saveMapping(manager, {
    kind,
    sourceRecordId: record.sourceId,
    localId,
    sourceSlug: record.slug,
    sourceModifiedUtc: record.modifiedUtc,
    contentHash: hash,
    localModifiedUtc: record.modifiedUtc,
    sourceStatus: record.status,
  });
  return {
    action: isNew ? 'created' : record.status === 'trash' && local?.status !== 'trash' ? 'trashed' : 'updated',
    kind,
    sourceId: record.sourceId,
    localId,
    name: nameOf(record),
    ...(renumbered ? { renumbered } : {}),
    ...(record.slug !== '' && slug !== record.slug ? { slugChanged: { from: record.slug, to: slug } } : {}),
  };
}

function nameOf(record: EventRecord | LinkedRecord): string {
  return record.kind === 'event' ? record.title : record.name;
}

function venueFields(record: VenueRecord) {
  return {
    address: record.address,
    city: record.city,
    country: record.country,
    province: record.province,
    state: record.state,
    zip: record.zip,
    phone: record.phone,
    stateprovince: record.stateprovince,
    website: record.website,
    showMap: record.showMap,
    showMapLink: record.showMapLink,
    geoLat: record.geoLat,
    geoLng: record.geoLng,
  };
}

function organizerFields(record: OrganizerRecord) {
  return { phone: record.phone, website: record.website, email: record.email };
}
