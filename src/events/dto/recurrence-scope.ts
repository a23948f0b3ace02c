import { Param } from '../../common/validation/param.js';
import { oneOf } from '../../common/validation/parsers.js';
import { Doc } from '../../common/validation/doc.js';
import { EventPasswordQueryDto } from './event-password.query.js';

export const RECURRENCE_SCOPES = ['this', 'following', 'all'] as const;
/** Which occurrences of a series an update or delete reaches (issue 18). */
export type RecurrenceScope = (typeof RECURRENCE_SCOPES)[number];

export const RECURRENCE_SCOPE_DOC =
  'Extension: which occurrences of a recurring event the write reaches: this (the default for an occurrence other than the main event), following (this and later ones: the series is split here) or all (the default for the main event). Ignored for a single event.';

/** `recurrence_scope`, in the body or the query string of an update, in the query string of a delete. */
export const RecurrenceScopeParam = () => Param(oneOf(RECURRENCE_SCOPES), { schema: { type: 'string', enum: [...RECURRENCE_SCOPES] } });

/** The query string of event updates. */
export class EventUpdateQueryDto {
  @Doc(RECURRENCE_SCOPE_DOC, { example: 'all' })
  @RecurrenceScopeParam()
  recurrence_scope?: RecurrenceScope;
}

/** The query string of event deletes. */
export class EventDeleteQueryDto extends EventPasswordQueryDto {
  @Doc(RECURRENCE_SCOPE_DOC, { example: 'all' })
  @RecurrenceScopeParam()
  recurrence_scope?: RecurrenceScope;
}
