import { ItemName } from '../../items/dto/item-fields.js';
import { UpdateOrganizerDto } from './update-organizer.dto.js';
import { Doc } from '../../common/validation/doc.js';

export class CreateOrganizerDto extends UpdateOrganizerDto {
  @Doc('Organizer name.', { example: 'Harbour Walks Club' })
  @ItemName(true)
  override organizer: string;
}
