import { CONTENT_LANGUAGE_DOC, ContentLanguageResponse } from '../translations/content-language.response.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ResponseSchema } from '../common/openapi/response-schema.js';
import { Doc } from '../common/validation/doc.js';

/** The API links of a term. */
export class TermUrlsResponse {
  @Doc('This term in the API.')
  @ApiProperty({ type: 'string', format: 'uri' })
  self: string;

  @Doc('The list of terms of this taxonomy.')
  @ApiProperty({ type: 'string', format: 'uri' })
  collection: string;

  @Doc('The parent category, for categories that have one.')
  @ApiPropertyOptional({ type: 'string', format: 'uri' })
  up?: string;
}

/** Shape (b) of spec §8.5: the term as `/categories` and `/tags` return it. */
@ResponseSchema('Term')
export class TermResponse {
  @Doc('Term ID.')
  @ApiProperty({ type: 'integer' })
  id: number;

  @Doc('Number of published events carrying the term.')
  @ApiProperty({ type: 'integer' })
  count: number;

  @Doc('Description of the term.')
  @ApiProperty({ type: 'string' })
  description: string;

  @Doc('Name of the term.')
  @ApiProperty({ type: 'string' })
  name: string;

  @Doc('Slug of the term.')
  @ApiProperty({ type: 'string' })
  slug: string;

  @Doc('Taxonomy: tribe_events_cat or post_tag.')
  @ApiProperty({ type: 'string' })
  taxonomy: string;

  @Doc('Parent category ID (categories only; 0 at the top level).')
  @ApiPropertyOptional({ type: 'integer' })
  parent?: number;

  @Doc('Always empty.')
  @ApiProperty({ type: 'array', items: {} })
  meta: [];

  @Doc('Public page of the term.')
  @ApiProperty({ type: 'string', format: 'uri' })
  url: string;

  @Doc('Links of the term in the API.')
  @ApiProperty({ type: TermUrlsResponse })
  urls: TermUrlsResponse;

  @Doc('Links of the term in the API, in link-object form.')
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  _links?: Partial<Record<keyof TermUrlsResponse, Array<{ href: string }>>>;

  @Doc(CONTENT_LANGUAGE_DOC)
  @ApiPropertyOptional({ type: ContentLanguageResponse })
  language?: ContentLanguageResponse;
}

/** Shape (a) of spec §8.5: the term embedded in an event. */
@ResponseSchema('EventTerm')
export class EventTermResponse {
  @Doc('Name of the term.')
  @ApiProperty({ type: 'string' })
  name: string;

  @Doc('Slug of the term.')
  @ApiProperty({ type: 'string' })
  slug: string;

  @Doc('Always 0.')
  @ApiProperty({ type: 'integer' })
  term_group: 0;

  @Doc('Equal to the term ID.')
  @ApiProperty({ type: 'integer' })
  term_taxonomy_id: number;

  @Doc('Taxonomy: tribe_events_cat or post_tag.')
  @ApiProperty({ type: 'string' })
  taxonomy: string;

  @Doc('Description of the term.')
  @ApiProperty({ type: 'string' })
  description: string;

  @Doc('Parent category ID; 0 for top-level categories and tags.')
  @ApiProperty({ type: 'integer' })
  parent: number;

  @Doc('Number of published events carrying the term.')
  @ApiProperty({ type: 'integer' })
  count: number;

  @Doc('Always raw.')
  @ApiProperty({ type: 'string' })
  filter: 'raw';

  @Doc('Term ID.')
  @ApiProperty({ type: 'integer' })
  id: number;

  @Doc('Links of the term in the API.')
  @ApiProperty({ type: TermUrlsResponse })
  urls: TermUrlsResponse;

  @Doc(CONTENT_LANGUAGE_DOC)
  @ApiPropertyOptional({ type: ContentLanguageResponse })
  language?: ContentLanguageResponse;
}
