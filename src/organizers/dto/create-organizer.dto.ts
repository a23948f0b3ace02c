import { Required } from '../../common/validation/param.js';
import { UpdateOrganizerDto } from './update-organizer.dto.js';
import { Doc } from '../../common/validation/doc.js';

export class CreateOrganizerDto extends UpdateOrganizerDto {
  @Doc('Organizer name.')
  @Required()
  override organizer: string;
}
