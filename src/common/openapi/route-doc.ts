import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiOperation, ApiParam, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorResponse } from '../errors/error.response.js';
import { listPageResponse } from '../paging/list-page.response.js';
import { schemaClosure } from './response-schema.js';

/**
 * English summary, description and documented answers of every operation (spec §13.2), in one
 * place so controllers stay thin. Other editions translate these texts.
 */
export type RouteKind = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
export type RouteOperation = 'list' | 'create' | 'read' | 'readBySlug' | 'update' | 'updateBySlug' | 'delete' | 'deleteBySlug';

/** The noun of each kind, alone, with its indefinite article, and in the plural. */
const NOUN: Record<RouteKind, { one: string; aOne: string; many: string }> = {
  events: { one: 'event', aOne: 'an event', many: 'events' },
  venues: { one: 'venue', aOne: 'a venue', many: 'venues' },
  organizers: { one: 'organizer', aOne: 'an organizer', many: 'organizers' },
  categories: { one: 'category', aOne: 'a category', many: 'categories' },
  tags: { one: 'tag', aOne: 'a tag', many: 'tags' },
};

/** The description of each documented answer; extension modules use the same texts (translated already). */
export const RESPONSE_TEXT: Readonly<Record<number, string>> = {
  200: 'The request succeeded.',
  201: 'The record was created.',
  304: 'The copy the client holds is current (If-None-Match or If-Modified-Since); the answer has no body.',
  400: 'A parameter is missing or invalid.',
  401: 'Authentication is required.',
  403: 'The requester is not allowed to do this.',
  404: 'The record or page does not exist.',
  410: 'The record is already in the trash.',
  412: 'The If-Match condition failed: the record has changed or does not exist, and nothing was changed.',
  500: 'The record could not be stored.',
};

const TERMS = new Set<RouteKind>(['categories', 'tags']);

/** Conditional requests (docs/API.md, "Conditional requests"): the request and answer headers, documented once. */
const CONDITION_TEXT = {
  ifNoneMatch:
    'Entity tags (ETag) of copies the client holds, or *: when one matches the current answer, the answer is 304 without a body.',
  ifModifiedSince:
    'An HTTP date, used only without If-None-Match: when the answer has not changed since then (Last-Modified), it is 304 without a body.',
  ifMatch:
    'Entity tags (ETag) the change is based on, as a GET of the same URL by the same requester answers them, or * (the record must exist); otherwise the answer is 412 and nothing is changed.',
  etag: 'Strong entity tag of this answer (its body and list headers): it changes whenever they change, and only then.',
  itemModified: 'When the record, or the newest record of this page, was last modified.',
  termsModified: 'When the terms last changed, when that is known.',
  cacheControl:
    'public, max-age=N, must-revalidate (with s-maxage=M when a cache in front may keep it) for anonymous requests; private, no-cache for authenticated ones and for reads with a password.',
} as const;

const TEXT_HEADER = { schema: { type: 'string' } } as const;

/** The headers of a 200 answer to a read; `lastModified` when the answer can carry `Last-Modified`. */
export function readAnswerHeaders(lastModified?: string): Record<string, { description: string; schema: { type: 'string' } }> {
  return {
    ETag: { description: CONDITION_TEXT.etag, ...TEXT_HEADER },
    ...(lastModified ? { 'Last-Modified': { description: lastModified, ...TEXT_HEADER } } : {}),
    'Cache-Control': { description: CONDITION_TEXT.cacheControl, ...TEXT_HEADER },
  };
}

/** `If-None-Match` (and `If-Modified-Since` where answers carry `Last-Modified`) and the 304 answer of a read. */
export function ConditionalReadDoc(withLastModified: boolean): MethodDecorator {
  return applyDecorators(
    ApiHeader({ name: 'If-None-Match', required: false, description: CONDITION_TEXT.ifNoneMatch }),
    ...(withLastModified ? [ApiHeader({ name: 'If-Modified-Since', required: false, description: CONDITION_TEXT.ifModifiedSince })] : []),
    ApiResponse({ status: 304, description: RESPONSE_TEXT[304] }),
  );
}

function codes(kind: RouteKind, operation: RouteOperation): number[] {
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
      return isEvent ? [200, 201, 400, 401, 403, 404, 412] : [200, 201, 400, 401, 403, 412];
    default:
      return isTerm ? [200, 400, 401, 403, 412] : isEvent ? [200, 400, 401, 403, 404, 410, 412, 500] : [200, 400, 401, 403, 410, 412, 500];
  }
}

function texts(kind: RouteKind, operation: RouteOperation): { summary: string; description: string } {
  const { one, aOne, many } = NOUN[kind];
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
      return { summary: `Create ${aOne}`, description: `Creates ${aOne} and returns it.` };
    case 'read':
      return { summary: `Read ${aOne}`, description: `Returns the ${one} with this ID.` };
    case 'readBySlug':
      return { summary: `Read ${aOne} by slug`, description: `Returns the ${one} with this slug.` };
    case 'update':
      return {
        summary: `Update ${aOne}`,
        description: `Changes the fields sent and returns the ${one}; fields not sent keep their values.`,
      };
    case 'updateBySlug':
      return {
        summary: `Update ${aOne} by slug`,
        description: `Changes the fields sent of the ${one} with this slug; fields not sent keep their values.`,
      };
    case 'delete':
      return { summary: `Delete ${aOne}`, description: trash };
    case 'deleteBySlug':
      return { summary: `Delete ${aOne} by slug`, description: trash };
  }
}

/**
 * Documents one operation: texts, path parameter, answers and their schemas. `response` is the class
 * of the record the route answers with (a list answers with a page of them); it and every class it
 * references become schemas of the document.
 */
export function RouteDoc(kind: RouteKind, operation: RouteOperation, response: Type): MethodDecorator {
  const { one } = NOUN[kind];
  const success = operation === 'list' ? listPageResponse(kind, response) : response;
  const decorators: MethodDecorator[] = [ApiOperation(texts(kind, operation)), ApiExtraModels(...schemaClosure(success), ErrorResponse)];
  if (['read', 'update', 'delete'].includes(operation)) {
    decorators.push(ApiParam({ name: 'id', type: 'integer', required: true, description: `ID of the ${one}.` }));
  } else if (['readBySlug', 'updateBySlug', 'deleteBySlug'].includes(operation)) {
    decorators.push(ApiParam({ name: 'slug', type: 'string', required: true, description: `Slug of the ${one}.` }));
  }
  const isRead = ['list', 'read', 'readBySlug'].includes(operation);
  if (isRead) decorators.push(ConditionalReadDoc(true));
  else if (operation !== 'create') {
    decorators.push(ApiHeader({ name: 'If-Match', required: false, description: CONDITION_TEXT.ifMatch }));
  }
  const modified = TERMS.has(kind) ? CONDITION_TEXT.termsModified : CONDITION_TEXT.itemModified;
  for (const status of codes(kind, operation)) {
    const schema = status === 200 || status === 201 ? success : ErrorResponse;
    const headers = status === 200 && isRead ? { headers: readAnswerHeaders(modified) } : {};
    decorators.push(ApiResponse({ status, description: RESPONSE_TEXT[status], schema: { $ref: getSchemaPath(schema) }, ...headers }));
  }
  return applyDecorators(...decorators);
}
