import { PasswordParam } from './list-items.query.js';
import { Doc } from '../../common/validation/doc.js';

/** `password` of single reads (spec §5.6). */
export class ReadItemQueryDto {
  @Doc('Password of a protected item.')
  @PasswordParam()
  password?: string;
}
