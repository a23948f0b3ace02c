import { Required } from '../../common/validation/param.js';
import { UpdateEventDto } from './update-event.dto.js';
import { Doc } from '../../common/validation/doc.js';

export class CreateEventDto extends UpdateEventDto {
  @Doc('Event title.')
  @Required()
  override title: string;

  @Doc('Start date and time.')
  @Required()
  override start_date: string;

  @Doc('End date and time.')
  @Required()
  override end_date: string;
}
