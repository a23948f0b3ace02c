import { CollectsProblems } from '../../common/validation/api-validation.pipe.js';
import { Doc } from '../../common/validation/doc.js';
import { Param } from '../../common/validation/param.js';
import { boolean, stringList, text } from '../../common/validation/parsers.js';
import { TARGET_URL_MAX } from '../webhook-targets.js';

export const WEBHOOK_TEXT = {
  url: 'Where the deliveries are sent: an absolute http or https URL.',
  events: 'Event types to send (event.created, tag.deleted, …), all types of one kind (event.*), or * for every type.',
  description: 'A note for administrators.',
  active: 'Whether deliveries are sent.',
  edition: 'Language edition whose URLs the payloads use; the default edition when not sent.',
} as const;

const urlParam = (required: boolean) =>
  Param(text({ max: TARGET_URL_MAX, nonEmpty: true }), { required, schema: { type: 'string', format: 'uri' } });
const eventsParam = (required: boolean) =>
  Param(stringList, { required, schema: { type: 'array', items: { type: 'string' }, example: ['event.*', 'venue.updated'] } });

/** The fields of a subscription, all optional (updates). */
export class WebhookFieldsDto {
  @Doc(WEBHOOK_TEXT.url, { example: 'https://example.org/hooks/calendar' })
  @urlParam(false)
  url?: string;

  @Doc(WEBHOOK_TEXT.events, { example: ['event.*', 'venue.updated'] })
  @eventsParam(false)
  events?: string[];

  @Doc(WEBHOOK_TEXT.description)
  @Param(text({ max: 1000 }), { schema: { type: 'string' } })
  description?: string;

  @Doc(WEBHOOK_TEXT.active)
  @Param(boolean, { schema: { type: 'boolean' } })
  active?: boolean;

  @Doc(WEBHOOK_TEXT.edition)
  @Param(text({ max: 10, nonEmpty: true }), { schema: { type: 'string' } })
  edition?: string;
}

/** `POST /webhooks`: `url` and `events` are required. */
@CollectsProblems()
export class CreateWebhookDto extends WebhookFieldsDto {
  @Doc(WEBHOOK_TEXT.url, { example: 'https://example.org/hooks/calendar' })
  @urlParam(true)
  override url?: string;

  @Doc(WEBHOOK_TEXT.events, { example: ['event.*', 'venue.updated'] })
  @eventsParam(true)
  override events?: string[];
}

/** `POST|PUT|PATCH /webhooks/<id>`. */
@CollectsProblems()
export class UpdateWebhookDto extends WebhookFieldsDto {
  @Doc('Send true to replace the signing secret; the answer shows the new one, only this once.')
  @Param(boolean, { schema: { type: 'boolean' } })
  rotate_secret?: boolean;
}
