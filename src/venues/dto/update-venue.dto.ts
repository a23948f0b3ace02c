import { Param } from '../../common/validation/param.js';
import { nullableNumber, truthyWord, websiteUrl } from '../../common/validation/parsers.js';
import type { ImageRequest } from '../../images/images.service.js';
import {
  DateField,
  ImageField,
  ItemAuthor,
  ItemName,
  ItemSlug,
  ItemStatusField,
  PlainText,
  PostPassword,
  RichText,
  type ItemWriteFields,
} from '../../items/dto/item-fields.js';

/** Fields of a venue write (spec §11.7); on update every field is optional. */
export class UpdateVenueDto implements ItemWriteFields {
  /** Venue name. */
  @ItemName()
  venue?: string;

  /** Venue description; HTML allowed. */
  @RichText()
  description?: string;

  /** Short summary. */
  @RichText()
  excerpt?: string;

  /** Venue slug. */
  @ItemSlug()
  slug?: string;

  /** Publication status of the venue. */
  @ItemStatusField()
  status?: 'publish' | 'future' | 'draft' | 'pending' | 'private';

  /** ID of the venue's author. */
  @ItemAuthor()
  author?: number;

  /** Publication date, in the site time zone. */
  @DateField()
  date?: string;

  /** Publication date, in UTC. */
  @DateField()
  date_utc?: string;

  /** Whether events at the venue show a map. */
  @Param(truthyWord(true), { schema: { type: 'string' } })
  show_map?: boolean;

  /** Whether events at the venue show a map link. */
  @Param(truthyWord(true), { schema: { type: 'string' } })
  show_map_link?: boolean;

  /** Street address. */
  @PlainText()
  address?: string;

  /** City. */
  @PlainText()
  city?: string;

  /** Country. */
  @PlainText()
  country?: string;

  /** Province. */
  @PlainText()
  province?: string;

  /** State. */
  @PlainText()
  state?: string;

  /** Postal code. */
  @PlainText()
  zip?: string;

  /** Telephone number. */
  @PlainText()
  phone?: string;

  /** Combined state or province. */
  @PlainText()
  stateprovince?: string;

  /** Website of the venue. */
  @Param(websiteUrl, { schema: { type: 'string', format: 'uri' } })
  website?: string;

  /** Featured image: the ID of an image or an image URL. */
  @ImageField()
  image?: ImageRequest;

  /** Latitude in decimal degrees. */
  @Param(nullableNumber({ min: -90, max: 90 }), { schema: { type: 'number', format: 'double' } })
  geo_lat?: number | null;

  /** Longitude in decimal degrees. */
  @Param(nullableNumber({ min: -180, max: 180 }), { schema: { type: 'number', format: 'double' } })
  geo_lng?: number | null;

  /** Password protecting the venue. */
  @PostPassword()
  post_password?: string;
}
