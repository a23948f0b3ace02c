import { TRANSLATIONS_DOC, TranslationsField } from '../../translations/translations-input.js';
import type { TranslationChanges } from '../../translations/content-translations.service.js';
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
  @Doc('Organizer name.', { example: 'Harbour Walks Club' })
  @ItemName()
  organizer?: string;

  @Doc('Organizer description; HTML allowed.', { example: '<p>Volunteers who guide walks around the harbour.</p>' })
  @RichText()
  description?: string;

  @Doc('Short summary.', { example: 'Volunteer walk guides.' })
  @RichText()
  excerpt?: string;

  @Doc('Organizer slug.', { example: 'harbour-walks-club' })
  @ItemSlug()
  slug?: string;

  @Doc('Publication status of the organizer.', { example: 'publish' })
  @ItemStatusField()
  status?: 'publish' | 'future' | 'draft' | 'pending' | 'private';

  @Doc("ID of the organizer's author.", { example: 1 })
  @ItemAuthor()
  author?: number;

  @Doc('Publication date, in the site time zone.', { example: '2027-01-15 09:00:00' })
  @DateField()
  date?: string;

  @Doc('Publication date, in UTC.', { example: '2027-01-15 15:00:00' })
  @DateField()
  date_utc?: string;

  @Doc('Telephone number.', { example: '+1 312 555 0142' })
  @PlainText()
  phone?: string;

  @Doc('Website of the organizer.', { example: 'https://harbour-walks.example.org' })
  @Param(websiteUrl, { schema: { type: 'string', format: 'uri' } })
  website?: string;

  @Doc('E-mail address.', { example: 'walks@harbour-walks.example.org' })
  @PlainText()
  email?: string;

  @Doc('Featured image: the ID of an image or an image URL; an empty string for none.', { example: '' })
  @ImageField()
  image?: ImageRequest;

  @Doc('Password protecting the organizer.', { example: '' })
  @PostPassword()
  post_password?: string;

  @Doc(TRANSLATIONS_DOC, { example: { de: { organizer: 'Hafenfreunde' } } })
  @TranslationsField('organizer')
  translations?: TranslationChanges;
}
