import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiParam, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorResponse } from '../common/errors/error.response.js';
import { listPageResponse } from '../common/paging/list-page.response.js';
import { RESPONSE_TEXT } from '../common/openapi/route-doc.js';
import { WebhookAttemptResponse, WebhookDeliveryResponse, WebhookResponse } from './webhook.response.js';

const WebhookList = listPageResponse('webhooks', WebhookResponse);
const DeliveryList = listPageResponse('deliveries', WebhookDeliveryResponse);

type Operation = 'list' | 'create' | 'read' | 'update' | 'delete' | 'deliveries' | 'ping' | 'retry';

const NOT_FOUND = 'No webhook subscription or delivery has this ID.';
const QUEUED = 'The delivery was queued; the dispatcher sends it at once.';

const OPERATIONS: Record<
  Operation,
  { summary: string; description: string; answers: Array<[number, string?]>; body: 'one' | 'list' | 'delivery' | 'deliveries' }
> = {
  list: {
    summary: 'List webhook subscriptions',
    description: 'Returns the webhook subscriptions, oldest first, without their secrets. Administrators only.',
    answers: [[200], [400], [401], [403]],
    body: 'list',
  },
  create: {
    summary: 'Create a webhook subscription',
    description:
      'Subscribes a URL to event types. The answer holds the signing secret, shown only this once. Private, loopback and link-local targets are refused unless the operator allows them. Administrators only.',
    answers: [[201], [400], [401], [403]],
    body: 'one',
  },
  read: {
    summary: 'Read a webhook subscription',
    description: 'Returns the subscription, without its secret. Administrators only.',
    answers: [[200], [401], [403], [404, NOT_FOUND]],
    body: 'one',
  },
  update: {
    summary: 'Update a webhook subscription',
    description: 'Changes the fields sent; rotate_secret replaces the secret and shows the new one. Administrators only.',
    answers: [[200], [400], [401], [403], [404, NOT_FOUND]],
    body: 'one',
  },
  delete: {
    summary: 'Delete a webhook subscription',
    description: 'Deletes the subscription with its deliveries and returns it as it was. Administrators only.',
    answers: [[200], [401], [403], [404, NOT_FOUND]],
    body: 'one',
  },
  deliveries: {
    summary: 'List the deliveries of a webhook subscription',
    description: 'Returns the deliveries of the subscription, newest first, each with its payload and every attempt. Administrators only.',
    answers: [[200], [400], [401], [403], [404, NOT_FOUND]],
    body: 'deliveries',
  },
  ping: {
    summary: 'Ping a webhook subscription',
    description: 'Queues a webhook.ping delivery to the subscription and returns it. Administrators only.',
    answers: [[202, QUEUED], [401], [403], [404, NOT_FOUND]],
    body: 'delivery',
  },
  retry: {
    summary: 'Retry a webhook delivery',
    description:
      'Queues the delivery again under the same webhook-id, from the first step of the retry schedule, and returns it. Administrators only.',
    answers: [[202, QUEUED], [401], [403], [404, NOT_FOUND]],
    body: 'delivery',
  },
};

const SCHEMAS = { one: WebhookResponse, list: WebhookList, delivery: WebhookDeliveryResponse, deliveries: DeliveryList };

/** The OpenAPI description of a webhook route. */
export function WebhookRouteDoc(operation: Operation, params: Array<'id' | 'delivery_id'> = []): MethodDecorator {
  const { summary, description, answers, body } = OPERATIONS[operation];
  const decorators = [
    ApiExtraModels(WebhookResponse, WebhookDeliveryResponse, WebhookAttemptResponse, WebhookList, DeliveryList),
    ApiOperation({ summary, description }),
    ...params.map((name) =>
      ApiParam({
        name,
        type: 'integer',
        required: true,
        description: name === 'id' ? 'ID of the webhook subscription.' : 'ID of the delivery.',
      }),
    ),
  ];
  for (const [status, text] of answers) {
    const schema = status >= 400 ? { $ref: getSchemaPath(ErrorResponse) } : { $ref: getSchemaPath(SCHEMAS[body]) };
    decorators.push(ApiResponse({ status, description: text ?? RESPONSE_TEXT[status], schema }));
  }
  return applyDecorators(...decorators);
}
