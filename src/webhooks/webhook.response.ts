import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ResponseSchema } from '../common/openapi/response-schema.js';
import { Doc } from '../common/validation/doc.js';
import { WEBHOOK_TEXT } from './dto/webhook-fields.dto.js';

/** A webhook subscription as administrators see it (the secret only when it was just made). */
@ResponseSchema('Webhook')
export class WebhookResponse {
  @Doc('ID of the record.')
  @ApiProperty({ type: 'integer' })
  id: number;

  @Doc(WEBHOOK_TEXT.url)
  @ApiProperty({ type: 'string', format: 'uri' })
  url: string;

  @Doc(WEBHOOK_TEXT.events)
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  events: string[];

  @Doc(WEBHOOK_TEXT.description)
  @ApiProperty({ type: 'string' })
  description: string;

  @Doc(WEBHOOK_TEXT.active)
  @ApiProperty({ type: 'boolean' })
  active: boolean;

  @Doc(WEBHOOK_TEXT.edition)
  @ApiProperty({ type: 'string' })
  edition: string;

  @Doc('Why the service deactivated the subscription (the receiver answered 410, or deliveries kept failing); null otherwise.')
  @ApiProperty({ type: 'string', nullable: true })
  deactivated_reason: string | null;

  @Doc('When the subscription was deactivated, in UTC; null while active.')
  @ApiProperty({ type: 'string', nullable: true })
  deactivated_utc: string | null;

  @Doc('Creation date in UTC.')
  @ApiProperty({ type: 'string' })
  created_utc: string;

  @Doc('Last modification in UTC.')
  @ApiProperty({ type: 'string' })
  modified_utc: string;

  @Doc('The deliveries of the subscription.')
  @ApiProperty({ type: 'string', format: 'uri' })
  deliveries_url: string;

  @Doc('The signing secret (whsec_ and base64): only in the answer that created or rotated it.')
  @ApiPropertyOptional({ type: 'string' })
  secret?: string;
}

/** One attempt to send a delivery. */
@ResponseSchema('WebhookAttempt')
export class WebhookAttemptResponse {
  @Doc('When the attempt started, in UTC.')
  @ApiProperty({ type: 'string' })
  attempted_utc: string;

  @Doc('HTTP status of the answer; null when none came.')
  @ApiProperty({ type: 'integer', nullable: true })
  status_code: number | null;

  @Doc('How long the attempt took, in milliseconds.')
  @ApiProperty({ type: 'integer' })
  duration_ms: number;

  @Doc('The start of the answer (at most 1000 characters).')
  @ApiProperty({ type: 'string' })
  response: string;

  @Doc('Why the attempt failed; null when it succeeded.')
  @ApiProperty({ type: 'string', nullable: true })
  error: string | null;
}

/** One message for one subscription. */
@ResponseSchema('WebhookDelivery', WebhookAttemptResponse)
export class WebhookDeliveryResponse {
  @Doc('ID of the record.')
  @ApiProperty({ type: 'integer' })
  id: number;

  @Doc('The webhook-id header: the same on every attempt, for receivers to drop repeats.')
  @ApiProperty({ type: 'string' })
  webhook_id: string;

  @Doc('Event type, such as event.created, or webhook.ping.')
  @ApiProperty({ type: 'string' })
  type: string;

  @Doc('pending (waiting for its next attempt), sending, delivered or failed.')
  @ApiProperty({ type: 'string', enum: ['pending', 'sending', 'delivered', 'failed'] })
  status: string;

  @Doc('Number of attempts so far.')
  @ApiProperty({ type: 'integer' })
  attempts: number;

  @Doc('When the next attempt is due, in UTC; null when finished.')
  @ApiProperty({ type: 'string', nullable: true })
  next_attempt_utc: string | null;

  @Doc('Creation date in UTC.')
  @ApiProperty({ type: 'string' })
  created_utc: string;

  @Doc('When it was delivered or given up, in UTC; null before.')
  @ApiProperty({ type: 'string', nullable: true })
  finished_utc: string | null;

  @Doc('The JSON body sent.')
  @ApiProperty({ type: 'object', additionalProperties: true })
  payload: unknown;

  @Doc('Every attempt, oldest first.')
  @ApiProperty({ type: [WebhookAttemptResponse] })
  attempt_log: WebhookAttemptResponse[];
}
