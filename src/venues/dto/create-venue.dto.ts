import { Required } from '../../common/validation/param.js';
import { UpdateVenueDto } from './update-venue.dto.js';

export class CreateVenueDto extends UpdateVenueDto {
  /** Venue name. */
  @Required()
  override venue: string;
}
