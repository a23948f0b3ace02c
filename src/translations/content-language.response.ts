import { ApiProperty } from '@nestjs/swagger';
import { Doc } from '../common/validation/doc.js';

/** The `language` key of a record answered through an edition's path (issue 48). */
export class ContentLanguageResponse {
  @Doc("Language of the record's own text (CONTENT_LANGUAGE).")
  @ApiProperty({ type: 'string' })
  original: string;

  @Doc('Language the title or name is answered in.')
  @ApiProperty({ type: 'string' })
  answered: string;

  @Doc('Language each translated field is answered in.')
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  fields: Record<string, string>;

  @Doc('Editions holding a translation of the record.')
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  translations: string[];
}

/** The documentation of the `language` key. */
export const CONTENT_LANGUAGE_DOC = "Only through an edition's path: the languages of the record's text.";
