import { Param } from '../../common/validation/param.js';
import { websiteUrl } from '../../common/validation/parsers.js';
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

/** Fields of an organizer write (spec §11.8); on update every field is optional. */
export class UpdateOrganizerDto implements ItemWriteFields {
  /** Organizer name. */
  @ItemName()
  organizer?: string;

  /** Organizer description; HTML allowed. */
  @RichText()
  description?: string;

  /** Short summary. */
  @RichText()
  excerpt?: string;

  /** Organizer slug. */
  @ItemSlug()
  slug?: string;

  /** Publication status of the organizer. */
  @ItemStatusField()
  status?: 'publish' | 'future' | 'draft' | 'pending' | 'private';

  /** ID of the organizer's author. */
  @ItemAuthor()
  author?: number;

  /** Publication date, in the site time zone. */
  @DateField()
  date?: string;

  /** Publication date, in UTC. */
  @DateField()
  date_utc?: string;

  /** Telephone number. */
  @PlainText()
  phone?: string;

  /** Website of the organizer. */
  @Param(websiteUrl, { schema: { type: 'string', format: 'uri' } })
  website?: string;

  /** E-mail address. */
  @PlainText()
  email?: string;

  /** Featured image: the ID of an image or an image URL. */
  @ImageField()
  image?: ImageRequest;

  /** Password protecting the organizer. */
  @PostPassword()
  post_password?: string;
}
