import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ResponseSchema } from '../../common/openapi/response-schema.js';
import { Doc } from '../../common/validation/doc.js';
import { EventResponse } from '../event.response.js';

/** `GET /series/<id>`: a recurring event's rule and where its occurrences stand (extension). */
@ResponseSchema('Series', EventResponse)
export class SeriesResponse {
  @Doc('ID of the series: the ID of its main event.')
  @ApiProperty({ type: 'integer' })
  id: number;

  @Doc('The recurrence lines of the series (RRULE, RDATE, EXDATE), read in its time zone.')
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  rules: string[];

  @Doc('Time zone the rules are read in: that of the main event.')
  @ApiProperty({ type: 'string' })
  timezone: string;

  @Doc('The main event of the series.')
  @ApiProperty({ allOf: [{ $ref: getSchemaPath(EventResponse) }] })
  main_event: EventResponse;

  @Doc('Number of occurrences of the series you may read, the main event included.')
  @ApiProperty({ type: 'integer' })
  occurrences_total: number;

  @Doc('How many of them were edited on their own.')
  @ApiProperty({ type: 'integer' })
  exceptions_total: number;

  @Doc('The first occurrence that has not started yet, or null.')
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(EventResponse) }], nullable: true })
  next_occurrence: EventResponse | null;
}
