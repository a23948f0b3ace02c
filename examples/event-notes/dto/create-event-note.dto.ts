import { Doc } from '../../../src/common/validation/doc.js';
import { Param } from '../../../src/common/validation/param.js';
import { text } from '../../../src/common/validation/parsers.js';

/** The body of `POST /events/{id}/notes`, validated by the core's pipe like every DTO of the API. */
export class CreateEventNoteDto {
  @Doc('Text of the note (plain text, at most 2000 characters).')
  @Param(text({ max: 2000, nonEmpty: true }), { required: true, schema: { type: 'string' } })
  body: string;
}
