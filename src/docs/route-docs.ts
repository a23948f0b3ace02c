import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiParam, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { EventSchema, OrganizerSchema, RESPONSE_SCHEMAS, TermSchema, VenueSchema } from './response-schemas.js';

/**
 * English summary, description and documented answers of every operation (spec §13.2), in one
 * place so controllers stay thin. Other editions translate these texts.
 */
type Kind = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
type Operation = 'list' | 'create' | 'read' | 'readBySlug' | 'update' | 'updateBySlug' | 'delete' | 'deleteBySlug';

const NOUN: Record<Kind, { one: string; many: string }> = {
  events: { one: 'event', many: 'events' },
  venues: { one: 'venue', many: 'venues' },
  organizers: { one: 'organizer', many: 'organizers' },
  categories: { one: 'category', many: 'categories' },
  tags: { one: 'tag', many: 'tags' },
};

const SCHEMA: Record<Kind, Function> = {
  events: EventSchema,
  venues: VenueSchema,
  organizers: OrganizerSchema,
  categories: TermSchema,
  tags: TermSchema,
};

const RESPONSE_TEXT: Record<number, string> = {
  200: 'The request succeeded.',
  201: 'The record was created.',
  400: 'A parameter is missing or invalid.',
  401: 'Authentication is required.',
  403: 'The requester is not allowed to do this.',
  404: 'The record or page does not exist.',
  410: 'The record is already in the trash.',
  500: 'The record could not be stored.',
};

const TERMS = new Set<Kind>(['categories', 'tags']);

function codes(kind: Kind, operation: Operation): number[] {
  const isEvent = kind === 'events';
  const isTerm = TERMS.has(kind);
  switch (operation) {
    case 'list':
      return isTerm ? [200, 400] : [200, 400, 404];
    case 'create':
      return [201, 400, 401, 403];
    case 'read':
    case 'readBySlug':
      return isTerm ? [200, 400] : isEvent ? [200, 400, 403, 404] : [200, 400, 403];
    case 'update':
    case 'updateBySlug':
      return isEvent ? [200, 201, 400, 401, 403, 404] : [200, 201, 400, 401, 403];
    default:
      return isTerm ? [200, 400, 401, 403] : isEvent ? [200, 400, 401, 403, 404, 410, 500] : [200, 400, 401, 403, 410, 500];
  }
}

function texts(kind: Kind, operation: Operation): { summary: string; description: string } {
  const { one, many } = NOUN[kind];
  const trash = TERMS.has(kind)
    ? 'The term is deleted permanently and returned as it was.'
    : 'The record is moved to the trash and returned.';
  switch (operation) {
    case 'list':
      return {
        summary: `List ${many}`,
        description: `Returns a page of ${many} matching the filters, with links to the neighbouring pages.`,
      };
    case 'create':
      return { summary: `Create a ${one}`, description: `Creates a ${one} and returns it.` };
    case 'read':
      return { summary: `Read a ${one}`, description: `Returns the ${one} with this ID.` };
    case 'readBySlug':
      return { summary: `Read a ${one} by slug`, description: `Returns the ${one} with this slug.` };
    case 'update':
      return {
        summary: `Update a ${one}`,
        description: `Changes the fields sent and returns the ${one}; fields not sent keep their values.`,
      };
    case 'updateBySlug':
      return {
        summary: `Update a ${one} by slug`,
        description: `Changes the fields sent of the ${one} with this slug; fields not sent keep their values.`,
      };
    case 'delete':
      return { summary: `Delete a ${one}`, description: trash };
    case 'deleteBySlug':
      return { summary: `Delete a ${one} by slug`, description: trash };
  }
}

function listSchema(kind: Kind) {
  return {
    type: 'object',
    properties: {
      [kind]: { type: 'array', items: { $ref: getSchemaPath(SCHEMA[kind]) } },
      rest_url: { type: 'string', format: 'uri', description: 'This page of the list.' },
      next_rest_url: { type: 'string', format: 'uri', description: 'The next page, when there is one.' },
      previous_rest_url: { type: 'string', format: 'uri', description: 'The previous page, when there is one.' },
      total: { type: 'integer', description: 'Number of matching records.' },
      total_pages: { type: 'integer', description: 'Number of pages.' },
    },
  };
}

/** Documents one operation: texts, path parameter, answers and their schemas. */
export function RouteDoc(kind: Kind, operation: Operation): MethodDecorator {
  const { one } = NOUN[kind];
  const decorators: Array<MethodDecorator | ClassDecorator> = [ApiOperation(texts(kind, operation)), ApiExtraModels(...RESPONSE_SCHEMAS)];
  if (['read', 'update', 'delete'].includes(operation)) {
    decorators.push(ApiParam({ name: 'id', type: 'integer', required: true, description: `ID of the ${one}.` }));
  } else if (['readBySlug', 'updateBySlug', 'deleteBySlug'].includes(operation)) {
    decorators.push(ApiParam({ name: 'slug', type: 'string', required: true, description: `Slug of the ${one}.` }));
  }
  for (const status of codes(kind, operation)) {
    const description = RESPONSE_TEXT[status];
    if (status === 200 || status === 201) {
      const schema = operation === 'list' ? listSchema(kind) : { $ref: getSchemaPath(SCHEMA[kind]) };
      decorators.push(ApiResponse({ status, description, schema: schema as never }));
    } else {
      decorators.push(ApiResponse({ status, description, schema: { $ref: '#/components/schemas/Error' } }));
    }
  }
  return applyDecorators(...decorators) as MethodDecorator;
}

/** `GET /doc`. */
export function DocumentDoc(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: 'OpenAPI document', description: 'Describes every route of this edition of the API.' }),
    ApiResponse({ status: 200, description: 'The OpenAPI document.', schema: { type: 'object' } }),
  ) as MethodDecorator;
}
