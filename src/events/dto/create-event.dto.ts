import { DateField, ItemName } from '../../items/dto/item-fields.js';
import { UpdateEventDto } from './update-event.dto.js';
import { Doc } from '../../common/validation/doc.js';

export class CreateEventDto extends UpdateEventDto {
  @Doc('Event title.', { example: 'Harbour Lantern Walk' })
  @ItemName(true)
  override title: string;

  @Doc('Start date and time.', { example: '2027-03-20 19:30:00' })
  @DateField(true)
  override start_date: string;

  @Doc('End date and time.', { example: '2027-03-20 21:30:00' })
  @DateField(true)
  override end_date: string;
}
