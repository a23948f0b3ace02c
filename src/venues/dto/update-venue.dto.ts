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
  @Doc('Venue name.')
  @ItemName()
  venue?: string;

  @Doc('Venue description; HTML allowed.')
  @RichText()
  description?: string;

  @Doc('Short summary.')
  @RichText()
  excerpt?: string;

  @Doc('Venue slug.')
  @ItemSlug()
  slug?: string;

  @Doc('Publication status of the venue.')
  @ItemStatusField()
  status?: 'publish' | 'future' | 'draft' | 'pending' | 'private';

  @Doc("ID of the venue's author.")
  @ItemAuthor()
  author?: number;

  @Doc('Publication date, in the site time zone.')
  @DateField()
  date?: string;

  @Doc('Publication date, in UTC.')
  @DateField()
  date_utc?: string;

  @Doc('Whether events at the venue show a map.')
  @Param(truthyWord(true), { schema: { type: 'string' } })
  show_map?: boolean;

  @Doc('Whether events at the venue show a map link.')
  @Param(truthyWord(true), { schema: { type: 'string' } })
  show_map_link?: boolean;

  @Doc('Street address.')
  @PlainText()
  address?: string;

  @Doc('City.')
  @PlainText()
  city?: string;

  @Doc('Country.')
  @PlainText()
  country?: string;

  @Doc('Province.')
  @PlainText()
  province?: string;

  @Doc('State.')
  @PlainText()
  state?: string;

  @Doc('Postal code.')
  @PlainText()
  zip?: string;

  @Doc('Telephone number.')
  @PlainText()
  phone?: string;

  @Doc('Combined state or province.')
  @PlainText()
  stateprovince?: string;

  @Doc('Website of the venue.')
  @Param(websiteUrl, { schema: { type: 'string', format: 'uri' } })
  website?: string;

  @Doc('Featured image: the ID of an image or an image URL.')
  @ImageField()
  image?: ImageRequest;

  @Doc('Latitude in decimal degrees.')
  @Param(nullableNumber({ min: -90, max: 90 }), { schema: { type: 'number', format: 'double' } })
  geo_lat?: number | null;

  @Doc('Longitude in decimal degrees.')
  @Param(nullableNumber({ min: -180, max: 180 }), { schema: { type: 'number', format: 'double' } })
  geo_lng?: number | null;

  @Doc('Password protecting the venue.')
  @PostPassword()
  post_password?: string;
}
