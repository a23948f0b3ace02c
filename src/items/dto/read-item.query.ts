import { PasswordParam } from './list-items.query.js';

/** `password` of single reads (spec §5.6). */
export class ReadItemQueryDto {
  /** Password of a protected item. */
  @PasswordParam()
  password?: string;
}
