import { TRANSLATIONS_DOC, TranslationsField } from '../../translations/translations-input.js';
import type { TranslationChanges } from '../../translations/content-translations.service.js';
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
import {
  customFieldsInput,
  ORGANIZER_LIST_SCHEMA,
  organizerInput,
  TERM_LIST_SCHEMA,
  termInput,
  VENUE_SCHEMA,
  venueInput,
  type LinkInput,
} from './relation-inputs.js';
import { Doc } from '../../common/validation/doc.js';
import { CollectsProblems } from '../../common/validation/api-validation.pipe.js';
import { RECURRENCE_SCOPE_DOC, RecurrenceScopeParam, type RecurrenceScope } from './recurrence-scope.js';

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

/**
 * `recurrence`: RFC 5545 lines (`RRULE`, `RDATE`, `EXDATE`) as an array, or one line as a string;
 * `null`, `""` and `[]` mean none. The lines are read against the event's zone by the service.
 */
const recurrenceInput = (raw: unknown): string[] | Invalid => {
  if (raw === null || raw === '') return [];
  const lines = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(lines) || lines.some((line) => typeof line !== 'string')) return new Invalid({ key: 'recurrence_list' });
  return lines.length > 100 ? new Invalid({ key: 'too_many_items', args: { max: 100 } }) : (lines as string[]);
};

/** Fields of an event write (spec §11.2); on update every field is optional and none has a default. */
@CollectsProblems()
export class UpdateEventDto implements ItemWriteFields {
  @Doc('Event title.', { example: 'Harbour Lantern Walk' })
  @ItemName()
  title?: string;

  @Doc('Event description; HTML allowed.', { example: '<p>A guided evening walk along the harbour; lanterns are provided.</p>' })
  @RichText()
  description?: string;

  @Doc('Short summary.', { example: 'An evening walk along the harbour with lanterns.' })
  @RichText()
  excerpt?: string;

  @Doc('Event slug.', { example: 'harbour-lantern-walk' })
  @ItemSlug()
  slug?: string;

  @Doc('Publication status of the event.', { example: 'publish' })
  @ItemStatusField()
  status?: 'publish' | 'future' | 'draft' | 'pending' | 'private';

  @Doc("ID of the event's author.", { example: 1 })
  @ItemAuthor()
  author?: number;

  @Doc('Publication date, in the site time zone.', { example: '2027-01-15 09:00:00' })
  @DateField()
  date?: string;

  @Doc('Publication date, in UTC.', { example: '2027-01-15 15:00:00' })
  @DateField()
  date_utc?: string;

  @Doc('Time zone of the event.', { example: 'America/Chicago' })
  @Param(timezoneInput, { schema: { type: 'string' } })
  timezone?: string;

  @Doc('Whether the event lasts all day.', { example: false })
  @Param(boolean, { schema: { type: 'boolean' } })
  all_day?: boolean;

  @Doc('Start date and time.', { example: '2027-03-20 19:30:00' })
  @DateField()
  start_date?: string;

  @Doc('End date and time.', { example: '2027-03-20 21:30:00' })
  @DateField()
  end_date?: string;

  @Doc('Featured image: the ID of an image or an image URL; an empty string for none.', { example: '' })
  @ImageField()
  image?: ImageRequest;

  @Doc('Cost: a string, a number or a list of them.', { example: '15' })
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

  @Doc('Website of the event.', { example: 'https://harbour-walks.example.org/lantern-walk' })
  @Param(websiteUrl, { schema: { type: 'string', format: 'uri' } })
  website?: string;

  @Doc('Whether the event shows a map.', { example: true })
  @Param(boolean, { schema: { type: 'boolean' } })
  show_map?: boolean;

  @Doc('Whether the event shows a map link.', { example: true })
  @Param(boolean, { schema: { type: 'boolean' } })
  show_map_link?: boolean;

  @Doc('Whether the event is left out of event lists.', { example: false })
  @Param(boolean, { schema: { type: 'boolean' } })
  hide_from_listings?: boolean;

  @Doc('Whether the event is pinned in calendar views.', { example: false })
  @Param(boolean, { schema: { type: 'boolean' } })
  sticky?: boolean;

  @Doc('Whether the event is featured.', { example: false })
  @Param(boolean, { schema: { type: 'boolean' } })
  featured?: boolean;

  @Doc(
    'Categories: IDs, slugs or names, as an array or a comma-separated string; a name not found creates the category; an empty value removes all.',
    { example: ['Guided tours', 'Evening'] },
  )
  @Param(termInput, { schema: TERM_LIST_SCHEMA })
  categories?: string[];

  @Doc(
    'Tags: IDs, slugs or names, as an array or a comma-separated string; a name not found creates the tag; an empty value removes all.',
    { example: ['family', 'harbour'] },
  )
  @Param(termInput, { schema: TERM_LIST_SCHEMA })
  tags?: string[];

  @Doc('The venue: the ID of a venue, or an object with the fields of a new venue (`venue` is its name); an empty value removes it.', {
    example: { venue: 'Harbour Pavilion', address: '200 Pier Road', city: 'Chicago', state: 'IL', zip: '60611', country: 'United States' },
  })
  @Param(venueInput, { schema: VENUE_SCHEMA })
  venue?: LinkInput | null;

  @Doc(
    'The organizers: an array of organizer IDs or objects with the fields of a new organizer (`organizer` is its name); an empty value removes all.',
    { example: [{ organizer: 'Harbour Walks Club', email: 'walks@harbour-walks.example.org', phone: '+1 312 555 0142' }] },
  )
  @Param(organizerInput, { schema: ORGANIZER_LIST_SCHEMA })
  organizer?: LinkInput[];

  @Doc('ID of the parent event; 0 for none.', { example: 0 })
  @Param(parentInput, { schema: { type: 'integer' } })
  post_parent?: number | null;

  @Doc('Password protecting the event.', { example: '' })
  @PostPassword()
  post_password?: string;

  @Doc('Values of the additional event fields, by key.', { example: {} })
  @Param(customFieldsInput, { schema: { type: 'object', additionalProperties: { type: 'string' } } })
  custom_fields?: Record<string, string | null>;

  @Doc(
    'Extension: recurrence of the event, as RFC 5545 lines (`RRULE:`, `RDATE:`, `EXDATE:`) read in the time zone of the event; the event is the first occurrence. An empty list or null ends the recurrence.',
    { example: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10'] },
  )
  @Param(recurrenceInput, { schema: { type: 'array', items: { type: 'string' }, nullable: true } })
  recurrence?: string[];

  @Doc(RECURRENCE_SCOPE_DOC, { example: 'all' })
  @RecurrenceScopeParam()
  recurrence_scope?: RecurrenceScope;

  @Doc('Accepted and ignored: the writer sees everything.', { example: '' })
  @Param(text({ max: 255 }), { schema: { type: 'string' } })
  password?: string;

  @Doc(TRANSLATIONS_DOC, { example: { de: { title: 'Laternenspaziergang am Hafen' } } })
  @TranslationsField('event')
  translations?: TranslationChanges;
}
