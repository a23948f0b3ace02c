import { Required } from '../../common/validation/param.js';
import { UpdateOrganizerDto } from './update-organizer.dto.js';

export class CreateOrganizerDto extends UpdateOrganizerDto {
  /** Organizer name. */
  @Required()
  override organizer: string;
}
