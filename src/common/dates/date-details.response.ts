import { ApiProperty } from '@nestjs/swagger';
import { ResponseSchema } from '../openapi/response-schema.js';
import { Doc } from '../validation/doc.js';

/** The parts of a wall time, as two- and four-digit strings (spec §8.7). */
@ResponseSchema('DateDetails')
export class DateDetailsResponse {
  @Doc('Year, four digits.')
  @ApiProperty({ type: 'string' })
  year: string;

  @Doc('Month, two digits.')
  @ApiProperty({ type: 'string' })
  month: string;

  @Doc('Day, two digits.')
  @ApiProperty({ type: 'string' })
  day: string;

  @Doc('Hour, two digits.')
  @ApiProperty({ type: 'string' })
  hour: string;

  @Doc('Minutes, two digits.')
  @ApiProperty({ type: 'string' })
  minutes: string;

  @Doc('Seconds, two digits.')
  @ApiProperty({ type: 'string' })
  seconds: string;
}
