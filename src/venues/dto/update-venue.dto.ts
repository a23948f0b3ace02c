import { TRANSLATIONS_DOC, TranslationsField } from '../../translations/translations-input.js';
import type { TranslationChanges } from '../../translations/content-translations.service.js';
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
import { Doc } from '../../common/validation/doc.js';
import { CollectsProblems } from '../../common/validation/api-validation.pipe.js';

/** Fields of a venue write (spec §11.7); on update every field is optional. */
@CollectsProblems()
export class UpdateVenueDto implements ItemWriteFields {
  @Doc('Venue name.', { example: 'Harbour Pavilion' })
  @ItemName()
  venue?: string;

  @Doc('Venue description; HTML allowed.', { example: '<p>An open pavilion at the end of the pier.</p>' })
  @RichText()
  description?: string;

  @Doc('Short summary.', { example: 'Open pavilion on the pier.' })
  @RichText()
  excerpt?: string;

  @Doc('Venue slug.', { example: 'harbour-pavilion' })
  @ItemSlug()
  slug?: string;

  @Doc('Publication status of the venue.', { example: 'publish' })
  @ItemStatusField()
  status?: 'publish' | 'future' | 'draft' | 'pending' | 'private';

  @Doc("ID of the venue's author.", { example: 1 })
  @ItemAuthor()
  author?: number;

  @Doc('Publication date, in the site time zone.', { example: '2027-01-15 09:00:00' })
  @DateField()
  date?: string;

  @Doc('Publication date, in UTC.', { example: '2027-01-15 15:00:00' })
  @DateField()
  date_utc?: string;

  @Doc('Whether events at the venue show a map.', { example: 'true' })
  @Param(truthyWord(true), { schema: { type: 'string' } })
  show_map?: boolean;

  @Doc('Whether events at the venue show a map link.', { example: 'true' })
  @Param(truthyWord(true), { schema: { type: 'string' } })
  show_map_link?: boolean;

  @Doc('Street address.', { example: '200 Pier Road' })
  @PlainText()
  address?: string;

  @Doc('City.', { example: 'Chicago' })
  @PlainText()
  city?: string;

  @Doc('Country.', { example: 'United States' })
  @PlainText()
  country?: string;

  @Doc('Province.', { example: '' })
  @PlainText()
  province?: string;

  @Doc('State.', { example: 'IL' })
  @PlainText()
  state?: string;

  @Doc('Postal code.', { example: '60611' })
  @PlainText()
  zip?: string;

  @Doc('Telephone number.', { example: '+1 312 555 0100' })
  @PlainText()
  phone?: string;

  @Doc('Combined state or province.', { example: 'IL' })
  @PlainText()
  stateprovince?: string;

  @Doc('Website of the venue.', { example: 'https://harbour-pavilion.example.org' })
  @Param(websiteUrl, { schema: { type: 'string', format: 'uri' } })
  website?: string;

  @Doc('Featured image: the ID of an image or an image URL; an empty string for none.', { example: '' })
  @ImageField()
  image?: ImageRequest;

  @Doc('Latitude in decimal degrees.', { example: 41.8917 })
  @Param(nullableNumber({ min: -90, max: 90 }), { schema: { type: 'number', format: 'double' } })
  geo_lat?: number | null;

  @Doc('Longitude in decimal degrees.', { example: -87.6086 })
  @Param(nullableNumber({ min: -180, max: 180 }), { schema: { type: 'number', format: 'double' } })
  geo_lng?: number | null;

  @Doc('Password protecting the venue.', { example: '' })
  @PostPassword()
  post_password?: string;

  @Doc(TRANSLATIONS_DOC, { example: { de: { venue: 'Hafenpavillon' } } })
  @TranslationsField('venue')
  translations?: TranslationChanges;
}
