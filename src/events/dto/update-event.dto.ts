import { Invalid, Param } from '../../common/validation/param.js';
import { boolean, integer, lastValue, text, typeErrorFor, websiteUrl } from '../../common/validation/parsers.js';
import { normalizeTimezone } from '../../common/dates/zones.js';
import type { ImageRequest } from '../../images/images.service.js';
import {
  DateField,
  ImageField,
  ItemAuthor,
  ItemName,
  ItemSlug,
  ItemStatusField,
  PostPassword,
  RichText,
  type ItemWriteFields,
} from '../../items/dto/item-fields.js';
import { normalizeCostInput } from '../event-cost.js';
import { customFieldsInput, organizerInput, termInput, venueInput, type LinkInput } from './relation-inputs.js';
import { Doc } from '../../common/validation/doc.js';
import { CollectsProblems } from '../../common/validation/api-validation.pipe.js';

/** `timezone`: an IANA zone, `UTC` or a fixed offset; `""` means the site time zone. */
const timezoneInput = (raw: unknown, param: string): string | Invalid => {
  const value = lastValue(raw);
  if (value === null || value === '') return '';
  if (typeof value !== 'string') return typeErrorFor('string', param);
  return normalizeTimezone(value.trim()) ?? new Invalid({ key: 'timezone' });
};

/** `post_parent`: an event id; empty values remove the parent. */
const parentInput = (raw: unknown, param: string): number | null | Invalid => {
  const value = lastValue(raw);
  if (value === null || value === '' || value === 0 || value === '0') return null;
  const id = integer({ min: 1 })(value, param);
  return id instanceof Invalid ? new Invalid({ key: 'unknown_event' }) : id;
};

/** Fields of an event write (spec §11.2); on update every field is optional and none has a default. */
@CollectsProblems()
export class UpdateEventDto implements ItemWriteFields {
  @Doc('Event title.')
  @ItemName()
  title?: string;

  @Doc('Event description; HTML allowed.')
  @RichText()
  description?: string;

  @Doc('Short summary.')
  @RichText()
  excerpt?: string;

  @Doc('Event slug.')
  @ItemSlug()
  slug?: string;

  @Doc('Publication status of the event.')
  @ItemStatusField()
  status?: 'publish' | 'future' | 'draft' | 'pending' | 'private';

  @Doc("ID of the event's author.")
  @ItemAuthor()
  author?: number;

  @Doc('Publication date, in the site time zone.')
  @DateField()
  date?: string;

  @Doc('Publication date, in UTC.')
  @DateField()
  date_utc?: string;

  @Doc('Time zone of the event.')
  @Param(timezoneInput, { schema: { type: 'string' } })
  timezone?: string;

  @Doc('Whether the event lasts all day.')
  @Param(boolean, { schema: { type: 'boolean' } })
  all_day?: boolean;

  @Doc('Start date and time.')
  @DateField()
  start_date?: string;

  @Doc('End date and time.')
  @DateField()
  end_date?: string;

  @Doc('Featured image: the ID of an image or an image URL.')
  @ImageField()
  image?: ImageRequest;

  @Doc('Cost: a string, a number or a list of them.')
  @Param(
    (raw) => {
      const costs = normalizeCostInput(raw);
      if (costs === null) return new Invalid({ key: 'invalid_value' });
      if (costs.length > 100) return new Invalid({ key: 'too_many_items', args: { max: 100 } });
      return costs.some((cost) => [...cost].length > 255) ? new Invalid({ key: 'too_long', args: { max: 255 } }) : costs;
    },
    { schema: {} },
  )
  cost?: string[];

  @Doc('Website of the event.')
  @Param(websiteUrl, { schema: { type: 'string', format: 'uri' } })
  website?: string;

  @Doc('Whether the event shows a map.')
  @Param(boolean, { schema: { type: 'boolean' } })
  show_map?: boolean;

  @Doc('Whether the event shows a map link.')
  @Param(boolean, { schema: { type: 'boolean' } })
  show_map_link?: boolean;

  @Doc('Whether the event is left out of event lists.')
  @Param(boolean, { schema: { type: 'boolean' } })
  hide_from_listings?: boolean;

  @Doc('Whether the event is pinned in calendar views.')
  @Param(boolean, { schema: { type: 'boolean' } })
  sticky?: boolean;

  @Doc('Whether the event is featured.')
  @Param(boolean, { schema: { type: 'boolean' } })
  featured?: boolean;

  @Doc('Category IDs or names.')
  @Param(termInput, { schema: { type: 'array', items: { type: 'integer' } } })
  categories?: string[];

  @Doc('Tag IDs or names.')
  @Param(termInput, { schema: { type: 'array', items: { type: 'integer' } } })
  tags?: string[];

  @Doc('The venue: an ID, or the fields of a new venue.')
  @Param(venueInput, { schema: { type: 'array', items: { type: 'integer' } } })
  venue?: LinkInput | null;

  @Doc('The organizers: IDs, or the fields of new organizers.')
  @Param(organizerInput, { schema: { type: 'array', items: { type: 'integer' } } })
  organizer?: LinkInput[];

  @Doc('ID of the parent event.')
  @Param(parentInput, { schema: { type: 'integer' } })
  post_parent?: number | null;

  @Doc('Password protecting the event.')
  @PostPassword()
  post_password?: string;

  @Doc('Values of the additional event fields, by key.')
  @Param(customFieldsInput, { schema: { type: 'object', additionalProperties: { type: 'string' } } })
  custom_fields?: Record<string, string | null>;

  @Doc('Accepted and ignored: the writer sees everything.')
  @Param(text({ max: 255 }), { schema: { type: 'string' } })
  password?: string;
}
