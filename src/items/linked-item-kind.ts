import type { ItemResource } from '../common/auth/permissions.js';
import type { ParamProblems } from '../common/errors/api-error.js';
import type { ImageResponse } from '../images/image.response.js';
import type { ItemWriteFields } from './dto/item-fields.js';
import type { ItemKind } from './item-id.entity.js';
import type { LinkedItemText, SiteLinks } from './item.mapper.js';
import type { PublishableEntity } from './publishable.entity.js';

/** The entity fields venues and organizers share, plus their name. */
export type LinkedItem = PublishableEntity & { name: string };

export type ItemRef = { id: number } | { slug: string };

/** What differs between venues and organizers; the rules themselves live in {@link LinkedItemsService}. */
export interface LinkedKindDefinition<E extends LinkedItem, D extends ItemWriteFields, R extends object> {
  kind: Extract<ItemKind, 'venue' | 'organizer'>;
  resource: Extract<ItemResource, 'venues' | 'organizers'>;
  table: string;
  entity: new () => E;
  /** Body field holding the name (`venue`, `organizer`). */
  nameField: keyof D & string;
  /** Write fields in parameter-table order, for ordering errors. */
  writeOrder: readonly string[];
  /** Body fields compared for de-duplication on create, with the entity property each maps to. */
  dedupFields: ReadonlyArray<[keyof D & string, keyof E & string]>;
  /** SQL expressions searched (spec §9.5), over alias `i`. */
  searchColumns: readonly string[];
  /** Applies the kind's own fields of a write to the entity; returns problems it finds. */
  applyFields: (entity: E, input: D, problems: ParamProblems, isCreate: boolean) => void;
  /** `text`: the name and description in the reader's languages (the entity's own unless given). */
  toPayload: (entity: E, image: ImageResponse | undefined, site: SiteLinks, withJsonLd: boolean, text?: LinkedItemText) => R;
}
