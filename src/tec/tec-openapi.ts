import { DELETE_ARGS, TEC_RESOURCES, type TecArg, type TecArgs } from './tec-args.js';

type Json = Record<string, unknown>;

const article = (noun: string) => (/^[AEIOU]/.test(noun) ? 'an' : 'a');
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });

function schemaOf(arg: TecArg): Json {
  const { description: _description, ...schema } = arg;
  return { ...schema, ...(arg.type === 'array' ? { uniqueItems: true } : {}) };
}

function bodySchema(args: TecArgs): Json {
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(args).map(([name, arg]) => [name, { ...schemaOf(arg), description: arg.description }])),
  };
}

const rendered = { type: 'object', properties: { rendered: { type: 'string' } } };
const protectedText = { type: 'object', properties: { rendered: { type: 'string' }, protected: { type: 'boolean', nullable: true } } };
const str = { type: 'string' };
const int = { type: 'integer' };
const ints = { type: 'array', items: int };
const nullableBool = { type: 'boolean', nullable: true };
const phpDate = {
  type: 'object',
  properties: { date: str, timezone_type: int, timezone: str },
};

/** The fields WordPress core gives every record. */
const POST_ENTITY: Json = {
  type: 'object',
  properties: {
    id: int,
    date: { type: 'string', format: 'date-time' },
    date_gmt: { type: 'string', format: 'date-time' },
    guid: rendered,
    modified: { type: 'string', format: 'date-time' },
    modified_gmt: { type: 'string', format: 'date-time' },
    slug: str,
    status: { type: 'string', enum: ['publish', 'pending', 'draft', 'future', 'private'] },
    type: str,
    link: { type: 'string', format: 'uri' },
    title: rendered,
    content: protectedText,
    excerpt: protectedText,
    author: int,
    featured_media: int,
    template: str,
  },
};

const withEntity = (properties: Json): Json => ({ allOf: [ref('TEC_Post_Entity'), { type: 'object', properties }] });

const BASE_SCHEMAS: Json = {
  TEC_Post_Entity: POST_ENTITY,
  Event: withEntity({
    tags: ints,
    tribe_events_cat: ints,
    class_list: { type: 'array', items: str },
    start_date: str,
    start_date_utc: str,
    end_date: str,
    end_date_utc: str,
    dates: { type: 'object', additionalProperties: phpDate },
    timezone: str,
    duration: { type: 'string', description: 'Seconds, written as a string.' },
    multiday: { oneOf: [{ type: 'boolean' }, int], nullable: true },
    is_past: nullableBool,
    is_now: nullableBool,
    all_day: nullableBool,
    starts_this_week: nullableBool,
    ends_this_week: nullableBool,
    this_week_duration: { type: 'integer', nullable: true },
    happens_this_week: nullableBool,
    displays_on: { type: 'array', items: str },
    featured: nullableBool,
    sticky: nullableBool,
    cost: str,
    organizer_names: { type: 'array', items: str },
    organizers: { type: 'array', items: ref('Organizer') },
    venues: { type: 'array', items: ref('Venue') },
    schedule_details: str,
    short_schedule_details: str,
  }),
  Venue: withEntity(
    Object.fromEntries(
      ['address', 'country', 'city', 'state_province', 'state', 'province', 'zip', 'phone', 'directions_link', 'website'].map((name) => [
        name,
        str,
      ]),
    ),
  ),
  Organizer: withEntity({ phone: str, website: str, email: str }),
  Error: {
    type: 'object',
    properties: { code: str, message: str, data: { type: 'object', properties: { status: int }, additionalProperties: true } },
  },
};

function parameters(args: TecArgs): Json[] {
  return Object.entries(args).map(([name, arg]) => ({
    name,
    in: 'query',
    description: arg.description,
    required: false,
    ...(arg.type === 'array' ? { explode: false } : {}),
    schema: schemaOf(arg),
  }));
}

const errors = (...codes: Array<[number, string]>): Json =>
  Object.fromEntries(codes.map(([code, description]) => [String(code), { description, content: json(ref('Error')) }]));

