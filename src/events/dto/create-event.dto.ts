import { Required } from '../../common/validation/param.js';
import { UpdateEventDto } from './update-event.dto.js';

export class CreateEventDto extends UpdateEventDto {
  /** Event title. */
  @Required()
  override title: string;

  /** Start date and time. */
  @Required()
  override start_date: string;

  /** End date and time. */
  @Required()
  override end_date: string;
}
