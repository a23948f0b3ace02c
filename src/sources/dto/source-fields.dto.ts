import { CollectsProblems } from '../../common/validation/api-validation.pipe.js';
import { Doc } from '../../common/validation/doc.js';
import { Invalid, Param } from '../../common/validation/param.js';
import { boolean, integer, lastValue, oneOf, stringList, text } from '../../common/validation/parsers.js';
import { SOURCE_STATUSES, UPDATE_AUTHORITIES, type SourceStatus, type UpdateAuthority } from '../calendar-source.entity.js';

export const SOURCE_TEXT = {
  url: 'The iCalendar feed: an absolute https, http or webcal URL (webcal is read as https).',
  refresh_minutes: 'Minutes between two runs of the source (5 to 10080).',
  default_categories: 'IDs of categories every event of the feed gets, besides the categories the feed names.',
  default_tags: 'IDs of tags every event of the feed gets.',
  default_organizer: 'ID of the organizer of events for which the feed names none; 0 or null for none.',
  default_venue: 'ID of the venue of events for which the feed gives no location; 0 or null for none.',
  default_status: 'Status of the imported events: publish or draft.',
  update_authority:
    'Who wins when the feed changes an event: overwrite (the feed), keep-local-edits (fields edited here stay, the others follow the feed) or create-only (events are never changed once imported).',
  trash_missing: 'Whether an event that is no longer in the feed is moved to the trash.',
  paused: 'Whether the scheduler leaves the source alone (run now still works).',
} as const;

/** An id of a venue or organizer; 0, "" and null for none. */
const optionalId = (raw: unknown, param: string): number | null | Invalid => {
  const value = lastValue(raw);
  if (value === null || value === '' || value === 0 || value === '0') return null;
  return integer({ min: 1 })(value, param);
};

/** A list of ids (array or comma-separated); an empty list clears it. */
const ids = (raw: unknown, param: string): number[] | Invalid => {
  if (raw === null) return [];
  const items = stringList(raw, param);
  if (items instanceof Invalid) return items;
  if (items.some((item) => !/^\d+$/.test(item) || !Number.isSafeInteger(Number(item)) || Number(item) < 1))
    return new Invalid({ key: 'integer', args: { param } });
  return [...new Set(items.map(Number))];
};

/** The fields of a source, all optional (updates). */
export class SourceFieldsDto {
  @Doc(SOURCE_TEXT.url, { example: 'https://calendar.example.org/club.ics' })
  @Param(text({ max: 2048, nonEmpty: true }), { schema: { type: 'string', format: 'uri' } })
  url?: string;

  @Doc(SOURCE_TEXT.refresh_minutes, { example: 60 })
  @Param(integer({ min: 5, max: 10080 }), { schema: { type: 'integer', minimum: 5, maximum: 10080, default: 60 } })
  refresh_minutes?: number;

  @Doc(SOURCE_TEXT.default_categories, { example: [3] })
  @Param(ids, { schema: { type: 'array', items: { type: 'integer' } } })
  default_categories?: number[];

  @Doc(SOURCE_TEXT.default_tags, { example: [] })
  @Param(ids, { schema: { type: 'array', items: { type: 'integer' } } })
  default_tags?: number[];

  @Doc(SOURCE_TEXT.default_organizer, { example: 0 })
  @Param(optionalId, { schema: { type: 'integer', nullable: true } })
  default_organizer?: number | null;

  @Doc(SOURCE_TEXT.default_venue, { example: 0 })
  @Param(optionalId, { schema: { type: 'integer', nullable: true } })
  default_venue?: number | null;

  @Doc(SOURCE_TEXT.default_status, { example: 'publish' })
  @Param(oneOf(SOURCE_STATUSES), { schema: { type: 'string', enum: [...SOURCE_STATUSES], default: 'publish' } })
  default_status?: SourceStatus;

  @Doc(SOURCE_TEXT.update_authority, { example: 'keep-local-edits' })
  @Param(oneOf(UPDATE_AUTHORITIES), { schema: { type: 'string', enum: [...UPDATE_AUTHORITIES], default: 'keep-local-edits' } })
  update_authority?: UpdateAuthority;

  @Doc(SOURCE_TEXT.trash_missing, { example: true })
  @Param(boolean, { schema: { type: 'boolean', default: true } })
  trash_missing?: boolean;

  @Doc(SOURCE_TEXT.paused, { example: false })
  @Param(boolean, { schema: { type: 'boolean', default: false } })
  paused?: boolean;
}

/** `POST /sources`: `url` is required. */
@CollectsProblems()
export class CreateSourceDto extends SourceFieldsDto {
  @Doc(SOURCE_TEXT.url, { example: 'https://calendar.example.org/club.ics' })
  @Param(text({ max: 2048, nonEmpty: true }), { required: true, schema: { type: 'string', format: 'uri' } })
  override url?: string;
}

/** `POST|PUT|PATCH /sources/<id>`. */
@CollectsProblems()
export class UpdateSourceDto extends SourceFieldsDto {}
