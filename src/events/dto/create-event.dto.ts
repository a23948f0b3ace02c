import { DateField, ItemName } from '../../items/dto/item-fields.js';
import { UpdateEventDto } from './update-event.dto.js';
import { Doc } from '../../common/validation/doc.js';

export class CreateEventDto extends UpdateEventDto {
  @Doc('Event title.')
  @ItemName(true)
  override title: string;

  @Doc('Start date and time.')
  @DateField(true)
  override start_date: string;

  @Doc('End date and time.')
  @DateField(true)
  override end_date: string;
}
