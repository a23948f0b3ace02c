import { Param } from '../../common/validation/param.js';
import { dateText, text, userId, writableStatus } from '../../common/validation/parsers.js';
import { parseImageInput, type ImageRequest } from '../../images/images.service.js';
import { Invalid } from '../../common/validation/param.js';
import { WRITABLE_STATUSES } from '../../common/auth/item-status.js';

/** Field decorators shared by the write DTOs of events, venues and organizers (spec §11). */
export const RICH_TEXT_MAX = 65535;
export const NAME_MAX = 1000;
export const SLUG_MAX = 200;
export const TEXT_MAX = 255;

export const ItemName = (required = false) => Param(text({ max: NAME_MAX, nonEmpty: true }), { required, schema: { type: 'string' } });
export const RichText = () => Param(text({ max: RICH_TEXT_MAX }), { schema: { type: 'string' } });
export const ItemSlug = () => Param(text({ max: SLUG_MAX, nonEmpty: true }), { schema: { type: 'string' } });
export const ItemStatusField = () => Param(writableStatus, { schema: { type: 'string', enum: [...WRITABLE_STATUSES] } });
export const ItemAuthor = () => Param(userId, { schema: { type: 'integer' } });
export const DateField = (required = false) => Param(dateText, { required, schema: { type: 'string' } });
export const PlainText = () => Param(text({ max: TEXT_MAX }), { schema: { type: 'string' } });
export const ImageField = () =>
  Param(
    (raw): ImageRequest | Invalid =>
      parseImageInput(Array.isArray(raw) && raw.length === 1 ? raw[0] : raw) ?? new Invalid({ key: 'image' }),
    {
      schema: { type: 'string' },
    },
  );
/** Extension: password protecting the item (spec §5.6); `""` or null removes it. */
export const PostPassword = () => Param(text({ max: TEXT_MAX }), { schema: { type: 'string' } });

/** The fields every item write accepts. */
/** The fields every item writes after its name, in the order a write reports their problems. */
export const ITEM_FIELDS_AFTER_NAME = ['description', 'excerpt', 'slug', 'status', 'author', 'date', 'date_utc'];

export interface ItemWriteFields {
  description?: string;
  excerpt?: string;
  slug?: string;
  status?: (typeof WRITABLE_STATUSES)[number];
  author?: number;
  date?: string;
  date_utc?: string;
  image?: ImageRequest;
  post_password?: string;
}
