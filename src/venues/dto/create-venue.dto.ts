import { ItemName } from '../../items/dto/item-fields.js';
import { UpdateVenueDto } from './update-venue.dto.js';
import { Doc } from '../../common/validation/doc.js';

export class CreateVenueDto extends UpdateVenueDto {
  @Doc('Venue name.', { example: 'Harbour Pavilion' })
  @ItemName(true)
  override venue: string;
}
