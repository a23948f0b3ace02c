import { PasswordParam } from '../../items/dto/list-items.query.js';

/** `password` of single event reads and deletes (spec §5.6). */
export class EventPasswordQueryDto {
  /** Password of a protected event. */
  @PasswordParam()
  password?: string;
}
