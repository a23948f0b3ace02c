import 'reflect-metadata';

import { paramOrder } from '../common/validation/param.js';
import { UpdateEventDto } from './dto/update-event.dto.js';
import { plainEventFields, writePlainFields } from './event-fields.js';
import { EventEntity } from './event.entity.js';
import { eventRedactions, toEventPayload } from './event.mapper.js';
import { EventResponse } from './event.response.js';

/** Properties of a class as its OpenAPI schema documents them. */
function documented(type: { prototype: object }): string[] {
  return ((Reflect.getMetadata('swagger/apiModelPropertiesArray', type.prototype) as string[] | undefined) ?? []).map((name) =>
    name.replace(/^:/, ''),
  );
}

function sampleEvent(): EventEntity {
  return Object.assign(new EventEntity(), {
    id: 7,
    authorId: 1,
    status: 'publish',
    title: 'Sample',
    description: '',
    excerpt: '',
    slug: 'sample',
    dateUtc: '2030-01-01 00:00:00',
    modifiedUtc: '2030-01-01 00:00:00',
    allDay: false,
    startLocal: '2030-01-02 10:00:00',
    endLocal: '2030-01-02 11:00:00',
    startUtc: '2030-01-02 10:00:00',
    endUtc: '2030-01-02 11:00:00',
    timezone: 'UTC',
    cost: null,
    costSymbol: '',
    costPosition: '',
    website: null,
    showMap: true,
    showMapLink: false,
    hideFromListings: true,
    sticky: false,
    featured: true,
    customFields: null,
    seriesId: null,
  });
}

const settings = {
  site: { publicUrl: 'https://calendar.test', globalIdBase: 'calendar.test', siteTimezone: 'UTC' },
  api: 'https://calendar.test/wp-json/tribe/events/v1',
  cost: { currencySymbol: '$', currencyPosition: 'prefix', currencyCode: 'USD', decimalSeparator: '.' },
  customFields: [],
} as unknown as Parameters<typeof toEventPayload>[2];
const relations = {
  image: undefined,
  venue: null,
  venueJsonLd: null,
  organizers: [],
  firstOrganizerJsonLd: null,
  categories: [],
  tags: [],
  seriesRules: null,
};

/** The seam of docs/EXTENDING.md "A field of events": a field declared with @EventField needs no other code. */
describe('plain fields of events', () => {
  const fields = plainEventFields();

  it('are declared on the entity, in its order', () => {
    expect(fields.map((field) => field.name)).toEqual(['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured']);
  });

  it('each has a parameter of the update DTO and a property of the response class', () => {
    for (const { name } of fields) {
      expect({ name, parameter: paramOrder(UpdateEventDto).includes(name) }).toEqual({ name, parameter: true });
      expect({ name, answered: documented(EventResponse).includes(name) }).toEqual({ name, answered: true });
    }
  });

  it('the answer has exactly the documented properties, the plain fields with their stored values', () => {
    const event = sampleEvent();
    const payload = toEventPayload(event, relations, settings, false) as unknown as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toEqual(
      documented(EventResponse)
        // json_ld: single reads only; language: added through an edition's path (EventPayloadsService)
        .filter((name) => name !== 'json_ld' && name !== 'language')
        .sort(),
    );
    for (const { name, property } of fields) expect(payload[name]).toBe((event as unknown as Record<string, unknown>)[property]);
  });

  it('a write takes the fields sent and keeps the others', () => {
    const event = sampleEvent();
    writePlainFields(event, { sticky: true, title: 'not plain' });
    expect({ sticky: event.sticky, featured: event.featured, title: event.title }).toEqual({
      sticky: true,
      featured: true,
      title: 'Sample',
    });
  });

  it('a protected answer replaces every plain field', () => {
    const redactions = eventRedactions() as Record<string, unknown>;
    for (const { name } of fields) expect(Object.prototype.hasOwnProperty.call(redactions, name)).toBe(true);
  });
});
