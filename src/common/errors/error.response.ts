import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EMPTY_ARRAY_SCHEMA, ResponseSchema } from '../openapi/response-schema.js';
import { Doc } from '../validation/doc.js';

/** One entry of `data.details`: the type check a parameter failed (`tec/v1`: `data` names the argument). */
export interface ErrorDetail {
  code: string;
  message: string;
  data: { param: string } | { status: number; argument: string; details: string };
}

export class ErrorDataResponse {
  @Doc('HTTP status of the answer.')
  @ApiProperty({ type: 'integer' })
  status: number;

  @Doc('Invalid parameters with their messages, or the missing parameters.')
  @ApiPropertyOptional({
    oneOf: [
      { type: 'object', additionalProperties: { type: 'string' } },
      { type: 'array', items: { type: 'string' } },
    ],
  })
  params?: Record<string, string> | string[];

  @Doc('Details of parameters that failed a type check.')
  @ApiPropertyOptional({ oneOf: [{ type: 'object', additionalProperties: true }, EMPTY_ARRAY_SCHEMA] })
  details?: Record<string, ErrorDetail> | [];

  @Doc('ID of the existing term (term_exists only).')
  @ApiPropertyOptional({ type: 'integer' })
  term_id?: number;
}

/** The body of every error (spec §12.1): `{code, message, data: {status, ...}}`. */
@ResponseSchema('Error')
export class ErrorResponse {
  @Doc('Machine-readable error code.')
  @ApiProperty({ type: 'string' })
  code: string;

  @Doc('Human-readable message.')
  @ApiProperty({ type: 'string' })
  message: string;

  @Doc('Status and details.')
  @ApiProperty({ type: ErrorDataResponse })
  data: ErrorDataResponse;
}
