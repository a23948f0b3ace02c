import { Required } from '../../common/validation/param.js';
import { UpdateVenueDto } from './update-venue.dto.js';
import { Doc } from '../../common/validation/doc.js';

export class CreateVenueDto extends UpdateVenueDto {
  @Doc('Venue name.')
  @Required()
  override venue: string;
}
