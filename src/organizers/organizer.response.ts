import { CONTENT_LANGUAGE_DOC, ContentLanguageResponse } from '../translations/content-language.response.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ResponseSchema } from '../common/openapi/response-schema.js';
import type { JsonLd } from '../common/text/json-ld.js';
import { Doc } from '../common/validation/doc.js';
import { ImageResponse, imageOrFalse } from '../images/image.response.js';
import { ItemHeadResponse } from '../items/item.response.js';

/**
 * The organizer object (spec §8.4). Optional text fields are left out when empty; a password-protected
 * organizer shown locked has its fields blanked and `image` false (spec §5.6).
 */
@ResponseSchema('Organizer', ImageResponse)
export class OrganizerResponse extends ItemHeadResponse {
  @Doc('Name of the organizer.')
  @ApiProperty({ type: 'string' })
  organizer: string;

  @Doc('Description, as HTML.')
  @ApiPropertyOptional({ type: 'string' })
  description?: string;

  @Doc('Short summary, as HTML.')
  @ApiPropertyOptional({ type: 'string' })
  excerpt?: string;

  @Doc('Slug of the organizer.')
  @ApiProperty({ type: 'string' })
  slug: string;

  @Doc('Featured image.')
  @ApiPropertyOptional(imageOrFalse())
  image?: ImageResponse | false;

  @Doc('Telephone number.')
  @ApiPropertyOptional({ type: 'string' })
  phone?: string;

  @Doc('Website of the organizer.')
  @ApiPropertyOptional({ type: 'string', format: 'uri' })
  website?: string;

  @Doc('E-mail address.')
  @ApiPropertyOptional({ type: 'string' })
  email?: string;

  @Doc('schema.org data of the organizer (single reads only).')
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  json_ld?: JsonLd;

  @Doc('Global identifier of the organizer.')
  @ApiProperty({ type: 'string' })
  global_id: string;

  @Doc("Global identifiers of the organizer's lineage.")
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  global_id_lineage: string[];

  @Doc(CONTENT_LANGUAGE_DOC)
  @ApiPropertyOptional({ type: ContentLanguageResponse })
  language?: ContentLanguageResponse;
}
