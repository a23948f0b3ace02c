import 'reflect-metadata';
import { CreateEventDto } from './create-event.dto.js';
import { ListEventsQueryDto } from './list-events.query.js';
import { UpdateEventDto } from './update-event.dto.js';
import { type Dto, expectSameAsClassValidator } from '../../../test/support/validation.js';

describe("The event DTOs through the validation pipe's check without class-validator", () => {
  it.each(
    (
      [
        [UpdateEventDto, { title: 'New title' }],
        [UpdateEventDto, { title: 'New title', unknown_field: [1], featured: true, categories: [3, 4] }],
        [UpdateEventDto, { start_date: 'not a date', featured: 'perhaps' }],
        [UpdateEventDto, {}],
        [CreateEventDto, { title: 'T', start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00', extra: 1 }],
        [CreateEventDto, { title: 'T' }],
        [CreateEventDto, { title: null, start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00' }],
        [ListEventsQueryDto, { page: '2', per_page: '5', categories: '3', search: 'walk', ignored: 'yes' }],
        [ListEventsQueryDto, { page: '0', per_page: 'all' }],
      ] as Array<[Dto, object]>
    ).map(([dto, input]) => [dto.name, input, dto] as const),
  )('%s %j: the same instance or the same failure as class-validator alone', async (_name, input, dto) => {
    await expectSameAsClassValidator(dto, input);
  });
});
