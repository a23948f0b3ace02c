import { PasswordParam } from '../../items/dto/list-items.query.js';
import { Doc } from '../../common/validation/doc.js';

/** `password` of single event reads and deletes (spec §5.6). */
export class EventPasswordQueryDto {
  @Doc('Password of a protected event.')
  @PasswordParam()
  password?: string;
}
