import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ResponseSchema } from '../common/openapi/response-schema.js';
import { Doc } from '../common/validation/doc.js';
import { CHANGE_KINDS, type ChangeKind } from './change-recording.js';

/** One change of the feed, as the requester may see it. */
@ResponseSchema('Change')
export class ChangeFeedEntry {
  @Doc('Cursor of this change: a reader that stores it resumes after it.')
  @ApiProperty({ type: 'string' })
  cursor: string;

  @Doc('Kind of the record.')
  @ApiProperty({ type: 'string', enum: [...CHANGE_KINDS] })
  type: ChangeKind;

  @Doc('ID of the record.')
  @ApiProperty({ type: 'integer' })
  id: number;

  @Doc('What the change means for the requester: the record became readable, changed, or is gone or no longer readable.')
  @ApiProperty({ type: 'string', enum: ['created', 'updated', 'deleted'] })
  action: 'created' | 'updated' | 'deleted';

  @Doc('Last modification of the record after the change (for a deletion, its time), UTC.')
  @ApiProperty({ type: 'string', example: '2026-11-23 09:30:00' })
  modified_utc: string;

  @Doc('The record in the API.')
  @ApiProperty({ type: 'string', format: 'uri' })
  rest_url: string;

  @Doc('Editions whose translation of the record the change wrote; only on changes that wrote translations.')
  @ApiPropertyOptional({ type: 'array', items: { type: 'string' } })
  languages?: string[];
}

/** A page of the change feed. */
@ResponseSchema('ChangeList', ChangeFeedEntry)
export class ChangesResponse {
  @Doc('Changes in commit order.')
  @ApiProperty({ type: [ChangeFeedEntry] })
  changes: ChangeFeedEntry[];

  @Doc('Cursor to send as since for the next page; present on every page, the last one too.')
  @ApiProperty({ type: 'string' })
  next_cursor: string;

  @Doc('Whether more changes follow next_cursor already.')
  @ApiProperty({ type: 'boolean' })
  has_more: boolean;
}