/** The OpenAPI 3 document of `tec/v1` at `api` (`{base}/tec/v1`). */
export function tecOpenApiDocument(api: string): Json {
  const paths: Json = {};
  const schemas: Json = { ...BASE_SCHEMAS };
  const basic = [{ BasicAuth: [] }];
  for (const { resource, list, write, tag, one } of TEC_RESOURCES) {
    const idParam = { name: 'id', in: 'path', description: `ID of the ${one.toLowerCase()}.`, required: true, schema: int };
    const body = { required: true, content: json(ref(`${one}_Request_Body`)) };
    const update = (verb: string) => ({
      summary: `${verb} ${article(one)} ${one}`,
      security: basic,
      operationId: `${verb === 'Update' ? 'update' : 'patch'}${one}`,
      tags: [tag],
      parameters: [idParam],
      requestBody: body,
      responses: {
        '200': { description: `The ${one.toLowerCase()} as stored.`, content: json(ref(one)) },
        ...errors([400, 'Invalid fields.'], [401, 'No credentials.'], [403, 'Not allowed.'], [404, 'No such record.']),
      },
    });
    paths[`/${resource}`] = {
      get: {
        summary: `List ${tag}`,
        security: [],
        operationId: `get${tag}`,
        tags: [tag],
        parameters: parameters(list),
        responses: {
          '200': {
            description: `One page of ${resource}; X-WP-Total and X-WP-TotalPages give the totals.`,
            content: json({ type: 'array', items: ref(one) }),
          },
          ...errors([400, 'Invalid parameters.'], [404, 'A page past the end.']),
        },
      },
      post: {
        summary: `Create ${article(one)} ${one}`,
        security: basic,
        operationId: `create${one}`,
        tags: [tag],
        parameters: [],
        requestBody: body,
        responses: {
          '201': { description: `The ${one.toLowerCase()} created.`, content: json(ref(one)) },
          ...errors([400, 'Invalid or missing fields.'], [401, 'No credentials.'], [403, 'Not allowed.']),
        },
      },
    };
    paths[`/${resource}/{id}`] = {
      get: {
        summary: `Read ${article(one)} ${one}`,
        security: [],
        operationId: `get${one}`,
        tags: [tag],
        parameters: [idParam],
        responses: {
          '200': { description: `The ${one.toLowerCase()}.`, content: json(ref(one)) },
          ...errors([401, 'Not allowed to read it.'], [403, 'Not allowed to read it.'], [404, 'No such record.']),
        },
      },
      put: update('Update'),
      patch: update('Patch'),
      delete: {
        summary: `Delete ${article(one)} ${one}`,
        security: basic,
        operationId: `delete${one}`,
        tags: [tag],
        parameters: [idParam, ...parameters(DELETE_ARGS)],
        responses: {
          '200': { description: 'Moved to the trash, or deleted for good with force; the body is [].' },
          ...errors([401, 'No credentials.'], [403, 'Not allowed.'], [404, 'No such record.'], [410, 'Already in the trash.']),
        },
      },
    };
    schemas[`${one}_Request_Body`] = bodySchema(write);
  }
  paths['/docs'] = {
    get: {
      summary: 'This document',
      security: [],
      operationId: 'getOpenApiDocs',
      tags: ['Common'],
      parameters: [],
      responses: { '200': { description: 'The OpenAPI document of tec/v1.', content: json({ type: 'object' }) } },
    },
  };
  return {
    openapi: '3.0.4',
    info: {
      title: 'The Events Calendar REST API (tec/v1)',
      version: '1.0.0',
      description: 'Events, venues and organizers in the shapes of WordPress core, served over the same data as tribe/events/v1.',
    },
    tags: [
      { name: 'Events', description: 'Events.' },
      { name: 'Organizers', description: 'Organizers.' },
      { name: 'Venues', description: 'Venues.' },
      { name: 'Common', description: 'About the API itself.' },
    ],
    components: { schemas, securitySchemes: { BasicAuth: { type: 'http', scheme: 'basic' } } },
    servers: [{ url: api }],
    paths,
  };
}
