import type { OpenAPIObject } from '@nestjs/swagger';

type Json = Record<string, unknown>;

/** The 14 paths of spec §13.2, in their order. */
export const DOCUMENT_PATHS = [
  '/doc',
  '/events',
  '/events/{id}',
  '/events/by-slug/{slug}',
  '/venues',
  '/venues/{id}',
  '/venues/by-slug/{slug}',
  '/organizers',
  '/organizers/{id}',
  '/organizers/by-slug/{slug}',
  '/categories',
  '/categories/{id}',
  '/tags',
  '/tags/{id}',
];

/** The OpenAPI path of a route of the route table: `events/:id` → `/events/{id}`. */
export function openApiPath(routePath: string): string {
  return `/${routePath.replace(/:(\w+)/g, '{$1}')}`;
}

/** What the index and the document declare as defaults of create endpoints (spec §11.2, §11.7, §11.8). */
export const CREATE_DEFAULTS: Record<string, Record<string, unknown>> = {
  '/events': { all_day: false, website: null, categories: null, tags: null, venue: null, organizer: null },
  '/venues': {
    description: null,
    show_map: null,
    show_map_link: null,
    address: null,
    city: null,
    country: null,
    province: null,
    state: null,
    zip: null,
    phone: null,
    stateprovince: null,
    website: null,
    image: null,
  },
  '/organizers': {
    organizer: null,
    description: null,
    status: null,
    author: null,
    date: null,
    date_utc: null,
    phone: null,
    website: null,
    email: null,
    image: null,
  },
};

/**
 * The component schemas of spec §13.2, in their order. The controllers' response classes carry them
 * (`RouteDoc`); every other generated schema (list pages, nested objects, DTOs) is inlined.
 */
const SCHEMA_ORDER = ['ImageSize', 'CostDetails', 'Term', 'EventTerm', 'Image', 'DateDetails', 'Event', 'Venue', 'Organizer', 'Error'];

/** Parameters whose declaration carries no type (spec §13.1). */
const UNTYPED = new Set(['cost', 'has_events', 'only_with_upcoming']);
const OPERATION_KEYS = ['tags', 'summary', 'description', 'operationId', 'parameters', 'requestBody', 'responses', 'security'];

/**
 * The groups of operations (one per resource), in the order of the paths; the docs page shows one
 * section per tag. Operations of an extension without a tag of their own join the group of their
 * path's first segment.
 */
const TAG_DESCRIPTIONS: Record<string, string> = {
  doc: 'This OpenAPI document.',
  events: 'Calendar events: lists with filters, single events, writes and the trash.',
  venues: 'Places where events happen.',
  organizers: 'People and groups that organize events.',
  categories: 'Categories of events, nested in a hierarchy.',
  tags: 'Tags of events, without hierarchy.',
  changes: 'Every committed change of every record, in commit order, for keeping a copy in step.',
  webhooks: 'Push notifications of every committed change to other systems, signed and retried (administrators only).',
  imports: 'Import jobs for administrators: moving a site of The Events Calendar here, and keeping it in step until the switch.',
};

/**
 * Turns the document generated from the controllers into the shape of spec §13.2: the contract's
 * paths and schema order, request bodies inlined for JSON and form bodies, comma-list parameters
 * marked `form`/`explode: false`, and create defaults. Paths of extension modules follow the
 * contract's, in the order they were generated, shaped the same way.
 */
export function shapeDocument(generated: OpenAPIObject): Json {
  const schemas = (generated.components?.schemas ?? {}) as Record<string, Json>;
  const resolve = (value: unknown): unknown => inlineRefs(value, schemas, new Set(SCHEMA_ORDER));
  const paths: Json = {};
  const extensionPaths = Object.keys(generated.paths).filter((path) => !DOCUMENT_PATHS.includes(path));
  for (const path of [...DOCUMENT_PATHS, ...extensionPaths]) {
    const item = generated.paths[path] as Record<string, Json> | undefined;
    if (!item) continue;
    const operations: Json = {};
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!operation) continue;
      // a POST to a collection creates; a POST to one record (`…/{id}`) updates it
      const isCreate = method === 'post' && !path.endsWith('}');
      const shaped: Json = {};
      for (const key of OPERATION_KEYS) {
        if (key === 'tags') shaped.tags = tagsOf(operation, path);
        else if (key === 'parameters') shaped.parameters = shapeParameters((operation.parameters as Json[] | undefined) ?? [], resolve);
        else if (key === 'requestBody') {
          const body = shapeBody(operation.requestBody as Json | undefined, resolve, isCreate, CREATE_DEFAULTS[path]);
          if (body) shaped.requestBody = body;
        } else if (key === 'responses') shaped.responses = resolve(operation.responses);
        else if (operation[key] !== undefined) shaped[key] = operation[key];
      }
      operations[method] = shaped;
    }
    paths[path] = operations;
  }
  const orderedSchemas: Json = {};
  for (const name of SCHEMA_ORDER) if (schemas[name]) orderedSchemas[name] = resolve(schemas[name]);
  return {
    openapi: '3.0.3',
    info: generated.info,
    components: { schemas: orderedSchemas, securitySchemes: generated.components?.securitySchemes ?? {} },
    servers: [],
    paths,
    tags: documentTags(paths),
  };
}

