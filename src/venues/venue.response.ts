import { CONTENT_LANGUAGE_DOC, ContentLanguageResponse } from '../translations/content-language.response.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ResponseSchema } from '../common/openapi/response-schema.js';
import type { JsonLd } from '../common/text/json-ld.js';
import { Doc } from '../common/validation/doc.js';
import { ImageResponse, imageOrFalse } from '../images/image.response.js';
import { ItemHeadResponse } from '../items/item.response.js';

/**
 * The venue object (spec §8.3). Optional text fields are left out when empty; a password-protected
 * venue shown locked has its fields blanked, `image` false and the map flags null (spec §5.6).
 */
@ResponseSchema('Venue', ImageResponse)
export class VenueResponse extends ItemHeadResponse {
  @Doc('Name of the venue.')
  @ApiProperty({ type: 'string' })
  venue: string;

  @Doc('Description, as HTML.')
  @ApiPropertyOptional({ type: 'string' })
  description?: string;

  @Doc('Short summary, as HTML.')
  @ApiPropertyOptional({ type: 'string' })
  excerpt?: string;

  @Doc('Slug of the venue.')
  @ApiProperty({ type: 'string' })
  slug: string;

  @Doc('Featured image.')
  @ApiPropertyOptional(imageOrFalse())
  image?: ImageResponse | false;

  @Doc('Street address.')
  @ApiPropertyOptional({ type: 'string' })
  address?: string;

  @Doc('City.')
  @ApiPropertyOptional({ type: 'string' })
  city?: string;

  @Doc('Country.')
  @ApiPropertyOptional({ type: 'string' })
  country?: string;

  @Doc('Province.')
  @ApiPropertyOptional({ type: 'string' })
  province?: string;

  @Doc('State.')
  @ApiPropertyOptional({ type: 'string' })
  state?: string;

  @Doc('Postal code.')
  @ApiPropertyOptional({ type: 'string' })
  zip?: string;

  @Doc('Telephone number.')
  @ApiPropertyOptional({ type: 'string' })
  phone?: string;

  @Doc('Website of the venue.')
  @ApiPropertyOptional({ type: 'string', format: 'uri' })
  website?: string;

  @Doc('State or province.')
  @ApiPropertyOptional({ type: 'string' })
  stateprovince?: string;

  @Doc('Latitude in decimal degrees.')
  @ApiPropertyOptional({ type: 'number', format: 'double' })
  geo_lat?: number;

  @Doc('Longitude in decimal degrees.')
  @ApiPropertyOptional({ type: 'number', format: 'double' })
  geo_lng?: number;

  @Doc('schema.org data of the venue (single reads only).')
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  json_ld?: JsonLd;

  @Doc('Whether events at the venue show a map.')
  @ApiProperty({ type: 'boolean' })
  show_map: boolean | null;

  @Doc('Whether events at the venue show a map link.')
  @ApiProperty({ type: 'boolean' })
  show_map_link: boolean | null;

  @Doc('Global identifier of the venue.')
  @ApiProperty({ type: 'string' })
  global_id: string;

  @Doc("Global identifiers of the venue's lineage.")
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  global_id_lineage: string[];

  @Doc(CONTENT_LANGUAGE_DOC)
  @ApiPropertyOptional({ type: ContentLanguageResponse })
  language?: ContentLanguageResponse;
}
