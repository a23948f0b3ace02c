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
import { Doc } from '../../common/validation/doc.js';
import { CollectsProblems } from '../../common/validation/api-validation.pipe.js';

/** Fields of an organizer write (spec §11.8); on update every field is optional. */
@CollectsProblems()
export class UpdateOrganizerDto implements ItemWriteFields {
  @Doc('Organizer name.')
  @ItemName()
  organizer?: string;

  @Doc('Organizer description; HTML allowed.')
  @RichText()
  description?: string;

  @Doc('Short summary.')
  @RichText()
  excerpt?: string;

  @Doc('Organizer slug.')
  @ItemSlug()
  slug?: string;

  @Doc('Publication status of the organizer.')
  @ItemStatusField()
  status?: 'publish' | 'future' | 'draft' | 'pending' | 'private';

  @Doc("ID of the organizer's author.")
  @ItemAuthor()
  author?: number;

  @Doc('Publication date, in the site time zone.')
  @DateField()
  date?: string;

  @Doc('Publication date, in UTC.')
  @DateField()
  date_utc?: string;

  @Doc('Telephone number.')
  @PlainText()
  phone?: string;

  @Doc('Website of the organizer.')
  @Param(websiteUrl, { schema: { type: 'string', format: 'uri' } })
  website?: string;

  @Doc('E-mail address.')
  @PlainText()
  email?: string;

  @Doc('Featured image: the ID of an image or an image URL.')
  @ImageField()
  image?: ImageRequest;

  @Doc('Password protecting the organizer.')
  @PostPassword()
  post_password?: string;
}