function tagsOf(operation: Json, path: string): string[] {
  const declared = operation.tags as string[] | undefined;
  return declared && declared.length > 0 ? declared : [path.split('/')[1] ?? 'doc'];
}

/** The document's list of tags: each tag used by an operation, once, in the order of first use. */
function documentTags(paths: Json): Json[] {
  const names = new Set<string>();
  for (const item of Object.values(paths) as Json[]) {
    for (const operation of Object.values(item) as Json[]) for (const name of operation.tags as string[]) names.add(name);
  }
  return [...names].map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name }));
}

function shapeParameters(parameters: Json[], resolve: (value: unknown) => unknown): Json[] {
  const path = parameters.filter((parameter) => parameter.in === 'path');
  const query = parameters.filter((parameter) => parameter.in !== 'path');
  return [...path, ...query].map((parameter) => {
    const schema = { ...(resolve(parameter.schema) as Json) };
    if (UNTYPED.has(String(parameter.name))) delete schema.type;
    const shaped: Json = {
      name: parameter.name,
      in: parameter.in,
      description: parameter.description ?? '',
      required: parameter.in === 'path' ? true : Boolean(parameter.required),
      schema,
    };
    if (schema.type === 'array') {
      shaped.style = 'form';
      shaped.explode = false;
    }
    return shaped;
  });
}

function shapeBody(
  body: Json | undefined,
  resolve: (value: unknown) => unknown,
  isCreate: boolean,
  defaults: Json | undefined,
): Json | undefined {
  const content = body?.content as Record<string, { schema?: unknown }> | undefined;
  const schema = content ? (resolve(Object.values(content)[0]?.schema) as Json | undefined) : undefined;
  if (!schema) return undefined;
  const properties = { ...((schema.properties as Record<string, Json> | undefined) ?? {}) };
  for (const [name, property] of Object.entries(properties)) {
    const shaped = { ...property };
    if (UNTYPED.has(name)) delete shaped.type;
    if (!isCreate) delete shaped.default;
    else if (defaults && name in defaults) {
      shaped.default = defaults[name];
      if (defaults[name] === null) {
        shaped.nullable = true;
        if (Array.isArray(shaped.enum)) shaped.enum = [...(shaped.enum as unknown[]), null];
      }
    }
    properties[name] = shaped;
  }
  const shapedSchema: Json = { type: 'object', properties };
  if (isCreate && Array.isArray(schema.required) && schema.required.length > 0) shapedSchema.required = schema.required;
  return {
    required: isCreate,
    content: { 'application/json': { schema: shapedSchema }, 'application/x-www-form-urlencoded': { schema: shapedSchema } },
  };
}

/** Replaces `$ref`s to schemas outside the contract's list (DTOs, nested helpers) by their content. */
function inlineRefs(value: unknown, schemas: Record<string, Json>, keep: Set<string>, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((item) => inlineRefs(item, schemas, keep, depth));
  if (value === null || typeof value !== 'object' || depth > 20) return value;
  const object = value as Json;
  if (typeof object.$ref === 'string') {
    const name = object.$ref.split('/').at(-1) as string;
    if (keep.has(name) || !schemas[name]) return object;
    return inlineRefs(schemas[name], schemas, keep, depth + 1);
  }
  return Object.fromEntries(Object.entries(object).map(([key, child]) => [key, inlineRefs(child, schemas, keep, depth + 1)]));
}
