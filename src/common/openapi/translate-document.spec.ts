import { proseStrings, translateDocument } from './translate-document.js';

describe('translateDocument', () => {
  const document = {
    openapi: '3.0.3',
    info: { title: 'Event Calendar API', description: 'Read events.', version: '1.0.0' },
    paths: {
      '/events': {
        get: {
          summary: 'List events',
          description: 'Returns events.',
          operationId: 'EventsController_list',
          parameters: [
            {
              name: 'description',
              in: 'query',
              description: 'Search text.',
              schema: { type: 'string', enum: ['title', 'description'], default: 'title' },
            },
          ],
          responses: {
            '200': { description: 'The list.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        Event: {
          type: 'object',
          required: ['title', 'description'],
          properties: {
            title: { type: 'string', description: 'Title of the event.', example: 'Harbour Lantern Walk' },
            description: { type: 'string', description: 'Description, as HTML.' },
            summary: { type: 'object', properties: { description: { type: 'string', description: 'Nested.' } } },
          },
        },
      },
    },
    routes: {
      '/tribe/events/v1/events': { endpoints: [{ args: { title: { type: 'string', description: 'Event title.', required: true } } }] },
    },
  };
  const upper = translateDocument(document, (text) => `«${text}»`);

  it('translates titles, summaries and descriptions', () => {
    expect(upper.info.title).toBe('«Event Calendar API»');
    expect(upper.paths['/events'].get.summary).toBe('«List events»');
    expect(upper.paths['/events'].get.parameters[0].description).toBe('«Search text.»');
    expect(upper.paths['/events'].get.responses['200'].description).toBe('«The list.»');
    expect(upper.components.schemas.Event.properties.title.description).toBe('«Title of the event.»');
    expect(upper.components.schemas.Event.properties.summary.properties.description.description).toBe('«Nested.»');
    expect(upper.routes['/tribe/events/v1/events'].endpoints[0].args.title.description).toBe('«Event title.»');
  });

  it('never touches identifiers, names, enums, defaults, examples, refs or versions', () => {
    expect(upper.openapi).toBe('3.0.3');
    expect(upper.info.version).toBe('1.0.0');
    expect(Object.keys(upper.paths)).toEqual(['/events']);
    expect(upper.paths['/events'].get.operationId).toBe('EventsController_list');
    const parameter = upper.paths['/events'].get.parameters[0];
    expect(parameter.name).toBe('description');
    expect(parameter.schema).toEqual({ type: 'string', enum: ['title', 'description'], default: 'title' });
    expect(Object.keys(upper.components.schemas.Event.properties)).toEqual(['title', 'description', 'summary']);
    expect(upper.components.schemas.Event.required).toEqual(['title', 'description']);
    expect(upper.components.schemas.Event.properties.title.example).toBe('Harbour Lantern Walk');
    expect(upper.paths['/events'].get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/Event');
  });

  it('leaves the original untouched and lists every prose string once', () => {
    expect(document.info.title).toBe('Event Calendar API');
    expect(proseStrings(document).sort()).toEqual(
      [
        'Description, as HTML.',
        'Event Calendar API',
        'Event title.',
        'List events',
        'Nested.',
        'Read events.',
        'Returns events.',
        'Search text.',
        'The list.',
        'Title of the event.',
      ].sort(),
    );
  });
});
